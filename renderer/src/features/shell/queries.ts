import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { Bridge } from '../../../../shared/ipc/contract';
import { unwrap } from '../../lib/bridge';

/** Query-key factory and options for app-level data. */
export const appKeys = {
  info: ['app', 'info'] as const,
  health: ['app', 'health'] as const,
};

export const appInfoQuery = (bridge: Bridge) =>
  queryOptions({ queryKey: appKeys.info, queryFn: () => unwrap(bridge['app.info']()), staleTime: Infinity });

/**
 * Health as main sees it for the profile the screen shows (its payment service's answers). Asked every
 * 15 s; an answer a few seconds old (app.bootstrap's, at start) serves a screen mounting.
 */
export const appHealthQuery = (bridge: Bridge, profileId?: string) =>
  queryOptions({
    queryKey: [...appKeys.health, profileId ?? null] as const,
    queryFn: () => unwrap(bridge['app.health'](profileId ? { profileId } : undefined)),
    refetchInterval: 15_000,
    staleTime: 5_000,
  });

/**
 * Asks main for health again now: after a lookup or a refund, main has just learnt how the service
 * answered, so a failure shows as Degraded at once (and a recovery clears it) instead of at the next poll.
 */
export function refreshHealth(client: QueryClient): Promise<void> {
  return client.invalidateQueries({ queryKey: appKeys.health });
}
