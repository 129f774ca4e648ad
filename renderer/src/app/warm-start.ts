import type { QueryClient } from '@tanstack/react-query';
import type { Bridge } from '../../../shared/ipc/contract';
import type { CacheOwner } from '../db/owner';
import { profilesQuery } from '../features/profiles/queries';
import { prefetchListRows } from '../features/transactions/queries';

/**
 * Starts the landing screen's reads while the app itself is still loading: the profiles, the cache's
 * open check, then the active profile's list (its first screen, then every row) into the query client
 * the screens read from. The whole-cache read is mostly IndexedDB's own work in the browser, so it runs
 * while React builds the shell instead of after it: at 100k cached rows the count and totals were final
 * ~1.7× a bare getAll() of the same rows when the read waited for the list to mount (~150 ms of boot
 * plus the first screen first). Nothing here shows anything: a failure is left for the screens, whose
 * queries ask again on mount and say what went wrong. A cache the open check refuses is not read.
 */
export async function warmStart(bridge: Bridge, client: QueryClient, cache: CacheOwner): Promise<void> {
  try {
    const [list, problem] = await Promise.all([client.fetchQuery(profilesQuery(bridge)), cache.open()]);
    if (problem || !list.activeProfileId) return;
    prefetchListRows(client, cache, list.activeProfileId);
  } catch {
    // The screens ask again and report it.
  }
}
