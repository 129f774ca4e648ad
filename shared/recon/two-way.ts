/**
 * The other direction (pure): what the service has in the period that the ledger lacks.
 *
 * - `missing_in_ledger`: a payment the service holds as paid (`success`), created in the period (the
 *   service lists payments by creation time), that no ledger row matched. Its amount is part of the
 *   service total, so it explains that much of the difference.
 * - `refund_missing_in_ledger`: a refund (success or pending) created in the period, of a payment made
 *   before the period (within the look-back) that no ledger row matched. Refunds of payments in the
 *   period are shown with their payment (its row, or its missing_in_ledger item), not twice.
 */
import type { Currency } from '../domain/currencies';
import { dayInZone } from '../domain/zones';
import type { Transaction } from '../domain/transaction';
import {
  NO_DELTAS,
  paymentTime,
  refundCounts,
  serviceCounts,
  serviceView,
  type DateCheck,
  type ReconItem,
} from './match';

/** One payment of the service's list, with when its window was fetched. */
export interface ListedPayment {
  transaction: Transaction;
  fetchedAt: string;
}

/**
 * The period's payments by position without an object per payment (the run's list: its transactions,
 * and when each one's window was fetched): the same as a ListedPayment[] whose entry k is
 * `{ transaction: transaction(k), fetchedAt: fetchedAt(k) }`.
 */
export interface ListedSource {
  readonly length: number;
  transaction(k: number): Transaction;
  fetchedAt(k: number): string;
}

/** Either form of the list, by position. */
export function listedSource(listed: readonly ListedPayment[] | ListedSource): ListedSource {
  if (!Array.isArray(listed)) return listed as ListedSource;
  const list = listed as readonly ListedPayment[];
  return {
    length: list.length,
    transaction: (k) => list[k]!.transaction,
    fetchedAt: (k) => list[k]!.fetchedAt,
  };
}

export interface TwoWayInput {
  listed: readonly ListedPayment[] | ListedSource;
  /** The caller's word that no two listed payments share a number (no set of every number is kept). */
  listedUnique?: boolean;
  /** Service transaction numbers a ledger row matched. */
  claimed: ReadonlySet<string>;
  /**
   * Per listed payment, 1 when a ledger row matched that very payment: with it, `claimed` need only
   * hold the numbers of the other payments rows matched (answered by a lookup or the cache).
   */
  claimedAt?: Uint8Array;
  range: { startMs: number; endMs: number };
  /** Lines of unreadable rows by the transaction number written in them, to point at the likely row. */
  unreadableLineByTx: ReadonlyMap<string, number>;
  fmt: (amountMinor: number, currency: Currency) => string;
  dates: DateCheck;
}

const inRange = (iso: string | undefined, r: { startMs: number; endMs: number }) => {
  if (!iso) return false;
  const ms = Date.parse(iso);
  return ms >= r.startMs && ms < r.endMs;
};

/** Service-side items, payments first, each group by time. */
export function serviceOnlyItems(input: TwoWayInput): ReconItem[] {
  const { range, fmt, dates } = input;
  const payments: Array<{ at: string; item: ReconItem }> = [];
  const refunds: Array<{ at: string; item: ReconItem }> = [];
  const seen = new Set<string>();
  const { claimed, claimedAt } = input;
  const listed = listedSource(input.listed);
  for (let k = 0; k < listed.length; k += 1) {
    if (claimedAt?.[k]) continue;
    const tx = listed.transaction(k);
    const fetchedAt = listed.fetchedAt(k);
    if (claimed.size > 0 && claimed.has(tx.transactionNo)) continue;
    if (!input.listedUnique) {
      if (seen.has(tx.transactionNo)) continue;
      seen.add(tx.transactionNo);
    }
    const service = serviceView(tx, 'list', fetchedAt);
    const createdInPeriod = inRange(tx.createdAt, range);
    if (createdInPeriod) {
      if (!serviceCounts(service)) continue;
      const paid = paymentTime(service);
      const unreadable = input.unreadableLineByTx.get(tx.transactionNo);
      payments.push({
        at: tx.createdAt ?? '',
        item: {
          outcome: 'missing_in_ledger',
          service,
          transaction: tx,
          deltas: [{ currency: tx.currency, amountMinor: -tx.amountMinor }],
          detail: `The service received ${fmt(tx.amountMinor, tx.currency)}${paid ? ` on ${dayInZone(Date.parse(paid), dates.zone)} (${dates.zoneLabel})` : ''}; no ledger row has it.${unreadable !== undefined ? ` Line ${unreadable} names this transaction but could not be read.` : ''}`,
        },
      });
      continue;
    }
    if (tx.createdAt && Date.parse(tx.createdAt) >= range.startMs) continue;
    for (const r of tx.refunds) {
      if (!refundCounts(r.status) || !inRange(r.createdAt, range)) continue;
      refunds.push({
        at: r.createdAt ?? '',
        item: {
          outcome: 'refund_missing_in_ledger',
          service,
          refund: {
            refundTransactionNo: r.refundTransactionNo,
            ...(r.refundReference ? { refundReference: r.refundReference } : {}),
            amountMinor: r.refundAmountMinor,
            currency: r.currency,
            status: r.status,
            ...(r.createdAt ? { createdAt: r.createdAt } : {}),
          },
          deltas: NO_DELTAS,
          detail: `The service refunded ${fmt(r.refundAmountMinor, r.currency)}${r.status === 'pending' ? ' (pending)' : ''} on ${r.createdAt ? dayInZone(Date.parse(r.createdAt), dates.zone) : 'a day in the period'} (${dates.zoneLabel}) of payment ${tx.transactionNo} made before the period; no ledger row has it.`,
        },
      });
    }
  }
  const byTime = (a: { at: string }, b: { at: string }) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0);
  return [...payments.sort(byTime), ...refunds.sort(byTime)].map((x) => x.item);
}
