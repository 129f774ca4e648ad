/**
 * What a refund batch's dry run says about each row of the file, and the report built from it: one
 * schema, checked where it crosses IPC (shared/ipc/contract/refund-batch.ts) and used as main's type.
 * Every data row of the file appears exactly once, as a usable row with its class or as `unusable`.
 * Execution (later) adds each row's outcome beside its class; the report's columns leave room for it.
 */
import { z } from 'zod';
import { currencySchema } from '../domain/currencies';
import { minorSchema } from '../domain/money';

/**
 * Exactly one per row, first that applies wins, in this order (electron/core/services/batch/classify.ts):
 * - `duplicate`: the same row (same key) as an earlier row of the file;
 * - `already_refunded`: a previous batch run refunded this very row (same key);
 * - `not_checked`: the payment could not be queried now (network, service): nothing can be decided;
 * - `unknown_id`: the service has no such payment (or the reference names another payment);
 * - `blocked`: the record is not a refundable payment, or its refunds cannot be counted safely;
 * - `not_successful`: the payment's status is not success;
 * - `other_currency`: the row's currency is not the payment's;
 * - `in_progress`: a refund of this payment is in flight (sending, outcome unknown, awaiting approval);
 * - `nothing_remains`: nothing is left to refund (after the rows above it in the file);
 * - `exceeds_remaining`: more than what remains (after the rows above it), which it names;
 * - `needs_approval`: team mode, above the account's approval limit;
 * - `will_refund`: would be refunded;
 * - `unusable`: the row could not be read (its reason says why).
 */
export const BATCH_ROW_CLASSES = [
  'will_refund',
  'needs_approval',
  'already_refunded',
  'duplicate',
  'nothing_remains',
  'exceeds_remaining',
  'not_successful',
  'other_currency',
  'unknown_id',
  'in_progress',
  'blocked',
  'not_checked',
  'unusable',
] as const;
export type BatchRowClass = (typeof BATCH_ROW_CLASSES)[number];

export const BATCH_CLASS_LABELS: Readonly<Record<BatchRowClass, string>> = {
  will_refund: 'Will refund',
  needs_approval: 'Needs approval',
  already_refunded: 'Already refunded by a batch',
  duplicate: 'Duplicate row',
  nothing_remains: 'Nothing remains',
  exceeds_remaining: 'Exceeds what remains',
  not_successful: 'Payment not successful',
  other_currency: 'Other currency',
  unknown_id: 'Unknown payment',
  in_progress: 'Refund in progress',
  blocked: 'Cannot be refunded safely',
  not_checked: 'Could not be checked',
  unusable: 'Cannot be used',
};

/** Classes that move money (now, or once approved). */
export const MOVING_CLASSES: ReadonlySet<BatchRowClass> = new Set(['will_refund', 'needs_approval']);

const text = (max: number) => z.string().max(max);

export const batchRowResultSchema = z
  .object({
    line: z.number().int().min(1),
    class: z.enum(BATCH_ROW_CLASSES),
    /** Why, in words a person acts on (every class but will_refund has one). */
    message: text(700).optional(),
    transactionNo: text(40).optional(),
    reference: text(140).optional(),
    rowRef: text(110).optional(),
    reason: text(510).optional(),
    currency: currencySchema.optional(),
    /** What the row asks for: an amount, or `full`. */
    requestedMinor: minorSchema.optional(),
    full: z.boolean().optional(),
    /** What would move (will_refund, needs_approval): the amount, or what `full` came to. */
    amountMinor: minorSchema.optional(),
    /** What remained of the payment when this row's turn came (after the rows above it in the file). */
    remainingMinor: minorSchema.optional(),
    paymentCurrency: currencySchema.optional(),
    paymentStatus: text(40).optional(),
    duplicateOf: z.number().int().optional(),
    /** The batch that already refunded this row. */
    batchId: text(80).optional(),
    /** The row's idempotency key (absent for an unusable row). */
    key: text(128).optional(),
    /** An unusable row as read. */
    raw: text(310).optional(),
  })
  .strict();
export type BatchRowResult = z.infer<typeof batchRowResultSchema>;

const totalSchema = z
  .object({ currency: currencySchema, amountMinor: minorSchema, rows: z.number().int() })
  .strict();
export type BatchTotal = z.infer<typeof totalSchema>;

export const batchDryRunSchema = z
  .object({
    /** Every data row of the file, in file order. */
    rows: z.array(batchRowResultSchema),
    /** Data rows in the file = rowsRead + unusableRows. */
    dataRows: z.number().int(),
    rowsRead: z.number().int(),
    unusableRows: z.number().int(),
    counts: z.record(z.enum(BATCH_ROW_CLASSES), z.number().int()),
    /** What would move, per currency (will_refund rows); never summed across currencies. */
    totals: z.array(totalSchema),
    /** What would move once approved (needs_approval rows), per currency. */
    approvalTotals: z.array(totalSchema),
  })
  .strict();
export type BatchDryRun = z.infer<typeof batchDryRunSchema>;

/**
 * What a batch started from this dry run sends, per currency: the rows that will refund and, in team
 * mode, those that need approval — a batch sends both once it may (its total decides whether it waits
 * for a second person). In the order currencies first appear; never summed across currencies.
 */
export function movingTotals(d: Pick<BatchDryRun, 'totals' | 'approvalTotals'>): BatchTotal[] {
  const by = new Map<string, BatchTotal>();
  for (const t of [...d.totals, ...d.approvalTotals]) {
    const had = by.get(t.currency);
    if (!had) by.set(t.currency, { ...t });
    else {
      had.amountMinor += t.amountMinor;
      if (!Number.isSafeInteger(had.amountMinor))
        throw new RangeError('batch total exceeds the safe integer range');
      had.rows += t.rows;
    }
  }
  return [...by.values()];
}
