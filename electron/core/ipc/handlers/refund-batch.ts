import type { BatchDryRunService } from '../../services/batch/dry-run';
import type { HandlerMap } from '../dispatcher';

/** Thin: IPC shape → batch service call. Every check lives in the service. */
export function refundBatchHandlers(batch: BatchDryRunService): Pick<HandlerMap, 'refunds.batchDryRun'> {
  return {
    'refunds.batchDryRun': ({ profileId, file, mapping, sheet, decimal, reuseWithinMs }) =>
      batch.dryRun(
        profileId,
        { name: file.name, bytes: new Uint8Array(Buffer.from(file.base64, 'base64')) },
        {
          ...(mapping ? { mapping } : {}),
          ...(sheet !== undefined ? { sheet } : {}),
          ...(decimal ? { decimal } : {}),
          ...(reuseWithinMs !== undefined ? { reuseWithinMs } : {}),
        },
      ),
  };
}
