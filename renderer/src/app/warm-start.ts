import type { QueryClient } from '@tanstack/react-query';
import type { Bridge, Output } from '../../../shared/ipc/contract';
import type { CacheOwner } from '../db/owner';
import { unwrap } from '../lib/bridge';
import { profileKeys } from '../features/profiles/queries';
import { refundKeys } from '../features/refunds/queries';
import { appHealthQuery, appKeys } from '../features/shell/queries';
import { teamKeys } from '../features/shell/team';
import { prefetchListRows } from '../features/transactions/queries';

/**
 * What main tells the first screen, in one round (app.bootstrap): the profiles, the app's facts, its
 * health, the team state and the active profile's refund intents, put where the screens' own queries
 * read them (profiles.list, app.info, app.health, team.status, refunds.list), so the shell and the
 * landing list mounting find them there instead of asking main a second time.
 */
export async function bootstrap(bridge: Bridge, client: QueryClient): Promise<Output<'app.bootstrap'>> {
  const boot = await unwrap(bridge['app.bootstrap']());
  client.setQueryData(profileKeys.list, boot.profiles);
  client.setQueryData(appKeys.info, boot.info);
  client.setQueryData(teamKeys.status, boot.team);
  // Main's bootstrap health is the active profile's: kept under the key the indicator asks with for it.
  client.setQueryData(
    appHealthQuery(bridge, boot.profiles.activeProfileId ?? undefined).queryKey,
    boot.health,
  );
  const active = boot.profiles.activeProfileId;
  if (active && boot.intents) client.setQueryData(refundKeys.list({ profileId: active }), boot.intents);
  return boot;
}

/**
 * Starts the landing screen's reads while the app itself is still loading: main's bootstrap (the
 * profiles among it), the cache's open check, then the active profile's list (its first screen, then
 * every row) into the query client the screens read from. The whole-cache read is mostly IndexedDB's
 * own work in the browser, so it runs while React builds the shell instead of after it: at 100k cached
 * rows the count and totals were final ~1.7× a bare getAll() of the same rows when the read waited for
 * the list to mount (~150 ms of boot plus the first screen first). Nothing here shows anything: a
 * failure is left for the screens, whose queries ask again on mount and say what went wrong. A cache
 * the open check refuses is not read.
 */
export async function warmStart(bridge: Bridge, client: QueryClient, cache: CacheOwner): Promise<void> {
  try {
    const [boot, problem] = await Promise.all([bootstrap(bridge, client), cache.open()]);
    const active = boot.profiles.activeProfileId;
    if (problem || !active) return;
    prefetchListRows(client, cache, active);
  } catch {
    // The screens ask again and report it.
  }
}
