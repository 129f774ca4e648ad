import { z } from 'zod';
import { BATCH_MAX_BYTES } from '../../batch/limits';
import { batchMappingSchema } from '../../batch/mapping';
import { batchDryRunSchema } from '../../batch/result';
import { refuseUnsafeText } from '../../domain/text';
import { scoped } from './scope';

/**
 * `refunds.batchDryRun`: what every row of a refund batch file would do, decided in main from a fresh
 * query of each payment and every intent of it in the database — read-only, nothing is sent. The file
 * travels whole (base64, at most the batch limit) so main reads it with the same reader as the CLI and
 * trusts nothing the renderer worked out. Execution (`refunds.batchRun`…) comes with the intent engine.
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
