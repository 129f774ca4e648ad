import Dexie from 'dexie';
import type { Transaction } from '../../../shared/domain/transaction';
import { listSummaryKey } from './list-summary';
import type { CachedRefund, CachedTransaction, RefundDeskDb } from './schema';

/**
 * Rows per bulkPut, chosen by measurement (`BENCH_CHUNKS=1000,2000,5000,10000 npm run bench -- renderer`,
 * 100k rows in Chromium, 2 runs each): the total write time did not depend on the chunk size beyond the
 * machine's noise (11–19 s for every size), while the longest main-thread task grew with it (230 ms at
 * 1k, 515 ms at 2k, about 1 s at 5k and 10k). So the smallest measured size: the same throughput with the
 * UI blocked for the least time.
 */
export const DEFAULT_CHUNK = 1_000;

/** What a local (cache-only) search found, and by which kind of id. */
export type LocalHit =
  | { kind: 'transactionNo'; transaction: CachedTransaction }
  | { kind: 'reference'; transaction: CachedTransaction }
  | { kind: 'refundTransactionNo'; transaction: CachedTransaction; refundTransactionNo: string }
  | { kind: 'refundReference'; transaction: CachedTransaction; refundTransactionNo: string };

/** A transaction as cached: stamped with its profile and fetch time, its refunds as their own records too. */
export function toRows(
  profileId: string,
  tx: Transaction,
  fetchedAt: string,
): { row: CachedTransaction; refunds: CachedRefund[] } {
  const row: CachedTransaction = { ...tx, profileId, fetchedAt };
  const refunds = tx.refunds.map((r) => ({ ...r, profileId, transactionNo: tx.transactionNo, fetchedAt }));
  return { row, refunds };
}

/**
 * Transactions and their refunds in the cache, always scoped by profile. Receives the database so tests
 * pass a fake-indexeddb one. Refunds live embedded in the transaction (what the list and the remaining
 * amount need) and in their own table (to find a transaction by refundTransactionNo offline).
 */
