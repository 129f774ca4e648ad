import { z } from 'zod';
import { classifyId } from '../../domain/id-kind';
import { refuseUnsafeText } from '../../domain/text';
import { transactionSchema } from '../../domain/transaction';
import { scoped } from './scope';
import { minorSchema } from '../../domain/money';

export const transactionsLookup = {
  input: z
    .object({
      ...scoped,
      query: z
        .string()
        .trim()
        .min(1, 'Type a transaction number, refund number or reference.')
        .max(128)
        .superRefine(refuseUnsafeText('search'))
        // The one rule for typed ids (shared/domain/id-kind.ts), as the search box applies it.
        .superRefine((q, ctx) => {
          const id = classifyId(q);
          if (id.shape === 'invalid') ctx.addIssue({ code: 'custom', message: id.reason });
        }),
      /** Payments the caller believes a refund reference belongs to; main verifies each with a fresh query. */
      candidates: z
        .array(z.string().regex(/^\d{1,32}$/))
        .max(5)
        .optional(),
    })
    .strict(),
  output: z.object({
    profileId: z.string(),
    kind: z.enum(['transactionNo', 'refundTransactionNo', 'reference', 'refundReference']),
    transaction: transactionSchema,
    matchedRefundTransactionNo: z.string().optional(),
    remainingRefundableMinor: minorSchema,
    fetchedAt: z.string(),
  }),
};

export const transactionsRefresh = {
  input: z
    .object({
      ...scoped,
      transactionNos: z
        .array(z.string().regex(/^\d{1,32}$/))
        .min(1)
        .max(500),
    })
    .strict(),
  output: z.object({
    profileId: z.string(),
    fetchedAt: z.string(),
    items: z.array(
      z.discriminatedUnion('ok', [
        z.object({ transactionNo: z.string(), ok: z.literal(true), transaction: transactionSchema }),
        z.object({
          transactionNo: z.string(),
          ok: z.literal(false),
          error: z.object({ code: z.string(), message: z.string() }),
        }),
      ]),
    ),
  }),
};

export const transactionEvents = {
  /**
   * A payment changed at the service (confirmed by a fresh tran-query after an IPN hint, or found by
   * main following a payment it created), or a payment this desk just created.
   */
  'transactions.updated': z.object({
    profileId: z.string(),
    /** ipn: confirmed IPN; poll: main followed a payment; created: a payment this desk just created. */
    source: z.enum(['ipn', 'poll', 'created']),
    /** False when the fresh query did not (yet) show what the IPN claimed. */
    confirmed: z.boolean(),
    transaction: transactionSchema,
    refundTransactionNo: z.string().optional(),
    fetchedAt: z.string(),
  }),
};
