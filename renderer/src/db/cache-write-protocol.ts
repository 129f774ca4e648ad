import type { Transaction } from '../../../shared/domain/transaction';

/**
 * Rows per IndexedDB transaction in the worker, chosen by measurement (`BENCH_CHUNKS=5000,10000,20000
 * npm run bench -- renderer`: 100k rows in Chromium, each write paired with a raw one-transaction write
 * on the page, three runs on a loaded 2-core machine). Median ratio to raw over the pairs: 1.14 at 5,000
 * (13 pairs), 1.12 at 10,000 (18), 1.15 at 20,000 (3) — one within the noise, as the next chunk is put
 * while one commits — while 25,000 and 100,000 showed 174 ms and 624 ms tasks on the page. So 10,000:
 * the page stays free, Cancel waits for at most one chunk, and the worker holds few rows.
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
