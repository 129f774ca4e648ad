import { AppError } from '../../../../shared/domain/errors';
import type { BatchDryRunService } from '../../services/batch/dry-run';
import type { BatchExecutor } from '../../services/batch/execute';
import type { HandlerMap } from '../dispatcher';

type BatchChannels =
  | 'refunds.batchDryRun'
  | 'refunds.batchStart'
  | 'refunds.batchPause'
  | 'refunds.batchCancel'
  | 'refunds.batchApprove'
  | 'refunds.batchReject'
  | 'refunds.batchList'
  | 'refunds.batchStatus'
  | 'refunds.batchReport';

const bytesOf = (base64: string) => new Uint8Array(Buffer.from(base64, 'base64'));

/** Thin: IPC shape → batch service call. Every check lives in the services. */
export function refundBatchHandlers(
  batch: BatchDryRunService,
  exec?: BatchExecutor,
): Pick<HandlerMap, BatchChannels> {
  // A database without batch tables (a store that does not keep them): dry runs only, said in words.
  const executor = (): BatchExecutor => {
    if (!exec)
      throw new AppError(
        'unavailable',
        'Refund batches cannot be executed with this database: it does not keep batches. Nothing was sent.',
        { details: { moneyMoved: 'no' } },
      );
    return exec;
  };
  return {
    'refunds.batchDryRun': ({ profileId, file, mapping, sheet, decimal, reuseWithinMs }) =>
      batch.dryRun(
        profileId,
        { name: file.name, bytes: bytesOf(file.base64) },
        {
          ...(mapping ? { mapping } : {}),
          ...(sheet !== undefined ? { sheet } : {}),
          ...(decimal ? { decimal } : {}),
          ...(reuseWithinMs !== undefined ? { reuseWithinMs } : {}),
        },
      ),
    'refunds.batchStart': (input) => {
      if ('batchId' in input) return executor().resume(input.profileId, input.batchId);
      const { profileId, file, mapping, sheet, decimal, typedTotals } = input;
      return executor().start({
        profileId,
        file: { name: file.name, bytes: bytesOf(file.base64) },
        options: {
          ...(mapping ? { mapping } : {}),
          ...(sheet !== undefined ? { sheet } : {}),
          ...(decimal ? { decimal } : {}),
        },
        ...(typedTotals ? { typedTotals } : {}),
      });
    },
    'refunds.batchPause': ({ profileId, batchId }) => executor().pause(profileId, batchId),
    'refunds.batchCancel': ({ profileId, batchId }) => executor().cancel(profileId, batchId),
    'refunds.batchApprove': ({ profileId, batchId, typedTotals }) =>
      executor().approve(profileId, batchId, typedTotals),
    'refunds.batchReject': ({ profileId, batchId, comment }) =>
      executor().reject(profileId, batchId, comment),
    'refunds.batchList': ({ profileId, limit, before, awaitingApproval }) =>
      executor().list(profileId, {
        ...(limit !== undefined ? { limit } : {}),
        ...(before !== undefined ? { before } : {}),
        ...(awaitingApproval !== undefined ? { awaitingApproval } : {}),
      }),
    'refunds.batchStatus': ({ profileId, batchId }) => executor().status(profileId, batchId),
    'refunds.batchReport': ({ profileId, batchId }) => executor().report(profileId, batchId),
  };
}
