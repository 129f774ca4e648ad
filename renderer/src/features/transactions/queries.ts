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

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals. Read with one indexed
 * query; later single-row changes are merged into this data (mergeRows) instead of re-reading it all.
 */
export function useCachedRows(profileId: string) {
  const { transactions } = useRepos();
  return useQuery({
    queryKey: transactionKeys.rows(profileId),
    queryFn: async () => (await transactions.all(profileId)).map(toListRow),
    staleTime: Infinity,
  });
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
