import { type Currency, currencyExponent } from '../../../../shared/domain/currencies';
import { formatMinor, MoneyParseError, parseMinor } from '../../../../shared/domain/money';

/** What the amount field currently means, for the live "remaining after this refund" line. */
export type AmountCheck =
  | { ok: true; amountMinor: number }
  | {
      ok: false;
      reason: 'empty' | 'format' | 'decimals' | 'zero' | 'over_remaining';
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
 * Parses the typed refund amount strictly (shared parseMinor: no floats, no grouping, no exponent) and
 * checks it against what remains refundable. Main re-checks all of this against a fresh query; this is
 * only so the person sees the problem while typing.
 */
export function checkRefundAmount(text: string, currency: Currency, remainingMinor: number): AmountCheck {
  const trimmed = text.trim();
  if (trimmed === '') return { ok: false, reason: 'empty', message: 'Type the amount to refund.' };
  if (trimmed.startsWith('-'))
    return { ok: false, reason: 'zero', message: 'The refund amount must be greater than zero.' };
  let amountMinor: number;
  try {
    amountMinor = parseMinor(trimmed, currency);
  } catch (e) {
    if (e instanceof MoneyParseError && e.reason === 'decimals') {
      return { ok: false, reason: 'decimals', message: decimalsMessage(currency) };
    }
    const example = formatMinor(12345 * 10 ** Math.max(0, currencyExponent(currency) - 2), currency);
    return {
      ok: false,
      reason: 'format',
      message: `Type a plain amount such as ${example} (digits and a dot, no commas or currency signs).`,
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
      message: `That is more than remains refundable (${formatMinor(Math.max(0, remainingMinor), currency)} ${currency}).`,
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

/** The text the amount field starts with: the full remaining amount, as a plain decimal. */
export function defaultAmountText(remainingMinor: number, currency: Currency): string {
  return remainingMinor > 0 ? formatMinor(remainingMinor, currency) : '';
}

/** True when the amount typed a second time (production) is the same amount, compared in minor units. */
export function typedAmountMatches(typed: string, currency: Currency, amountMinor: number): boolean {
  try {
    return parseMinor(typed.trim(), currency) === amountMinor;
  } catch {
    return false;
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
