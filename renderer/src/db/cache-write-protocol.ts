import type { Transaction } from '../../../shared/domain/transaction';

/**
 * Rows per IndexedDB transaction in the worker, chosen by measurement (`BENCH_CHUNKS=… npm run bench --
 * renderer`, 100k rows in Chromium). In the worker the size no longer trades against the UI's
 * responsiveness, only against the total time.
 */
export const WORKER_CHUNK = 10_000;

/**
 * Messages between the cache owner and its bulk-write worker (cache-write.worker). One write is a
 * sequence of `rows` messages with the same id (the last one says so), so the page never clones 100k
 * rows in one task; `cancel` stops it after the chunk being written.
 */
export type ToWorker =
  | {
      kind: 'rows';
      id: number;
      dbName: string;
      profileId: string;
      fetchedAt: string;
      /** Rows per IndexedDB transaction in the worker. */
      chunkSize: number;
      rows: Transaction[];
      last: boolean;
    }
  | { kind: 'cancel'; id: number };

/** `written` counts rows committed so far, in the order they were sent. */
export type FromWorker =
  | { kind: 'progress'; id: number; written: number }
  | { kind: 'done'; id: number; written: number; cancelled: boolean }
  | { kind: 'failed'; id: number; written: number; name: string; message: string; innerName?: string };
