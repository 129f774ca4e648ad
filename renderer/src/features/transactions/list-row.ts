import { currencyExponent } from '../../../../shared/domain/currencies';
import { refundBlocker, remainingRefundableMinor } from '../../../../shared/domain/transaction';
import type { CachedTransaction } from '../../db/schema';

/**
 * A cached transaction decorated once with the derived numbers the list sorts, filters and totals by,
 * so nothing is recomputed per comparison when 100k rows are sorted.
 */
export interface ListRow extends CachedTransaction {
  /** Σ refunds in success or pending, in the transaction's minor units. */
  refundedMinor: number;
  remainingMinor: number;
  /** Amount on a common scale of 10^-4 units, so amounts in different currencies compare as numbers. */
  amountScaled: number;
  /** Lower-cased ids and references the text filter searches. */
  haystack: string;
}

/** Scale amounts to 4 decimals: enough for every ISO exponent the service uses (0 or 2). */
export const COMMON_SCALE = 4;

/** minor units of `currency` → integer units of 10^-4 (exact: integer multiplication only). */
export function toCommonScale(amountMinor: number, currency: string): number {
  return amountMinor * 10 ** (COMMON_SCALE - currencyExponent(currency));
}

/** Builds the list row for one cached transaction. */
export function toListRow(tx: CachedTransaction): ListRow {
  // Refund records, and payments with refunds in another currency, have nothing that can safely be refunded.
  const remainingMinor = tx.status === 'success' && !refundBlocker(tx) ? remainingRefundableMinor(tx) : 0;
  const refundedMinor = tx.amountMinor - remainingRefundableMinor(tx);
  const ids = [tx.transactionNo, tx.reference ?? ''];
  for (const r of tx.refunds) ids.push(r.refundTransactionNo, r.refundReference ?? '');
  return {
    ...tx,
    refundedMinor,
    remainingMinor,
    amountScaled: toCommonScale(tx.amountMinor, tx.currency),
    haystack: ids.join(' ').toLowerCase(),
  };
}
