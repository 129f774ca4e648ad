import { type QueryClient, useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { type CacheOwner, type ListRow, useCache } from '../../db/owner';
import { COLUMNS } from './columns';
import { prepareKeys } from './sort-keys';
import { prepareText } from './text-index';
import { type Sorting, sortOrder } from './sorting';
import { VIEW_STATE_KEY } from './view-state';

export { mergeRows, transactionKeys } from '../../db/owner';

/** Rows in the list's first screen, read before everything else so the list paints at once. */
export const FIRST_PAGE_ROWS = 60;

/**
 * Up to this many rows, a list's sort keys are built in the render that needs them (a few ms); above
 * it, in slices before the list is shown (prepareKeys), so no task of the page is long.
 */
export const PREPARE_IN_SLICES_ABOVE = 50_000;

/** Lets the page paint and handle input between two slices of preparation. */
const pause = () => new Promise<void>((r) => setTimeout(r, 0));

/**
 * Columns whose keys are built before the whole list is shown, besides the sort's: the amounts. Keys
 * built later in the background took frames from scrolling; a column not prepared is keyed on its
 * first sort (one pass over the rows).
 */
const PREPARED = new Set(['amount', 'refunded', 'remaining']);

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals. Read a page at a time
 * (read-list.ts); later changes are merged into this data by the cache owner instead of re-reading it
 * all. `enabled: false` only holds back the read (the list starts it once its first screen is painted).
 */
export function useCachedRows(profileId: string, opts: { enabled?: boolean } = {}) {
  return useQuery({ ...useCache().rowsQuery(profileId), enabled: opts.enabled ?? true });
}

/**
 * What the Transactions list shows: the newest screen of rows first (one small read of the
 * [profileId+createdAt] index), then every row once the whole cache has been read and the order
 * `sorting` asks for has been prepared a slice at a time. `complete` says which: until it is true the
 * rows are only the first screen, so counts, totals, exports and "all" selections must not be presented
 * as final. A list already shown stays until its successor (a write merged in) is prepared.
 */
export function useListRows(profileId: string, sorting: Sorting = []) {
  const cache = useCache();
  const first = useQuery(cache.firstPageQuery(profileId, FIRST_PAGE_ROWS));
  // The whole cache's count and sums, known before its rows are (list-summary.ts), or null.
  const summary = useQuery(cache.summaryQuery(profileId));
  // The big read starts after the first screen arrived, so that screen is never queued behind it.
  const all = useCachedRows(profileId, { enabled: !first.isPending });
  const data = all.data;
  const [ready, setReady] = useState<{ profileId: string; rows: readonly ListRow[] } | undefined>(undefined);
  const small = data !== undefined && data.length <= PREPARE_IN_SLICES_ABOVE;
  const sortingKey = JSON.stringify(sorting);
  useEffect(() => {
    if (!data || small) return;
    let stopped = false;
    const sorted = JSON.parse(sortingKey) as Sorting;
    void (async () => {
      // The sort's columns, and the money columns (what a list of payments is most often sorted by), so
      // that a click on them sorts at once; the others are built when first asked for.
      const specs = COLUMNS.filter((c) => sorted.some((s) => s.id === c.id) || PREPARED.has(c.id));
      await prepareKeys(data, specs, pause);
      if (stopped) return;
      // The id filter's text index (text-index.ts), so the first keystroke does not join a million texts.
      await prepareText(data, pause);
      if (stopped) return;
      // The order itself (a few radix passes over the keys) in a task of its own, before the render.
      sortOrder(data, sorted, COLUMNS);
      await pause();
      if (stopped) return;
      setReady({ profileId, rows: data });
    })();
    return () => {
      stopped = true;
    };
  }, [data, small, sortingKey, profileId]);
  const prepared = small ? data : data && ready?.profileId === profileId ? ready.rows : undefined;
  // A first screen holding every row the profile had when it was read (an empty cache, or a small one)
  // is the whole list: complete without waiting for the whole-cache read, which still runs (it stores
  // the summary) and whose rows replace these once it is done.
  const whole = first.data && !first.data.more ? first.data.rows : undefined;
  const shown = prepared ?? whole;
  return {
    rows: shown ?? first.data?.rows,
    complete: shown !== undefined,
    /** Count and sums of every cached row while the rows are still being read (null when unknown). */
    summary: shown === undefined ? (summary.data ?? null) : null,
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
  void client.prefetchQuery(cache.summaryQuery(profileId));
  void client.prefetchQuery(cache.rowsQuery(profileId));
}

/** The newest fetch in the profile's cache: the data's age when offline. */
export function useNewestFetch(profileId: string) {
  return useQuery(useCache().newestFetchQuery(profileId));
}
