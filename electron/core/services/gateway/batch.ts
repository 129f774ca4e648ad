import pLimit from 'p-limit';
import { AppError, type AppErrorShape, isAppError } from '../../../../shared/domain/errors';
import type { GatewayClient, QueriedTransaction, QueryKey } from './client';

export const DEFAULT_BATCH_CONCURRENCY = 4;

export type BatchItem =
  | { key: QueryKey; ok: true; value: QueriedTransaction }
  | { key: QueryKey; ok: false; error: Omit<AppErrorShape, 'correlationId'> };

export interface BatchProgress {
  done: number;
  total: number;
  failed: number;
}

export interface BatchOptions {
  /** Simultaneous queries; the service documents no rate limit, so stay polite. */
  concurrency?: number;
  onProgress?: (p: BatchProgress) => void;
  signal?: AbortSignal;
}

function shape(e: unknown): Omit<AppErrorShape, 'correlationId'> {
  const err = isAppError(e) ? e : new AppError('internal', 'The lookup failed inside Refund Desk.');
  return {
    code: err.code,
    message: err.message,
    retryable: err.retryable,
    ...(err.details ? { details: err.details } : {}),
  };
}

/**
 * Queries many transactions with bounded concurrency, reporting progress after each one. Results keep
 * the input order. Cancelling stops queued queries (they come back `cancelled`) and aborts those in
 * flight; one failure never stops the rest.
 */
export async function queryMany(
  gateway: Pick<GatewayClient, 'queryTransaction'>,
  keys: readonly QueryKey[],
  opts: BatchOptions = {},
): Promise<BatchItem[]> {
  const limit = pLimit(Math.max(1, Math.min(opts.concurrency ?? DEFAULT_BATCH_CONCURRENCY, 32)));
  const progress: BatchProgress = { done: 0, total: keys.length, failed: 0 };
  const cancelled = (key: QueryKey): BatchItem => ({
    key,
    ok: false,
    error: shape(new AppError('cancelled', 'Cancelled before it ran.', { retryable: true })),
  });
  const tasks = keys.map((key) =>
    limit(async (): Promise<BatchItem> => {
      if (opts.signal?.aborted) return cancelled(key);
      let item: BatchItem;
      try {
        item = {
          key,
          ok: true,
          value: await gateway.queryTransaction(key, opts.signal ? { signal: opts.signal } : {}),
        };
      } catch (e) {
        item = { key, ok: false, error: shape(e) };
      }
      progress.done += 1;
      if (!item.ok) progress.failed += 1;
      opts.onProgress?.({ ...progress });
      return item;
    }),
  );
  return Promise.all(tasks);
}
