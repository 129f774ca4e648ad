import { currencyExponent, isKnownCurrency } from '../../../../shared/domain/currencies';
import { MoneyParseError, parseMinor } from '../../../../shared/domain/money';

/** The amount field's meaning: minor units, or why it cannot be sent (parsed strictly, never a float). */
export function parseAmountField(
  text: string,
  currency: string,
): { ok: true; amountMinor: number } | { ok: false; message: string } {
  const t = text.trim();
  if (!isKnownCurrency(currency)) return { ok: false, message: 'Choose a currency first.' };
  if (t === '') return { ok: false, message: 'Type the amount.' };
  try {
    const amountMinor = parseMinor(t, currency);
    if (amountMinor <= 0) return { ok: false, message: 'The amount must be greater than zero.' };
    return { ok: true, amountMinor };
  } catch (e) {
    const exp = currencyExponent(currency);
    if (e instanceof MoneyParseError && e.reason === 'decimals')
      return {
        ok: false,
        message:
          exp === 0
            ? `${currency} has no decimals: type a whole number.`
            : `${currency} amounts have at most ${exp} decimals.`,
      };
    return {
      ok: false,
      message: 'Type a plain amount such as 25.00 (digits and a dot, no commas or currency signs).',
    };
  }
}
