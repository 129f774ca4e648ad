import { z } from 'zod';
import { BATCH_MAX_BYTES } from '../../batch/limits';
import { batchMappingSchema } from '../../batch/mapping';
import { batchReportSchema, batchStatusSchema } from '../../batch/execution';
import { batchDryRunSchema } from '../../batch/result';
import { refuseUnsafeText } from '../../domain/text';
import { commentSchema } from './approvals';
import { scoped } from './scope';

/**
 * `refunds.batchDryRun`: what every row of a refund batch file would do, decided in main from a fresh
 * query of each payment and every intent of it in the database — read-only, nothing is sent. The file
 * travels whole (base64, at most the batch limit) so main reads it with the same reader as the CLI and
 * trusts nothing the renderer worked out. Execution: `refunds.batchStart` and its companions below.
 */
export const refundsBatchDryRun = {
  input: z
    .object({
      ...scoped,
      file: z
        .object({
          name: z.string().max(260).superRefine(refuseUnsafeText('file name')),
          base64: z
            .base64()
            .max(Math.ceil(BATCH_MAX_BYTES / 3) * 4 + 4, 'The file is larger than a batch takes.'),
        })
        .strict(),
      mapping: batchMappingSchema.optional(),
      sheet: z.string().max(200).superRefine(refuseUnsafeText('sheet')).optional(),
      decimal: z.enum(['.', ',']).optional(),
      /** Reuse answers of this desk's queries of the last N ms (a dry run opened again); default fresh. */
      reuseWithinMs: z.number().int().min(0).max(600_000).optional(),
    })
    .strict(),
  output: batchDryRunSchema.extend({
    profileId: z.string(),
    profileName: z.string(),
    moneyMode: z.enum(['live', 'test', 'local']),
    merchantNo: z.string(),
    storeNo: z.string(),
    file: z
      .object({
        name: z.string(),
        format: z.enum(['csv', 'xlsx']),
        sheet: z.string().optional(),
        sheets: z.array(z.string()).optional(),
        decimal: z.enum(['.', ',']),
        dataRows: z.number().int(),
      })
      .strict(),
    mapping: batchMappingSchema,
    headers: z.array(z.string()),
    checkedAt: z.string(),
    queried: z.number().int(),
    reused: z.number().int(),
  }),
};

/** A batch id as main makes them (`RB…`): a fixed pattern, looked up, never stored as given. */
const batchIdSchema = z
  .string()
  .regex(/^[A-Za-z0-9_-]{1,80}$/, 'Name the batch by its id (letters, digits, - and _).');
const batchRef = z.object({ ...scoped, batchId: batchIdSchema }).strict();

/**
 * `refunds.batchStart`: execute a batch file, each row exactly once through the refund service. Main
 * reads the file and runs the dry run again itself; the same file of the same account with an unfinished
 * batch resumes that batch (`resumed`). Or name a paused batch (`batchId`) to resume it. Answers at once;
 * progress comes as `refunds.batchProgress` events and from `refunds.batchStatus`.
 */
export const refundsBatchStart = {
  input: z.union([
    z
      .object({
        ...scoped,
        file: refundsBatchDryRun.input.shape.file,
        mapping: batchMappingSchema.optional(),
        sheet: z.string().max(200).superRefine(refuseUnsafeText('sheet')).optional(),
        decimal: z.enum(['.', ',']).optional(),
        /** Live money: the batch's totals typed again, one per currency (`1,234.50 USD`). */
        typedTotals: z.array(z.string().max(60)).max(20).optional(),
      })
      .strict(),
    batchRef,
  ]),
  output: batchStatusSchema,
};

/** Stop taking rows (those in flight finish); `refunds.batchStart` with the batchId resumes it. */
export const refundsBatchPause = { input: batchRef, output: batchStatusSchema };
/** Stop taking rows and skip the rest (those in flight finish; nothing sent is undone). */
export const refundsBatchCancel = { input: batchRef, output: batchStatusSchema };
export const refundsBatchStatus = { input: batchRef, output: batchStatusSchema };
/**
 * Team mode: approve a batch awaiting approval as a whole (a checker other than its starter, whose limit
 * covers its total in every currency — the database's rules) and run it on this desk. On live money the
 * totals are typed again, as when it was started.
 */
export const refundsBatchApprove = {
  input: batchRef.extend({ typedTotals: z.array(z.string().max(60)).max(20).optional() }).strict(),
  output: batchStatusSchema,
};
/**
 * Team mode: reject a batch awaiting approval with a comment (a checker other than its starter — the
 * database's rule). Nothing is sent; its rows end refused (declined) with the reason.
 */
export const refundsBatchReject = {
  input: batchRef.extend({ comment: commentSchema }).strict(),
  output: batchStatusSchema,
};
/**
 * The account's batches, newest first, a page at a time (`before`: the last batch id of the previous
 * page; `next` when there are more): state, who, when, counts and totals per currency. In team mode every
 * desk's; `awaitingApproval` only those waiting for a checker (the approvals screen).
 */
export const refundsBatchList = {
  input: z
    .object({
      ...scoped,
      limit: z.number().int().min(1).max(100).optional(),
      before: batchIdSchema.optional(),
      awaitingApproval: z.boolean().optional(),
    })
    .strict(),
  output: z.object({ batches: z.array(batchStatusSchema), next: z.string().optional() }).strict(),
};
/** Every data row of the batch's file with its class, outcome, refundTransactionNo, time and person. */
export const refundsBatchReport = { input: batchRef, output: batchReportSchema };

export const refundBatchEvents = {
  /** A batch's counts after each row (and when its run ends), with an ETA while it runs. */
  'refunds.batchProgress': batchStatusSchema,
};
