import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import type { RefundRecord } from '../../../../shared/domain/transaction';

/**
 * This desk's refunds of one payment that the cached copy cannot account for: sent (or being sent) but
 * with no answer anybody knows. Until they are resolved, the cached "Refundable" is only an upper bound:
 * each of them may or may not have moved money.
 */
export interface UncertainRefunds {
  /** The intents, oldest first: `outcome_unknown` and `sending` ones in the payment's currency. */
  intents: IntentView[];
  /** Σ their amounts, in the payment's minor units. */
  amountMinor: number;
  /** How many are `outcome_unknown` (the others are still being sent). */
  unknown: number;
}

const UNCERTAIN: ReadonlySet<IntentView['state']> = new Set(['outcome_unknown', 'sending']);

/** The service already lists this intent's refund (the cache was refreshed after it was resolved). */
const listed = (i: IntentView, refunds: readonly RefundRecord[]) =>
  refunds.some(
    (r) =>
      r.refundReference === i.id ||
      (i.refundTransactionNo !== undefined && r.refundTransactionNo === i.refundTransactionNo),
  );

/**
 * Groups a profile's intents by payment, keeping only those whose outcome is not known. The map is
 * built once per intents list; `uncertainFor` then narrows it to what one cached row does not list.
 */
export function uncertainByPayment(intents: readonly IntentView[]): Map<string, IntentView[]> {
  const out = new Map<string, IntentView[]>();
  for (const i of intents) {
    if (!UNCERTAIN.has(i.state)) continue;
    const list = out.get(i.transactionNo) ?? [];
    list.push(i);
    out.set(i.transactionNo, list);
  }
  for (const list of out.values()) list.sort((a, b) => a.createdAt.localeCompare(b.createdAt));
  return out;
}

/**
 * The refunds of `row` whose outcome is unknown, or undefined when there are none. Intents in another
 * currency are never added to this payment's amounts (main refuses such refunds anyway).
 */
export function uncertainFor(
  row: { transactionNo: string; currency: string; refunds: readonly RefundRecord[] },
  byPayment: ReadonlyMap<string, readonly IntentView[]>,
): UncertainRefunds | undefined {
  const intents = (byPayment.get(row.transactionNo) ?? []).filter(
    (i) => i.currency === row.currency && !listed(i, row.refunds),
  );
  if (intents.length === 0) return undefined;
  return {
    intents,
    amountMinor: intents.reduce((s, i) => s + i.amountMinor, 0),
    unknown: intents.filter((i) => i.state === 'outcome_unknown').length,
  };
}

/**
 * "1 refund outcome unknown (34.00 USD)", "2 refunds being sent (…)": what the panel and the row's
 * tooltip say. `money` formats the amount the way every other amount on the screen is formatted.
 */
export function uncertainWords(u: UncertainRefunds, money: (minor: number) => string): string {
  const n = u.intents.length;
  const what =
    u.unknown === n
      ? `${n} refund outcome${n === 1 ? '' : 's'} unknown`
      : u.unknown === 0
        ? `${n} refund${n === 1 ? '' : 's'} being sent`
        : `${n} refunds not yet known (${u.unknown} outcome unknown, ${n - u.unknown} being sent)`;
  return `${what} (${money(u.amountMinor)})`;
}
