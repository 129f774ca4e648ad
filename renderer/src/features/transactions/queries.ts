import { useQuery } from '@tanstack/react-query';
import { useMemo } from 'react';
import { createLookupsRepo } from '../../db/lookups-repo';
import { createMetaRepo } from '../../db/meta-repo';
import type { RefundDeskDb } from '../../db/schema';
import { createTransactionsRepo } from '../../db/transactions-repo';
import { useDb } from '../../db/context';
import { toListRow, type ListRow } from './list-row';

/** Query-key factory: everything cached per profile lives under ['transactions', profileId]. */
export const transactionKeys = {
  all: ['transactions'] as const,
  profile: (profileId: string) => ['transactions', profileId] as const,
  rows: (profileId: string) => ['transactions', profileId, 'rows'] as const,
  /** The first screen of the list only (never merged into or mistaken for the whole list). */
  firstPage: (profileId: string) => ['transactions', profileId, 'first-page'] as const,
  newestFetch: (profileId: string) => ['transactions', profileId, 'newest-fetch'] as const,
};

/** The repositories over the app's one database. */
export function useRepos() {
  const db = useDb();
  return useMemo(() => reposFor(db), [db]);
}

/** Repositories for a database (exported for tests and non-React callers). */
export function reposFor(db: RefundDeskDb) {
  return {
    transactions: createTransactionsRepo(db),
    lookups: createLookupsRepo(db),
    meta: createMetaRepo(db),
  };
}
export type Repos = ReturnType<typeof reposFor>;

/** Rows in the list's first screen, read before everything else so the list paints at once. */
export const FIRST_PAGE_ROWS = 60;

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals. Read with one indexed
 * query; later single-row changes are merged into this data (mergeRows) instead of re-reading it all.
 * `enabled: false` only holds back the read (the list starts it once its first screen is painted).
 */
export function useCachedRows(profileId: string, opts: { enabled?: boolean } = {}) {
  const { transactions } = useRepos();
  return useQuery({
    queryKey: transactionKeys.rows(profileId),
    queryFn: async () => (await transactions.all(profileId)).map(toListRow),
    staleTime: Infinity,
    enabled: opts.enabled ?? true,
  });
}

/**
 * What the Transactions list shows: the newest screen of rows first (one small read of the
 * [profileId+createdAt] index), then every row once the whole-cache read has arrived. `complete` says
 * which: until it is true the rows are only the first screen, so counts, totals, exports and "all"
 * selections must not be presented as final.
 */
export function useListRows(profileId: string) {
  const { transactions } = useRepos();
  const first = useQuery({
    queryKey: transactionKeys.firstPage(profileId),
    queryFn: async () => (await transactions.newest(profileId, FIRST_PAGE_ROWS)).map(toListRow),
    staleTime: Infinity,
  });
  // The big read starts after the first screen arrived, so that screen is never queued behind it.
  const all = useCachedRows(profileId, { enabled: !first.isPending });
  const complete = all.data !== undefined;
  return {
    rows: all.data ?? first.data,
    complete,
    isPending: all.isPending && (first.isPending || first.isError),
    isError: all.isError,
    error: all.error,
  };
}

/** The newest fetch in the profile's cache: the data's age when offline. */
export function useNewestFetch(profileId: string) {
  const { transactions } = useRepos();
  return useQuery({
    queryKey: transactionKeys.newestFetch(profileId),
    queryFn: async () => (await transactions.newestFetchedAt(profileId)) ?? null,
    staleTime: Infinity,
  });
}

/** Replaces or adds rows by transactionNo in an already-loaded list (keeps untouched rows identical). */
export function mergeRows(current: readonly ListRow[] | undefined, fresh: readonly ListRow[]): ListRow[] {
  const byNo = new Map(fresh.map((r) => [r.transactionNo, r]));
  const out = (current ?? []).map((r) => {
    const f = byNo.get(r.transactionNo);
    if (f) byNo.delete(r.transactionNo);
    return f ?? r;
  });
  for (const r of byNo.values()) out.push(r);
  return out;
}
