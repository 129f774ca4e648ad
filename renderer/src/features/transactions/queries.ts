import { useQuery } from '@tanstack/react-query';
import { useCache } from '../../db/owner';

export { mergeRows, transactionKeys } from '../../db/owner';

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals. Read with one indexed
 * query; later changes are merged into this data by the cache owner instead of re-reading it all.
 */
export function useCachedRows(profileId: string) {
  return useQuery(useCache().rowsQuery(profileId));
}

/** The newest fetch in the profile's cache: the data's age when offline. */
export function useNewestFetch(profileId: string) {
  return useQuery(useCache().newestFetchQuery(profileId));
}
