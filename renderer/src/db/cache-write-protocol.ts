import type { Transaction } from '../../../shared/domain/transaction';

/**
 * Rows per IndexedDB transaction in the worker, chosen by measurement (`BENCH_CHUNKS=2000,5000,10000,25000
 * npm run bench -- renderer`, 100k rows in Chromium, each write beside a raw one-transaction write on the
 * page, 3 rounds on a loaded 2-core machine): median ratios to raw 1.12 (2,000), 1.06 (5,000), 1.20
 * (10,000), 0.90 (25,000, but with a 174 ms task on the page, and 624 ms at 100,000 in one). With the
 * next chunk put while one commits, the size barely moves the total; 5,000 keeps the page free, Cancel
 * prompt and the rows held in the worker few.
 */
export const WORKER_CHUNK = 5_000;

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
