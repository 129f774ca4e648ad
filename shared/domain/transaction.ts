import type { RefundStatus, TransactionStatus } from '../protocol/statuses';

/** One refund as the service reports it (refundInfo entry), in minor units. */
export interface RefundRecord {
  refundTransactionNo: string;
  refundReference?: string;
  refundAmountMinor: number;
  currency: string;
  settleCurrency?: string;
  status: RefundStatus;
}

/** A payment as this app understands it: amounts in minor units, times as UTC ISO strings. */
export interface Transaction {
  transactionNo: string;
  reference?: string;
  amountMinor: number;
  currency: string;
  settleCurrency?: string;
  status: TransactionStatus | 'unknown';
  vendor?: string;
  transactionType: 'payment' | 'refund';
  createdAt?: string;
  paidAt?: string;
  refunds: RefundRecord[];
}

/**
 * Remaining refundable amount (DESIGN.md): amount − Σ service refunds in success|pending − Σ this
 * app's own intents not yet visible at the service. Intents are matched to refundInfo by
 * refundReference so nothing is counted twice.
 */
export function remainingRefundableMinor(
  tx: Pick<Transaction, 'amountMinor' | 'refunds'>,
  unsettledIntents: ReadonlyArray<{ id: string; amountMinor: number; refundTransactionNo?: string }> = [],
): number {
  const atService = tx.refunds
    .filter((r) => r.status === 'success' || r.status === 'pending')
    .reduce((sum, r) => sum + r.refundAmountMinor, 0);
  // An intent is visible at the service when a refund carries its reference, or — for servers that drop
  // refundReference from refundInfo — the refundTransactionNo it was accepted with.
  const refs = new Set(tx.refunds.map((r) => r.refundReference).filter((x): x is string => Boolean(x)));
  const nos = new Set(tx.refunds.map((r) => r.refundTransactionNo));
  const invisible = unsettledIntents
    .filter((i) => !refs.has(i.id) && !(i.refundTransactionNo && nos.has(i.refundTransactionNo)))
    .reduce((sum, i) => sum + i.amountMinor, 0);
  return tx.amountMinor - atService - invisible;
}
