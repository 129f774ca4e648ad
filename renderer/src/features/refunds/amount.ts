import { type Currency, currencyExponent } from '../../../../shared/domain/currencies';
import { formatMinor, MoneyParseError } from '../../../../shared/domain/money';
import { parseLocaleAmount } from '../../../../shared/domain/money-input';
import { PLAIN_NUMBERS, type NumberWords } from './format';

/** What the amount field currently means, for the live "remaining after this refund" line. */
export type AmountCheck =
  | { ok: true; amountMinor: number }
  | {
      ok: false;
      reason: 'empty' | 'format' | 'decimals' | 'zero' | 'over_remaining' | 'ambiguous';
      message: string;
      amountMinor?: number;
    };

/** Why a currency's amount was refused, in the words the dialog shows. */
function decimalsMessage(currency: Currency): string {
  const exp = currencyExponent(currency);
  return exp === 0
    ? `${currency} has no decimals: type a whole number.`
    : `${currency} amounts have at most ${exp} decimals.`;
}

/**
 * Parses the typed refund amount in the person's number format (shared parseLocaleAmount: `12,50` in
 * German, `12.50` in English; no floats, no guessing — an ambiguous value is refused with the question)
 * and checks it against what remains refundable. Main re-checks all of this against a fresh query; this
 * is only so the person sees the problem while typing. `f`: the person's formatters.
 */
export function checkRefundAmount(
  text: string,
  currency: Currency,
  remainingMinor: number,
  f: NumberWords = PLAIN_NUMBERS,
): AmountCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty', message: 'Type the amount to refund.' };
  let amountMinor: number;
  try {
    amountMinor = parseLocaleAmount(trimmed, currency, f.locale);
  } catch (e) {
    if (!(e instanceof MoneyParseError)) throw e;
    if (e.reason === 'negative')
      return { ok: false, reason: 'zero', message: 'The refund amount must be greater than zero.' };
    if (e.reason === 'decimals') return { ok: false, reason: 'decimals', message: decimalsMessage(currency) };
    if (e.reason === 'ambiguous') return { ok: false, reason: 'ambiguous', message: e.message };
    const example = f.amount(12345 * 10 ** Math.max(0, currencyExponent(currency) - 2), currency);
    return {
      ok: false,
      reason: 'format',
      message: `Type an amount such as ${example} (digits${currencyExponent(currency) > 0 ? ' and the decimals' : ''}, no currency signs).`,
    };
  }
  if (amountMinor <= 0)
    return {
      ok: false,
      reason: 'zero',
      message: 'The refund amount must be greater than zero.',
      amountMinor,
    };
  if (amountMinor > remainingMinor) {
    return {
      ok: false,
      reason: 'over_remaining',
      amountMinor,
      message: `That is more than remains refundable (${f.amountCode(Math.max(0, remainingMinor), currency)}).`,
    };
  }
  return { ok: true, amountMinor };
}

/** Remaining refundable after this refund: never below zero, and unchanged while the amount is unreadable. */
export function remainingAfter(remainingMinor: number, check: AmountCheck): number {
  const remaining = Math.max(0, remainingMinor);
  const amount = check.ok ? check.amountMinor : check.amountMinor;
  if (amount === undefined || amount <= 0) return remaining;
  return Math.max(0, remaining - amount);
}

/** The text the amount field starts with: the full remaining amount, as the person's locale writes it. */
export function defaultAmountText(
  remainingMinor: number,
  currency: Currency,
  f: NumberWords = PLAIN_NUMBERS,
): string {
  return remainingMinor > 0 ? f.amount(remainingMinor, currency) : '';
}

/** True when the amount typed a second time (production) is the same amount, compared in minor units. */
export function typedAmountMatches(
  typed: string,
  currency: Currency,
  amountMinor: number,
  f: NumberWords = PLAIN_NUMBERS,
): boolean {
  try {
    return parseLocaleAmount(typed.trim(), currency, f.locale) === amountMinor;
  } catch {
    return false;
  }
}

/**
 * A typed amount as main reads it (a plain decimal): "12,50" typed in German goes as "12.50". Text that
 * does not read as an amount goes as typed, and main refuses it.
 */
export function toPlainDecimal(typed: string, currency: Currency, f: NumberWords = PLAIN_NUMBERS): string {
  try {
    return formatMinor(parseLocaleAmount(typed.trim(), currency, f.locale), currency);
  } catch {
    return typed.trim();
  }
}

/**
 * The dialog's "already refunded / pending / remaining" lines. `remainingMinor` comes from main (which
 * also counts this app's own unsettled intents); pending is derived from it so the three lines always
 * add up to the payment amount exactly as main computed it.
 */
export function refundBreakdown(
  tx: {
    amountMinor: number;
    currency: Currency;
    refunds: ReadonlyArray<{ refundAmountMinor: number; status: string; currency: Currency }>;
  },
  remainingMinor: number,
): { refundedMinor: number; pendingMinor: number; remainingMinor: number } {
  // Refunds in another currency are never added as if they were in the payment's (main refuses those).
  const refundedMinor = tx.refunds
    .filter((r) => r.status === 'success' && r.currency === tx.currency)
    .reduce((s, r) => s + r.refundAmountMinor, 0);
  const remaining = Math.max(0, remainingMinor);
  return {
    refundedMinor,
    pendingMinor: Math.max(0, tx.amountMinor - refundedMinor - remaining),
    remainingMinor: remaining,
  };
}
