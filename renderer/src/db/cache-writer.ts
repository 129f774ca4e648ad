import type { Transaction } from '../../../shared/domain/transaction';
import { cacheWriteProblem } from './cache';
import { type FromWorker, type ToWorker, WORKER_CHUNK } from './cache-write-protocol';
import type { RefundDeskDb } from './schema';
import { createTransactionsRepo } from './transactions-repo';

/** What the writer needs of a Worker (a MessagePort in tests). */
export interface WorkerLike {
  postMessage(m: ToWorker): void;
  addEventListener(type: 'message', fn: (e: { data: FromWorker }) => void): void;
  addEventListener(type: 'error', fn: (e: unknown) => void): void;
  terminate?(): void;
}

/**
 * Rows per message to the worker: cloning them is the page's only work during a write (a few ms), and
 * the worker starts writing while the rest are still being sent.
 */
export const SLICE = 2_000;

/**
 * Writes of fewer rows stay on the page: starting the worker and cloning would cost more than they save.
 * At this size a main-thread write is one Dexie transaction of well under 50 ms.
 */
export const WORKER_MIN_ROWS = 500;

export interface WriteOptions {
  /** Stops the write after the chunk being written; what was written stays (rows are upserts). */
  signal?: AbortSignal;
  /** Rows written so far. */
  onProgress?: (written: number) => void;
  /** Rows per IndexedDB transaction in the worker (the bench measures sizes; the app uses WORKER_CHUNK). */
  chunkSize?: number;
}

/** How many of the rows, in the order given, were written; fewer than all only when cancelled. */
export interface WriteOutcome {
  written: number;
  cancelled: boolean;
}

/** The worker could not be started or died: the write is redone on the page. */
class WorkerUnavailable extends Error {
  override name = 'WorkerUnavailable';
}

let seq = 0;

/** Lets the page paint and handle input between two messages. */
const yieldToPage = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * The cache's bulk writes for one database, on behalf of its owner (db/owner), which alone calls it.
 * Large writes go to a dedicated worker (created on first need) so the page never blocks on IndexedDB;
 * small ones, and every write when no worker can be created, run on the page in chunks of
 * DEFAULT_CHUNK as before. Writes run one at a time in call order, whichever way they go, so a later
 * fetch of a payment is never overwritten by an earlier one. A failure is the cache's clear message
 * (disk full, quota) with nothing reported as written that was not.
 */
export function createCacheWriter(db: RefundDeskDb, createWorker?: () => WorkerLike) {
  const repo = createTransactionsRepo(db);
  let worker: WorkerLike | undefined;
  let broken = !createWorker;
  let tail: Promise<unknown> = Promise.resolve();
  /** The write in the worker waiting for its replies, by id (one at a time: writes are queued). */
  const waiting = new Map<number, { reply: (m: FromWorker) => void; died: () => void }>();

  function workerOrUndefined(): WorkerLike | undefined {
    if (broken || !createWorker) return undefined;
    if (worker) return worker;
    try {
      const w = createWorker();
      w.addEventListener('message', (e: { data: FromWorker }) => waiting.get(e.data.id)?.reply(e.data));
      // A worker that cannot load (a missing or refused script) or dies reports here, never by message.
      w.addEventListener('error', () => {
        for (const h of [...waiting.values()]) h.died();
      });
      worker = w;
      return w;
    } catch {
      broken = true;
      return undefined;
    }
  }

  async function onPage(
    profileId: string,
    txs: readonly Transaction[],
    fetchedAt: string,
    opts: WriteOptions,
    progress: { written: number },
  ): Promise<WriteOutcome> {
    await repo.bulkUpsert(profileId, txs, fetchedAt, {
      onChunk: (n) => {
        progress.written = n;
        opts.onProgress?.(n);
      },
      ...(opts.signal ? { signal: opts.signal } : {}),
    });
    return { written: progress.written, cancelled: progress.written < txs.length };
  }

  function inWorker(
    w: WorkerLike,
    profileId: string,
    txs: readonly Transaction[],
    fetchedAt: string,
    opts: WriteOptions,
    progress: { written: number },
  ): Promise<WriteOutcome> {
    const id = (seq += 1);
    return new Promise<WriteOutcome>((resolve, reject) => {
      let settled = false;
      const onAbort = () => w.postMessage({ kind: 'cancel', id });
      const finish = (f: () => void) => {
        if (settled) return;
        settled = true;
        waiting.delete(id);
        opts.signal?.removeEventListener('abort', onAbort);
        f();
      };
      waiting.set(id, {
        reply: (m) => {
          progress.written = m.written;
          if (m.kind === 'progress') opts.onProgress?.(m.written);
          else if (m.kind === 'done') finish(() => resolve({ written: m.written, cancelled: m.cancelled }));
          else
            finish(() =>
              reject(
                Object.assign(new Error(m.message), {
                  name: m.name,
                  ...(m.innerName ? { inner: { name: m.innerName } } : {}),
                }),
              ),
            );
        },
        died: () => finish(() => reject(new WorkerUnavailable())),
      });
      opts.signal?.addEventListener('abort', onAbort, { once: true });
      void (async () => {
        const base = {
          kind: 'rows' as const,
          id,
          dbName: db.name,
          profileId,
          fetchedAt,
          chunkSize: opts.chunkSize ?? WORKER_CHUNK,
        };
        for (let i = 0; i < txs.length && !settled; i += SLICE) {
          if (opts.signal?.aborted) return onAbort();
          const last = i + SLICE >= txs.length;
          try {
            w.postMessage({ ...base, rows: txs.slice(i, i + SLICE), last });
          } catch (e) {
            // A row that cannot be cloned: it could not be stored on the page either.
            onAbort();
            return finish(() => reject(e instanceof Error ? e : new Error(String(e))));
          }
          if (!last) await yieldToPage();
        }
      })();
    });
  }

  async function write(
    profileId: string,
    txs: readonly Transaction[],
    fetchedAt: string,
    opts: WriteOptions,
  ): Promise<WriteOutcome> {
    if (opts.signal?.aborted) return { written: 0, cancelled: true };
    const w = txs.length >= WORKER_MIN_ROWS ? workerOrUndefined() : undefined;
    const progress = { written: 0 };
    try {
      if (w) {
        try {
          return await inWorker(w, profileId, txs, fetchedAt, opts, progress);
        } catch (e) {
          if (!(e instanceof WorkerUnavailable)) throw e;
          // Every row is an upsert by key, so writing them all again on the page loses and doubles nothing.
          broken = true;
          worker?.terminate?.();
          worker = undefined;
          progress.written = 0;
        }
      }
      return await onPage(profileId, txs, fetchedAt, opts, progress);
    } catch (e) {
      throw cacheWriteProblem(e, txs.length, progress.written);
    }
  }

  return {
    /** Writes the rows (upserts by profile and transaction number), after every earlier write. */
    write(
      profileId: string,
      txs: readonly Transaction[],
      fetchedAt: string,
      opts: WriteOptions = {},
    ): Promise<WriteOutcome> {
      const run = tail.then(() => write(profileId, txs, fetchedAt, opts));
      tail = run.catch(() => undefined);
      return run;
    },
    /** True while large writes go to the worker (false once it could not be started). */
    get usesWorker(): boolean {
      return !broken;
    },
  };
}
export type CacheWriter = ReturnType<typeof createCacheWriter>;
