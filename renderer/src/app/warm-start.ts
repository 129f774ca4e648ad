import type { QueryClient } from '@tanstack/react-query';
import type { Bridge, Output } from '../../../shared/ipc/contract';
import type { CacheOwner } from '../db/owner';
import { unwrap } from '../lib/bridge';
import { profileKeys, profilesQuery } from '../features/profiles/queries';
import { refundKeys } from '../features/refunds/queries';
import { appHealthQuery, appInfoQuery, appKeys } from '../features/shell/queries';
import { teamKeys, teamStatusQuery } from '../features/shell/team';
import { prefetchListRows } from '../features/transactions/queries';

/**
 * What main tells the first screen, in one round (app.bootstrap): the profiles, the app's facts, its
 * health, the team state and the active profile's refund intents, put where the screens' own queries
 * read them (profiles.list, app.info, app.health, team.status, refunds.list), so the shell and the
 * landing list mounting find them there instead of asking main a second time.
 *
 * The parts every screen asks for without knowing the active profile (the profiles, the app's facts,
 * the team state, health asked without a profile) are those queries' fetches from the moment the
 * bootstrap is asked: a shell that mounts before main has answered (main still opening its database)
 * waits for that answer instead of sending a second round of four calls, which main would answer only
 * after the first. Should app.bootstrap fail, each of them asks its own call as it would have.
 */
export async function bootstrap(bridge: Bridge, client: QueryClient): Promise<Output<'app.bootstrap'>> {
  const asked = unwrap(bridge['app.bootstrap']());
  type Boot = Awaited<typeof asked>;
  /** The query's fetch is the bootstrap's part; should the bootstrap fail, the query's own call. */
  const fromBootstrap = <T, K extends readonly unknown[]>(
    options: { queryKey: K; queryFn?: unknown },
    part: (boot: Boot) => T,
    own: () => Promise<T>,
  ) => void client.prefetchQuery({ ...options, queryFn: () => asked.then(part, own) });
  fromBootstrap(
    profilesQuery(bridge),
    (b) => b.profiles,
    () => unwrap(bridge['profiles.list']()),
  );
  fromBootstrap(
    appInfoQuery(bridge),
    (b) => b.info,
    () => unwrap(bridge['app.info']()),
  );
  fromBootstrap(
    teamStatusQuery(bridge),
    (b) => b.team,
    () => unwrap(bridge['team.status']()),
  );
  // Main's bootstrap health is app.health asked without a profile: what the header asks for before it
  // knows the active profile.
  fromBootstrap(
    appHealthQuery(bridge),
    (b) => b.health,
    () => unwrap(bridge['app.health']()),
  );
  const boot = await asked;
  client.setQueryData(profileKeys.list, boot.profiles);
  client.setQueryData(appKeys.info, boot.info);
  client.setQueryData(teamKeys.status, boot.team);
  // The same health is the active profile's: kept under the key the indicator asks with for it too.
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
