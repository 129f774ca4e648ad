import type { Transaction } from '../../../shared/domain/transaction';
import type { RefundDeskDb } from './schema';
import { listSummaryKey } from './list-summary';
import { toRows } from './transactions-repo';

/** IndexedDB's connection as Dexie types it (this module is also type-checked without the DOM library). */
type IdbConnection = ReturnType<RefundDeskDb['backendDB']>;

/**
 * Stores one chunk of transactions and their refunds in one IndexedDB transaction of `idb` (the
 * connection Dexie opened: its backendDB), with the records the repository's bulkUpsert writes; the
 * stores, their key paths and indexes are Dexie's schema, so IndexedDB derives the same keys. For the
 * bulk-write worker, where a chunk is thousands of rows: Dexie's table layer adds a promise, an error
 * listener and a result read-back to every put, which the worker pays for on top of serialising each
 * record. The transaction is created before this returns, so chunks commit in the order of the calls.
 * Resolves when the chunk is committed; rejects with IndexedDB's own error (QuotaExceededError for a
 * full disk) when it is not, and then none of its rows are stored.
 *
 * Durability is "relaxed", said outright: it is Chromium's default since version 121, so what the
 * cache's other transactions (Dexie's, which ask for the default) get too; the cache can be fetched
 * again, so a chunk need not wait for a disk flush.
 */
export function putChunkRaw(
  idb: IdbConnection,
  profileId: string,
  txs: readonly Transaction[],
  fetchedAt: string,
): Promise<void> {
  return new Promise<void>((resolve, reject) => {
    const tx = idb.transaction(['transactions', 'refunds', 'meta'], 'readwrite', { durability: 'relaxed' });
    tx.oncomplete = () => resolve();
    // A failed put (its error event unhandled) aborts the transaction with that put's error.
    tx.onabort = () => reject(tx.error ?? new DOMException('The write was aborted.', 'AbortError'));
    try {
      const rows = tx.objectStore('transactions');
      const refunds = tx.objectStore('refunds');
      // The profile's list summary (list-summary.ts) no longer holds once these rows are in.
      tx.objectStore('meta').delete(listSummaryKey(profileId));
      for (const t of txs) {
        const r = toRows(profileId, t, fetchedAt);
        rows.put(r.row);
        for (const refund of r.refunds) refunds.put(refund);
      }
      // Nothing more goes into this transaction: commit as soon as the database has the puts, rather
      // than when this thread next turns to its events (auto-commit). This thread is then usually busy
      // putting the next chunk, whose transaction waits for this one's commit, so the database would
      // idle between chunks.
      tx.commit();
    } catch (e) {
      // Thrown by put itself (a record that cannot be cloned, a missing key): nothing of the chunk stays.
      try {
        tx.abort();
      } catch {
        // Already finished.
      }
      reject(e instanceof Error ? e : new Error(String(e)));
    }
  });
}
