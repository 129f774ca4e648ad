import {
  refundBlocker,
  refundedState,
  type RefundedState,
  remainingRefundableMinor,
} from '../../../shared/domain/transaction';
import type { CachedTransaction } from './schema';

/**
 * A cached transaction decorated once with the derived numbers the list sorts, filters and totals by,
 * so nothing is recomputed per comparison when 100k rows are sorted.
 */
export interface ListRow extends CachedTransaction {
  /** Σ refunds in success or pending, in the transaction's minor units. */
  refundedMinor: number;
  /** What can still be refunded (0 unless the payment is successful). */
  remainingMinor: number;
  /** How much of the payment was refunded, derived beside the service's status (none for a refund record). */
  refunded?: RefundedState;
}

/**
 * Builds the list row for one cached transaction by decorating the object it is given, in place: the
 * callers hand over rows nobody else holds (fresh from the database, or a copy they just made). At 100k
 * rows a copy per row doubled what the whole-cache read allocated, and its garbage collection showed in
 * the time until the count was final.
 */
export function toListRow(tx: CachedTransaction): ListRow {
  const row = tx as ListRow;
  if (tx.refunds.length === 0) {
    // Nothing refunded (the usual case): what the helpers below return for no refunds, without their
    // per-row arrays and sets.
    row.refundedMinor = 0;
    row.remainingMinor = tx.status === 'success' && tx.transactionType === 'payment' ? tx.amountMinor : 0;
    if (tx.transactionType === 'payment') row.refunded = 'not_refunded';
    return row;
  }
  const remaining = remainingRefundableMinor(tx);
  // Refund records, and payments with refunds in another currency, have nothing that can safely be refunded.
  row.remainingMinor = tx.status === 'success' && !refundBlocker(tx) ? remaining : 0;
  row.refundedMinor = tx.amountMinor - remaining;
  const refunded = refundedState(tx);
  if (refunded) row.refunded = refunded;
  return row;
}

/**
 * The lower-cased ids and references the list's text filter searches: the transaction number, its
 * reference, and each refund's number and reference. Made when asked (the filter's text index,
 * features/transactions/text-index.ts, joins them a slice at a time), not kept on every row: a string
 * per row held ~45 MB at 1M rows beside the index's copy.
 */
export function haystackOf(tx: CachedTransaction): string {
  if (tx.refunds.length === 0) return `${tx.transactionNo} ${tx.reference ?? ''}`.toLowerCase();
  const ids = [tx.transactionNo, tx.reference ?? ''];
  for (const r of tx.refunds) ids.push(r.refundTransactionNo, r.refundReference ?? '');
  return ids.join(' ').toLowerCase();
}
