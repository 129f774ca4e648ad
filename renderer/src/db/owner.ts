import { isKnownCurrency } from '../../../shared/domain/currencies';
import { type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useMemo } from 'react';
import type { Transaction } from '../../../shared/domain/transaction';
import { haystackOf, type ListRow, toListRow } from './list-row';
import { listRowsOf, MERGE_SLICE, mergeRows, mergeWrittenInSlices } from './list-merge';
import { createCacheAdmin, openCache, RESET_CACHE_WORDS, resetLocalCache } from './cache';
import { createCacheWriteWorker } from './cache-write-worker';
import { type CacheWriter, createCacheWriter, type WriteOutcome } from './cache-writer';
import { useDb } from './context';
import { createMetaRepo } from './meta-repo';
import { readListRows } from './read-list';
import { type ListStats, statsOf } from './list-stats';
import { type ListSummary, listSummaryKey, summaryOf, toStored } from './list-summary';
import type { CachedTransaction, RefundDeskDb } from './schema';
import { createTransactionsRepo, type LocalHit } from './transactions-repo';

export type { CachedTransaction, ListRow, ListStats, ListSummary, LocalHit, WriteOutcome };
/** What the list knows of all its rows, gathered as they were read (list-stats.ts). */
export { statsOf };
/** What the list's text filter searches in a row (list-row.ts). */
export { haystackOf };
export { RESET_CACHE_WORDS };

/** Query-key factory: everything cached per profile lives under ['transactions', profileId]. */
export const transactionKeys = {
  all: ['transactions'] as const,
  profile: (profileId: string) => ['transactions', profileId] as const,
  rows: (profileId: string) => ['transactions', profileId, 'rows'] as const,
  /** The first screen of the list only (never merged into or mistaken for the whole list). */
  firstPage: (profileId: string) => ['transactions', profileId, 'first-page'] as const,
  newestFetch: (profileId: string) => ['transactions', profileId, 'newest-fetch'] as const,
  /** The whole cache's count and sums as of its last complete read (list-summary.ts). */
  summary: (profileId: string) => ['transactions', profileId, 'summary'] as const,
  setting: (profileId: string, name: string) => ['transactions', profileId, 'setting', name] as const,
  /** Rows read by number (other screens' views of cached payments); every write re-reads them. */
  byNumbers: (profileId: string, transactionNos: readonly string[] = []) =>
    ['transactions', profileId, 'by-number', ...transactionNos] as const,
};

export { mergeRows };

/** Lets the page paint and handle input between two slices of a merge. */
const yieldToPage = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * The merges into each query client's lists, one after another: a large merge yields to the page, and an
 * earlier fetch's rows must never land after a later one's.
 */
const mergeTails = new WeakMap<QueryClient, Promise<unknown>>();

/** Whole-cache reads under way, per query client and profile: where writes meanwhile are kept. */
const reading = new WeakMap<QueryClient, Map<string, ListRow[][][]>>();
function readingLists(client: QueryClient): Map<string, ListRow[][][]> {
  let m = reading.get(client);
  if (!m) {
    m = new Map();
    reading.set(client, m);
  }
  return m;
}

/**
 * One writer per database, shared by every owner over it (each component's useCache makes its own),
 * so all writes queue in one line and a worker is started once.
 */
const writers = new WeakMap<RefundDeskDb, CacheWriter>();
function writerFor(db: RefundDeskDb): CacheWriter {
  let w = writers.get(db);
  if (!w) {
    w = createCacheWriter(db, createCacheWriteWorker);
    writers.set(db, w);
  }
  return w;
}

/**
 * The one owner of the renderer's cache: the only code that writes IndexedDB, and it keeps TanStack
 * Query in step with every write. Lookups, bulk refresh and sync, live pushes, reconciliation, profile
 * deletion and the reset all go through here; screens read through its queries and never touch the
 * database (lint-enforced). A write is merged into a list already loaded and never creates one from the
 * written rows alone — an absent list reads the whole cache when it is opened. Large writes run in a
 * worker (cache-writer) that the owner awaits before touching the query cache.
 */
