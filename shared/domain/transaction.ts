import { z } from 'zod';
import { REFUND_STATUSES, TRANSACTION_STATUSES } from '../protocol/statuses';
import { currencySchema } from './currencies';
import { minorSchema } from './money';

/** One refund as the service reports it (refundInfo entry), in minor units. */
const refundRecordSchema = z.object({
  refundTransactionNo: z.string(),
  refundReference: z.string().optional(),
  refundAmountMinor: minorSchema,
  currency: currencySchema,
  settleCurrency: currencySchema.optional(),
  status: z.enum(REFUND_STATUSES),
  /** When the refund was made (UTC ISO), when the service says. */
  createdAt: z.string().optional(),
});
export type RefundRecord = z.infer<typeof refundRecordSchema>;

/**
 * A payment as this app understands it: amounts in minor units, times as UTC ISO strings. The same
 * schema checks it where it crosses IPC (shared/ipc/contract) and where main hands it over.
 */
export const transactionSchema = z.object({
  transactionNo: z.string(),
  reference: z.string().optional(),
  amountMinor: minorSchema,
  currency: currencySchema,
  settleCurrency: currencySchema.optional(),
  status: z.enum([...TRANSACTION_STATUSES, 'unknown']),
  vendor: z.string().optional(),
  /**
   * What the service says the record is; `unknown` when it says nothing or something this app does not
   * know. Only a `payment` is ever refundable: an unknown record is never taken for one.
   */
  transactionType: z.enum(['payment', 'refund', 'unknown']),
  createdAt: z.string().optional(),
  paidAt: z.string().optional(),
  /** Last four digits of the card, when the service reports a card payment's (never more of the number). */
  cardLast4: z
    .string()
    .regex(/^\d{4}$/)
    .optional(),
  refunds: z.array(refundRecordSchema),
});
export type Transaction = z.infer<typeof transactionSchema>;

/** Service refunds that count against the payment: success or pending. */
const counting = (r: RefundRecord) => r.status === 'success' || r.status === 'pending';

/**
 * Remaining refundable amount: amount − Σ service refunds in success|pending − Σ this app's own intents
 * not yet visible at the service. Intents are matched to refundInfo by refundReference (or, for servers
 * that drop it, the refundTransactionNo they were accepted with) so nothing is counted twice. Only
 * refunds in the payment's own currency are subtracted: see `refundability` for what to do when the
 * service reports a refund in another currency.
 */
export function remainingRefundableMinor(
  tx: Pick<Transaction, 'amountMinor' | 'refunds' | 'currency'>,
  unsettledIntents: ReadonlyArray<{ id: string; amountMinor: number; refundTransactionNo?: string }> = [],
): number {
  const atService = tx.refunds
    .filter((r) => counting(r) && r.currency === tx.currency)
    .reduce((sum, r) => sum + r.refundAmountMinor, 0);
  const refs = new Set(tx.refunds.map((r) => r.refundReference).filter((x): x is string => Boolean(x)));
  const nos = new Set(tx.refunds.map((r) => r.refundTransactionNo));
  const invisible = unsettledIntents
    .filter((i) => !refs.has(i.id) && !(i.refundTransactionNo && nos.has(i.refundTransactionNo)))
    .reduce((sum, i) => sum + i.amountMinor, 0);
  return tx.amountMinor - atService - invisible;
}

/** Service refunds of this payment reported in another currency than the payment's own. */
export function foreignCurrencyRefunds(tx: Pick<Transaction, 'refunds' | 'currency'>): RefundRecord[] {
  return tx.refunds.filter((r) => counting(r) && r.currency !== tx.currency);
}

/**
 * Whether a refund of this payment can be decided safely, and if not, why in words: only payments are
 * refundable, and a remaining amount cannot be computed when the service reports a refund in another
 * currency (adding it as if it were in the payment's currency would be wrong either way).
 */
export function refundBlocker(
  tx: Pick<Transaction, 'transactionType' | 'refunds' | 'currency'>,
): string | undefined {
  if (tx.transactionType === 'refund')
    return 'This record is a refund, not a payment; only payments can be refunded.';
  if (tx.transactionType !== 'payment')
    return 'The payment service did not say that this record is a payment (its transactionType is missing or not one Refund Desk knows), so it cannot be refunded from here. Check it with the payment service.';
  const foreign = foreignCurrencyRefunds(tx);
  if (foreign.length > 0)
    return `The service reports ${foreign.length} refund(s) of this ${tx.currency} payment in another currency (${[...new Set(foreign.map((r) => r.currency))].join(', ')}), so what remains refundable cannot be computed safely. Check this payment with the payment service before refunding it.`;
  return undefined;
}

/**
 * How much of a payment has been refunded, derived from the service's own refund entries (success or
 * pending, in the payment's currency). It sits beside the service's status, never replaces it: a
 * payment stays "success" at the service after a refund. `unclear` when the service reports a refund in
 * another currency, because nothing honest can be said about "how much" then.
 */
export type RefundedState = 'not_refunded' | 'partially_refunded' | 'refunded' | 'unclear';

export const REFUNDED_STATES: readonly RefundedState[] = [
  'not_refunded',
  'partially_refunded',
  'refunded',
  'unclear',
];

/** The derived refund state of a payment; undefined for a record that is itself a refund. */
export function refundedState(
  tx: Pick<Transaction, 'transactionType' | 'amountMinor' | 'currency' | 'refunds'>,
): RefundedState | undefined {
  if (tx.transactionType !== 'payment') return undefined;
  if (foreignCurrencyRefunds(tx).length > 0) return 'unclear';
  const refunded = tx.refunds
    .filter((r) => counting(r) && r.currency === tx.currency)
    .reduce((sum, r) => sum + r.refundAmountMinor, 0);
  if (refunded <= 0) return 'not_refunded';
  return refunded >= tx.amountMinor ? 'refunded' : 'partially_refunded';
}
