import {
  refundBlocker,
  refundedState,
  type RefundedState,
  remainingRefundableMinor,
} from '../../../../shared/domain/transaction';
import type { CachedTransaction } from '../../db/owner';

/**
 * A cached transaction decorated once with the derived numbers the list sorts, filters and totals by,
 * so nothing is recomputed per comparison when 100k rows are sorted.
 */
export interface ListRow extends CachedTransaction {
  /** Σ refunds in success or pending, in the transaction's minor units. */
  refundedMinor: number;
  /** What can still be refunded (0 unless the payment is successful). */
  remainingMinor: number;
  /** Lower-cased ids and references the text filter searches. */
  haystack: string;
  /** How much of the payment was refunded, derived beside the service's status (none for a refund record). */
  refunded?: RefundedState;
}

/** Builds the list row for one cached transaction. */
export function toListRow(tx: CachedTransaction): ListRow {
  // Refund records, and payments with refunds in another currency, have nothing that can safely be refunded.
  const remainingMinor = tx.status === 'success' && !refundBlocker(tx) ? remainingRefundableMinor(tx) : 0;
  const refundedMinor = tx.amountMinor - remainingRefundableMinor(tx);
  const ids = [tx.transactionNo, tx.reference ?? ''];
  for (const r of tx.refunds) ids.push(r.refundTransactionNo, r.refundReference ?? '');
  const refunded = refundedState(tx);
  return {
    ...tx,
    refundedMinor,
    remainingMinor,
    haystack: ids.join(' ').toLowerCase(),
    ...(refunded ? { refunded } : {}),
  };
}