export function createCacheOwner(
  db: RefundDeskDb,
  client: QueryClient,
  writer: CacheWriter = writerFor(db),
  /** Rows per page of the whole-cache read (read-list.ts); tests make pages small. */
  opts: { readPage?: number } = {},
) {
  const transactions = createTransactionsRepo(db);
  const meta = createMetaRepo(db);
  return {
    /** Every cached row of the profile, decorated once for sorting/filtering/totals. */
    rowsQuery: (profileId: string) =>
      queryOptions({
        queryKey: transactionKeys.rows(profileId),
        queryFn: async (): Promise<ListRow[]> => {
          // Writes that land while the pages are read are kept here and merged at the end: a page
          // already read would not see them, and there is no list yet to merge them into.
          const landed: ListRow[][] = [];
          const reading = readingLists(client);
          const mine = reading.get(profileId) ?? [];
          reading.set(profileId, [...mine, landed]);
          // The mark a write deletes (list-summary.ts): still there at the end, no write came meanwhile.
          // Stored before the first page is asked, so a write either came before it (and is read) or
          // deletes it.
          const mark = { reading: `${Date.now()}-${Math.random()}` };
          const key = listSummaryKey(profileId);
          const marked = await db.meta
            .put({ key, value: mark })
            .then(() => true)
            .catch(() => false);
          try {
            let rows = await readListRows(transactions, profileId, opts.readPage);
            for (const fresh of landed) rows = mergeRows(rows, fresh);
            if (marked && landed.length === 0) {
              const stats = statsOf(rows);
              await db
                .transaction('rw', db.meta, async () => {
                  const now = (await db.meta.get(key))?.value as { reading?: unknown } | undefined;
                  if (now?.reading === mark.reading) await db.meta.put({ key, value: toStored(stats) });
                })
                // The summary only saves the next start a read; failing to store it loses nothing.
                .catch(() => undefined);
            }
            return rows;
          } finally {
            const left = (reading.get(profileId) ?? []).filter((l) => l !== landed);
            if (left.length > 0) reading.set(profileId, left);
            else reading.delete(profileId);
          }
        },
        staleTime: Infinity,
      }),

    /**
     * The count and per-currency sums of the profile's whole cache as of the last complete read (null
     * when a write came since): the list shows them while its rows are still being read.
     */
    summaryQuery: (profileId: string) =>
      queryOptions({
        queryKey: transactionKeys.summary(profileId),
        queryFn: async (): Promise<ListSummary | null> =>
          summaryOf((await db.meta.get(listSummaryKey(profileId)))?.value),
        staleTime: Infinity,
      }),

    /**
     * The `limit` newest rows by creation time, one small read of the [profileId+createdAt] index: what
     * the list paints before the whole cache has been read. With whether the profile has other rows, read
     * in the same transaction: a screen that holds all of them is the whole list (FirstScreen).
     */
    firstPageQuery: (profileId: string, limit: number) =>
      queryOptions({
        queryKey: transactionKeys.firstPage(profileId),
        queryFn: async (): Promise<FirstScreen> => {
          const { rows, more } = await transactions.firstScreen(profileId, limit);
          return { rows: rows.map(toListRow), more };
        },
        staleTime: Infinity,
      }),

    /**
     * The cached rows of these transaction numbers, by number, decorated exactly as the Transactions list
     * decorates them (toListRow: refunded, remaining, refund state), so another screen that shows a
     * payment's refunds — Payments — says what Transactions says. Numbers not cached are absent.
     */
    byNumbersQuery: (profileId: string, transactionNos: readonly string[]) =>
      queryOptions({
        queryKey: transactionKeys.byNumbers(profileId, transactionNos),
        queryFn: async (): Promise<Record<string, ListRow>> =>
          Object.fromEntries(
            (await transactions.byNumbers(profileId, transactionNos)).map((t) => [
              t.transactionNo,
              toListRow(t),
            ]),
          ),
        staleTime: Infinity,
      }),

    /** The newest fetch in the profile's cache: the data's age when offline. */
    newestFetchQuery: (profileId: string) =>
      queryOptions({
        queryKey: transactionKeys.newestFetch(profileId),
        queryFn: async () => (await transactions.newestFetchedAt(profileId)) ?? null,
        staleTime: Infinity,
      }),

    /** Finds a cached transaction by any kind of id (offline search). */
    findLocal: (profileId: string, query: string): Promise<LocalHit | undefined> =>
      transactions.findLocal(profileId, query),

    /**
     * Cached transactions of these numbers fetched less than `maxAgeMs` ago (reconciliation's hits). Rows
     * cached by earlier versions may be in a currency this app no longer handles: main refuses those
     * answers, so they are left for a fresh lookup (which fails there with the reason).
     */
    async freshOnes(
      profileId: string,
      transactionNos: readonly string[],
      maxAgeMs: number,
      now = Date.now(),
    ): Promise<CachedTransaction[]> {
      return (await transactions.byNumbers(profileId, transactionNos)).filter(
        (h) => now - Date.parse(h.fetchedAt) < maxAgeMs && isKnownCurrency(h.currency),
      );
    },

    /**
     * Stores what the service said about these transactions and merges them into the loaded list. An
     * aborted `signal` stops a long write after its current chunk: the rows written by then are merged,
     * the rest are not stored. A failed write throws the cache's AppError, after merging what was stored.
     */
    async store(
      profileId: string,
      txs: readonly Transaction[],
      fetchedAt: string,
      opts: { signal?: AbortSignal } = {},
    ): Promise<WriteOutcome> {
      if (txs.length === 0) return { written: 0, cancelled: false };
      const showNow = async (written: readonly Transaction[]) => {
        if (written.length === 0) return;
        const key = transactionKeys.rows(profileId);
        const base = client.getQueryData<ListRow[]>(key);
        // Rows written while the list is being read: merged when the read ends.
        for (const landed of readingLists(client).get(profileId) ?? [])
          landed.push(listRowsOf(written, profileId, fetchedAt));
        if (base !== undefined) {
          // A large write is merged a slice at a time (list-merge.ts); if the list changed meanwhile (it
          // was read again, or a lookup landed), the fresh rows are merged into what is there now.
          const { merged, fresh } =
            written.length < MERGE_SLICE
              ? { merged: undefined, fresh: listRowsOf(written, profileId, fetchedAt) }
              : await mergeWrittenInSlices(base, written, profileId, fetchedAt, yieldToPage);
          client.setQueryData(key, (cur: ListRow[] | undefined) =>
            cur === undefined ? undefined : merged && cur === base ? merged : mergeRows(cur, fresh),
          );
        }
        client.setQueryData(transactionKeys.newestFetch(profileId), (cur: string | null | undefined) =>
          cur === undefined ? undefined : cur && cur > fetchedAt ? cur : fetchedAt,
        );
        // The stored summary was deleted with the write (list-summary.ts); so is the one read.
        client.setQueryData(transactionKeys.summary(profileId), null);
        // The first screen is a read of the index, not a list to merge into: read it again when shown.
        void client.invalidateQueries({ queryKey: transactionKeys.firstPage(profileId) });
        // So are reads by number (a payment's refunds on the Payments screen).
        void client.invalidateQueries({ queryKey: transactionKeys.byNumbers(profileId) });
      };
      const show = (written: readonly Transaction[]): Promise<void> => {
        const done = (mergeTails.get(client) ?? Promise.resolve()).then(() => showNow(written));
        mergeTails.set(
          client,
          done.catch(() => {}),
        );
        return done;
      };
      let outcome: WriteOutcome;
      try {
        outcome = await writer.write(profileId, txs, fetchedAt, opts);
      } catch (e) {
        const written = (e as { details?: { written?: unknown } }).details?.written;
        if (typeof written === 'number') await show(txs.slice(0, written));
        throw e;
      }
      await show(outcome.written === txs.length ? txs : txs.slice(0, outcome.written));
      return outcome;
    },

    /** A small per-profile setting (a list's view, a remembered mapping); readers validate the value. */
    setting: (profileId: string, name: string): Promise<unknown> => meta.get(profileId, name),
    /**
     * The same setting as a query (null when none is stored), so it can be read ahead of a screen: the
     * list's view is asked before the whole-cache read, which IndexedDB would otherwise answer first.
     */
    settingQuery: (profileId: string, name: string) =>
      queryOptions({
        queryKey: transactionKeys.setting(profileId, name),
        queryFn: async (): Promise<unknown> => (await meta.get(profileId, name)) ?? null,
        staleTime: Infinity,
      }),
    async saveSetting(profileId: string, name: string, value: unknown): Promise<void> {
      await meta.set(profileId, name, value);
      client.setQueryData(transactionKeys.setting(profileId, name), value);
    },

    /** Removes everything cached for a deleted profile, and its queries with it. */
    async clearProfile(profileId: string): Promise<void> {
      await createCacheAdmin(db).clearProfile(profileId);
      client.removeQueries({ queryKey: transactionKeys.profile(profileId) });
    },

    /** Opens the cache; says why it cannot be used, or undefined when it can. */
    open: (): Promise<string | undefined> => openCache(db),

    /** Deletes the whole cache database (every profile) and opens it anew, empty. */
    async reset(): Promise<void> {
      await resetLocalCache(db);
      client.removeQueries({ queryKey: transactionKeys.all });
    },
  };
}
export type CacheOwner = ReturnType<typeof createCacheOwner>;

/** The list's first screen: its rows, and whether the profile's cache held others when they were read. */
export interface FirstScreen {
  rows: ListRow[];
  more: boolean;
}

/** The cache owner over the app's one database and query client. */
export function useCache(): CacheOwner {
  const db = useDb();
  const client = useQueryClient();
  return useMemo(() => createCacheOwner(db, client), [db, client]);
}
