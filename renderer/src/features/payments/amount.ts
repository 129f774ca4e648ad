import { currencyExponent, isKnownCurrency } from '../../../../shared/domain/currencies';
import { MoneyParseError } from '../../../../shared/domain/money';
import { parseLocaleAmount } from '../../../../shared/domain/money-input';
import { PLAIN_NUMBERS, type NumberWords } from '../refunds/format';

/**
 * The amount field's meaning: minor units, or why it cannot be sent. Read in the person's number format
 * (`25,50` in German; an ambiguous value is refused with the question), never as a float.
 */
export function parseAmountField(
  text: string,
  currency: string,
  f: NumberWords = PLAIN_NUMBERS,
): { ok: true; amountMinor: number } | { ok: false; message: string } {
  const t = text.trim();
  if (!isKnownCurrency(currency)) return { ok: false, message: 'Choose a currency first.' };
  if (t === '') return { ok: false, message: 'Type the amount.' };
  try {
    const amountMinor = parseLocaleAmount(t, currency, f.locale);
    if (amountMinor <= 0) return { ok: false, message: 'The amount must be greater than zero.' };
    return { ok: true, amountMinor };
  } catch (e) {
    if (!(e instanceof MoneyParseError)) throw e;
    const exp = currencyExponent(currency);
    if (e.reason === 'negative') return { ok: false, message: 'The amount must be greater than zero.' };
    if (e.reason === 'ambiguous') return { ok: false, message: e.message };
    if (e.reason === 'decimals')
      return {
        ok: false,
        message:
          exp === 0
            ? `${currency} has no decimals: type a whole number.`
            : `${currency} amounts have at most ${exp} decimals.`,
      };
    return {
      ok: false,
      message: `Type an amount such as ${f.amount(2500, currency)} (digits, no currency signs).`,
    };
  }
}
