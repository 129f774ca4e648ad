import { type QueryClient, useQuery } from '@tanstack/react-query';
import { type CacheOwner, useCache } from '../../db/owner';
import { VIEW_STATE_KEY } from './view-state';

export { mergeRows, transactionKeys } from '../../db/owner';

/** Rows in the list's first screen, read before everything else so the list paints at once. */
export const FIRST_PAGE_ROWS = 60;

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals. Read with one indexed
 * query; later changes are merged into this data by the cache owner instead of re-reading it all.
 * `enabled: false` only holds back the read (the list starts it once its first screen is painted).
 */
export function useCachedRows(profileId: string, opts: { enabled?: boolean } = {}) {
  return useQuery({ ...useCache().rowsQuery(profileId), enabled: opts.enabled ?? true });
}

/**
 * What the Transactions list shows: the newest screen of rows first (one small read of the
 * [profileId+createdAt] index), then every row once the whole-cache read has arrived. `complete` says
 * which: until it is true the rows are only the first screen, so counts, totals, exports and "all"
 * selections must not be presented as final.
 */
export function useListRows(profileId: string) {
  const first = useQuery(useCache().firstPageQuery(profileId, FIRST_PAGE_ROWS));
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

/**
 * Starts the list's reads before it mounts, in the order it needs them: its view, the data's age and
 * the first screen are asked first, so the whole-cache read never delays them.
 */
export function prefetchListRows(client: QueryClient, cache: CacheOwner, profileId: string): void {
  // IndexedDB answers in the order asked: the small reads the list needs first go before the big one.
  void client.prefetchQuery(cache.settingQuery(profileId, VIEW_STATE_KEY));
  void client.prefetchQuery(cache.newestFetchQuery(profileId));
  void client.prefetchQuery(cache.firstPageQuery(profileId, FIRST_PAGE_ROWS));
  void client.prefetchQuery(cache.rowsQuery(profileId));
}

/** The newest fetch in the profile's cache: the data's age when offline. */
export function useNewestFetch(profileId: string) {
  return useQuery(useCache().newestFetchQuery(profileId));
}
