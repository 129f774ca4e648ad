import { queryOptions } from '@tanstack/react-query';
import type { Bridge, Output } from '../../../../shared/ipc/contract';
import { unwrap } from '../../lib/bridge';

export type ProfilesList = Output<'profiles.list'>;
export type ProfileView = ProfilesList['profiles'][number];

/** Query-key factory for Settings. */
export const settingsKeys = {
  profiles: ['profiles', 'list'] as const,
};

export const profilesQuery = (bridge: Bridge) =>
  queryOptions({ queryKey: settingsKeys.profiles, queryFn: () => unwrap(bridge['profiles.list']()) });