export function createTransactionsRepo(db: RefundDeskDb) {
  const profileRange = (profileId: string, index: string) =>
    db.transactions.where(index).between([profileId, Dexie.minKey], [profileId, Dexie.maxKey]);

  const newest = (profileId: string, limit: number): Promise<CachedTransaction[]> =>
    profileRange(profileId, '[profileId+createdAt]').reverse().limit(limit).toArray();

  async function putAll(profileId: string, txs: readonly Transaction[], fetchedAt: string): Promise<void> {
    const rows: CachedTransaction[] = [];
    const refunds: CachedRefund[] = [];
    for (const tx of txs) {
      const r = toRows(profileId, tx, fetchedAt);
      rows.push(r.row);
      refunds.push(...r.refunds);
    }
    await db.transaction('rw', ['transactions', 'refunds', 'meta'], async () => {
      // The profile's list summary (list-summary.ts) no longer holds once these rows are in.
      await db.meta.delete(listSummaryKey(profileId));
      await db.transactions.bulkPut(rows);
      if (refunds.length > 0) await db.refunds.bulkPut(refunds);
    });
  }

  return {
    /**
     * Stores many transactions in chunks of `chunkSize`, one IndexedDB transaction per chunk so a
     * 100k-row sync never holds one giant transaction; `onChunk` reports rows written so far. An aborted
     * `signal` stops it before the next chunk; it returns how many rows (from the start) were written.
     */
    async bulkUpsert(
      profileId: string,
      txs: readonly Transaction[],
      fetchedAt: string,
      opts: { chunkSize?: number; onChunk?: (written: number) => void; signal?: AbortSignal } = {},
    ): Promise<number> {
      const size = Math.max(1, opts.chunkSize ?? DEFAULT_CHUNK);
      let written = 0;
      for (let i = 0; i < txs.length && !opts.signal?.aborted; i += size) {
        await putAll(profileId, txs.slice(i, i + size), fetchedAt);
        written = Math.min(txs.length, i + size);
        opts.onChunk?.(written);
      }
      return written;
    },

    /** Every cached transaction of a profile (the list filters and sorts in memory). */
    all(profileId: string): Promise<CachedTransaction[]> {
      return db.transactions.where('profileId').equals(profileId).toArray();
    },

    /**
     * Up to `limit` of the profile's transactions in transaction-number order (the primary key), after
     * `afterNo` (from the first when undefined): the whole cache read a page at a time, each page one
     * getAll of the key range, so no single answer holds the page for seconds at a million rows.
     * `takeMs` is how long this thread spent taking the answer out of the database (IndexedDB
     * deserialises a record when its result is first read, on this thread: at 1M rows that was most of
     * each page's task, and the reader sizes its pages by it). Raw IndexedDB, since Dexie reads the
     * result inside its own handler, where it cannot be timed.
     */
    async page(profileId: string, afterNo: string | undefined, limit: number): Promise<ReadPage> {
      if (!db.isOpen()) await db.open();
      const store = db.backendDB().transaction('transactions', 'readonly').objectStore('transactions');
      // Primary keys are [profileId, transactionNo]: [profileId] sorts before all of the profile's
      // keys, and [profileId, []] after them (an array sorts after every string).
      // The database's own key ranges (tests give Dexie an in-memory IndexedDB).
      // Read through globalThis: this module is also type-checked for Node, which has no IndexedDB types.
      const keys = (db._options.IDBKeyRange ?? (globalThis as { IDBKeyRange?: unknown }).IDBKeyRange) as {
        bound(lower: unknown, upper: unknown, lowerOpen?: boolean): unknown;
      };
      const range =
        afterNo === undefined
          ? keys.bound([profileId], [profileId, []])
          : keys.bound([profileId, afterNo], [profileId, []], true);
      return new Promise((resolve, reject) => {
        const req = store.getAll(range as Parameters<typeof store.getAll>[0], limit);
        req.onsuccess = () => {
          const t0 = performance.now();
          const rows = req.result as CachedTransaction[];
          resolve({ rows, takeMs: performance.now() - t0 });
        };
        req.onerror = () => reject(req.error ?? new Error('the cache could not be read'));
      });
    },

    /**
     * The `limit` newest transactions by creation time, newest first, through the [profileId+createdAt]
     * index: one screen of the list without reading the rest. Rows without a creation time are not in
     * that index, so they never appear here (they arrive with `all`).
     */
    newest,

    /**
     * `newest`, and whether the profile has rows besides them, read in one transaction (one snapshot):
     * when it has none — an empty cache, or one smaller than a screen whose rows all have a creation
     * time — the screen is the whole list, and the list needs no other read to be complete. Asked as at
     * most one key more than the screen holds, never as a count (IndexedDB counts by walking the range:
     * a million rows would hold up the first screen).
     */
    firstScreen(profileId: string, limit: number): Promise<{ rows: CachedTransaction[]; more: boolean }> {
      return db.transaction('r', ['transactions'], async () => {
        const rows = await newest(profileId, limit);
        const keys = await db.transactions
          .where('profileId')
          .equals(profileId)
          .limit(rows.length + 1)
          .primaryKeys();
        return { rows, more: keys.length > rows.length };
      });
    },

    /** The cached transactions of these numbers (those not cached are simply absent). */
    byNumbers(profileId: string, transactionNos: readonly string[]): Promise<CachedTransaction[]> {
      return db.transactions
        .where('[profileId+transactionNo]')
        .anyOf(transactionNos.map((no) => [profileId, no]))
        .toArray();
    },

    /** The newest fetchedAt of the profile's cache (the data's age offline), or undefined when empty. */
    async newestFetchedAt(profileId: string): Promise<string | undefined> {
      const last = await profileRange(profileId, '[profileId+fetchedAt]').last();
      return last?.fetchedAt;
    },

    /** Finds a cached transaction by any kind of id, trying the exact keys in order. */
    async findLocal(profileId: string, query: string): Promise<LocalHit | undefined> {
      const q = query.trim();
      if (!q) return undefined;
      const byNo = await db.transactions.get([profileId, q]);
      if (byNo) return { kind: 'transactionNo', transaction: byNo };
      const byRef = await db.transactions.where('[profileId+reference]').equals([profileId, q]).first();
      if (byRef) return { kind: 'reference', transaction: byRef };
      const refund = await db.refunds.get([profileId, q]);
      if (refund) {
        const parent = await db.transactions.get([profileId, refund.transactionNo]);
        if (parent) return { kind: 'refundTransactionNo', transaction: parent, refundTransactionNo: q };
      }
      const byRefundRef = await db.refunds
        .where('[profileId+refundReference]')
        .equals([profileId, q])
        .first();
      if (byRefundRef) {
        const parent = await db.transactions.get([profileId, byRefundRef.transactionNo]);
        if (parent)
          return {
            kind: 'refundReference',
            transaction: parent,
            refundTransactionNo: byRefundRef.refundTransactionNo,
          };
      }
      return undefined;
    },
  };
}
export type TransactionsRepo = ReturnType<typeof createTransactionsRepo>;

/** One page of the whole-cache read, and this thread's ms to take it from the database. */
export interface ReadPage {
  rows: CachedTransaction[];
  takeMs: number;
}
