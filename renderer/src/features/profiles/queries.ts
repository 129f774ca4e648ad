import { queryOptions, useQuery, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Bridge, Output } from '../../../../shared/ipc/contract';
import { unwrap, useBridge } from '../../lib/bridge';

export type ProfilesList = Output<'profiles.list'>;
export type ProfileView = ProfilesList['profiles'][number];

/** The one profiles query: every screen reads the profiles (and which is active) through this key. */
export const profileKeys = {
  list: ['profiles', 'list'] as const,
};

/**
 * Fresh for a few seconds: the list app.bootstrap brought (app/warm-start.ts) serves the screens that
 * mount right after it without asking main again. Changes are pushed (profiles.changed invalidates it).
 */
export const profilesQuery = (bridge: Bridge) =>
  queryOptions({
    queryKey: profileKeys.list,
    queryFn: () => unwrap(bridge['profiles.list']()),
    staleTime: 5_000,
  });

/** The active profile (or null when none), refreshed when main says profiles changed. */
export function useActiveProfile() {
  const bridge = useBridge();
  const client = useQueryClient();
  const q = useQuery(profilesQuery(bridge));
  useEffect(
    () => bridge.on['profiles.changed'](() => void client.invalidateQueries({ queryKey: profileKeys.list })),
    [bridge, client],
  );
  const active = q.data?.profiles.find((p) => p.id === q.data?.activeProfileId) ?? null;
  return { profile: active, profiles: q.data?.profiles ?? [], isPending: q.isPending, error: q.error };
}
