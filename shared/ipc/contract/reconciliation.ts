import { z } from 'zod';
import { refuseUnsafeText } from '../../domain/text';
import { transactionSchema } from './transactions';

/**
 * Reconciliation jobs (README, "Reconciliation"): the renderer parses and maps the ledger, main queries
 * the service for each distinct key (`tx:<transactionNo>` / `ref:<reference>`) with bounded concurrency
 * and persists inputs and answers, so a restart resumes. Matching is pure and runs in the renderer.
 */
const jobId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);

export const reconProgressSchema = z.object({
  state: z.enum(['running', 'paused', 'cancelled', 'completed']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  etaMs: z.number().int().nonnegative().optional(),
  stoppedBecause: z.object({ code: z.string(), message: z.string() }).optional(),
});

export const reconJobSchema = z.object({
  jobId: z.string(),
  profileId: z.string(),
  label: z.string(),
  createdAt: z.string(),
  progress: reconProgressSchema,
});

const serviceLookupSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('found'), transaction: transactionSchema }),
  z.object({ kind: z.literal('not_found') }),
  z.object({ kind: z.literal('failed'), code: z.string(), message: z.string() }),
]);

/** The most keys one job takes: a 100k-row ledger with room to spare. */
export const RECON_MAX_KEYS = 250_000;

export const reconciliationStart = {
  input: z
    .object({
      keys: z.array(z.string().min(4).max(140)).min(1).max(RECON_MAX_KEYS),
      label: z.string().max(200).superRefine(refuseUnsafeText('label')),
    })
    .strict(),
  output: reconJobSchema,
};

const byJob = { input: z.object({ jobId }).strict(), output: reconJobSchema };
export const reconciliationPause = byJob;
export const reconciliationResume = byJob;
export const reconciliationCancel = byJob;

export const reconciliationList = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({ jobs: z.array(reconJobSchema) }),
};

export const reconciliationResults = {
  input: z
    .object({ jobId, offset: z.number().int().nonnegative(), limit: z.number().int().min(1).max(5000) })
    .strict(),
  output: z.object({
    items: z.array(z.object({ key: z.string(), lookup: serviceLookupSchema })),
    total: z.number().int().nonnegative(),
    nextOffset: z.number().int().nonnegative().nullable(),
  }),
};

export const reconciliationEvents = {
  /** After every answered key (and on pause / resume / end). */
  'reconciliation.progress': reconProgressSchema.extend({ jobId: z.string() }),
};
