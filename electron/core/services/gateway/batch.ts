import { AppError, type AppErrorShape, isAppError } from '../../../../shared/domain/errors';
import { ADAPTIVE_DEFAULTS, type AdaptiveLimiter, createAdaptiveLimiter, outcomeOf } from './adaptive-limit';
import type { Clock } from '../ports';
import type { GatewayClient, QueriedTransaction, QueryKey } from './client';

export type BatchItem =
  | { key: QueryKey; ok: true; value: QueriedTransaction }
  | { key: QueryKey; ok: false; error: Omit<AppErrorShape, 'correlationId'> };

export interface BatchProgress {
  done: number;
  total: number;
  failed: number;
}

export interface BatchOptions {
  /**
   * A fixed number of simultaneous queries (no adaptation). Without it the batch adapts (./adaptive-limit):
   * the service documents no rate limit, so its answers say how much it takes.
   */
  concurrency?: number;
  /** A limiter shared with other batches to the same service (it keeps what it learned between them). */
  limiter?: AdaptiveLimiter;
  onProgress?: (p: BatchProgress) => void;
  signal?: AbortSignal;
}

/** The limiter a batch uses when none is shared: fixed when a number was chosen, else adaptive. */
export function batchLimiter(
  opts: Pick<BatchOptions, 'concurrency' | 'limiter'>,
  clock: Clock = { now: Date.now },
): AdaptiveLimiter {
  if (opts.limiter) return opts.limiter;
  if (opts.concurrency === undefined) return createAdaptiveLimiter({ clock });
  const n = Math.max(1, Math.min(opts.concurrency, ADAPTIVE_DEFAULTS.max));
  return createAdaptiveLimiter({ clock, initial: n, min: n, max: n, adaptive: false });
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
 * Queries many transactions with a bounded, adaptive number in flight, reporting progress after each
 * one. Results keep the input order. Cancelling stops queued queries (they come back `cancelled`) and
 * aborts those in flight; one failure never stops the rest.
 */
export async function queryMany(
  gateway: Pick<GatewayClient, 'queryTransaction'>,
  keys: readonly QueryKey[],
  opts: BatchOptions = {},
): Promise<BatchItem[]> {
  const limiter = batchLimiter(opts);
  const progress: BatchProgress = { done: 0, total: keys.length, failed: 0 };
  const out: Array<BatchItem | undefined> = new Array<BatchItem | undefined>(keys.length);
  let next = 0;
  // As many workers as the limiter may ever allow; each waits for a slot before taking the next key,
  // so the queue holds at most that many waiters however long the batch.
  async function worker(): Promise<void> {
    while (next < keys.length) {
      const slot = await limiter.acquire(opts.signal);
      if (!slot) return;
      if (next >= keys.length || opts.signal?.aborted) {
        slot.release();
        return;
      }
      const i = next;
      next += 1;
      const key = keys[i]!;
      let item: BatchItem;
      try {
        const value = await gateway.queryTransaction(key, {
          ...(opts.signal ? { signal: opts.signal } : {}),
          onAttempt: (a) => slot.report(a),
        });
        slot.release(outcomeOf(undefined));
        item = { key, ok: true, value };
      } catch (e) {
        slot.release(outcomeOf(e));
        item = { key, ok: false, error: shape(e) };
      }
      out[i] = item;
      progress.done += 1;
      if (!item.ok) progress.failed += 1;
      opts.onProgress?.({ ...progress });
    }
  }
  await Promise.all(Array.from({ length: Math.min(limiter.max, keys.length) }, worker));
  const cancelled = shape(new AppError('cancelled', 'Cancelled before it ran.', { retryable: true }));
  return keys.map((key, i) => out[i] ?? { key, ok: false, error: cancelled });
}
