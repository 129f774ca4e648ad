/** Transaction and refund statuses (./README.md, "Statuses"), normalised. */
export const TRANSACTION_STATUSES = [
  'init',
  'dealing',
  'pending',
  'success',
  'failed',
  'closed',
  'reversed',
] as const;
export type TransactionStatus = (typeof TRANSACTION_STATUSES)[number];

export const REFUND_STATUSES = ['pending', 'success', 'failed'] as const;
export type RefundStatus = (typeof REFUND_STATUSES)[number];

/** Maps a status string from any server generation to ours; unknown values are kept out ('unknown'). */
export function normaliseTransactionStatus(raw: string): TransactionStatus | 'unknown' {
  const s = raw.trim().toLowerCase();
  if (s === 'fail') return 'failed';
  return (TRANSACTION_STATUSES as readonly string[]).includes(s) ? (s as TransactionStatus) : 'unknown';
}

export function normaliseRefundStatus(raw: string | undefined): RefundStatus {
  const s = (raw ?? 'success').trim().toLowerCase();
  if (s === 'fail') return 'failed';
  // A refundInfo entry without a status is one the service reports as done (real servers omit it).
  return (REFUND_STATUSES as readonly string[]).includes(s) ? (s as RefundStatus) : 'pending';
}
