import { z } from 'zod';
import { scoped } from './scope';
import { transactionSchema } from '../../domain/transaction';

/** Longest span trans-list accepts: endDate − startDate ≤ 15 days (shared/protocol/README.md). */
export const SYNC_MAX_SPAN_DAYS = 15;

const serviceDate = z.string().regex(/^\d{8}$/, 'Dates are YYYYMMDD.');

/**
 * `transactions.sync`: one trans-list window (service calendar days, UTC+8, both inclusive, at most
 * 15 days apart). The renderer walks a longer range window by window, which gives it progress and
 * cancel between windows. Where the service does not offer trans-list (it may be retired), the answer
 * is `supported: false` with a message rather than an error, so the screen can degrade calmly.
 */
export const transactionsSync = {
  input: z.object({ ...scoped, startDate: serviceDate, endDate: serviceDate }).strict(),
  output: z.discriminatedUnion('supported', [
    z.object({
      supported: z.literal(true),
      profileId: z.string(),
      fetchedAt: z.string(),
      transactions: z.array(transactionSchema),
    }),
    z.object({
      supported: z.literal(false),
      profileId: z.string(),
      message: z.string(),
      retCode: z.string().optional(),
    }),
  ]),
};
