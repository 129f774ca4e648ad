import { useState } from 'react';
import type { ListScope } from '../../../../shared/ipc/contract/scope';
import { useActiveProfile } from './queries';

/**
 * Whose records a list shows: the active profile's by default, every profile's when the person ticks
 * "All profiles" (or when no profile is active). Shared by the Refunds list, the audit log and the
 * reconciliation runs, so each asks main the same way and shows the Profile column under the same rule.
 */
export function useListScope() {
  const { profile, isPending } = useActiveProfile();
  const [chosen, setAllProfiles] = useState(false);
  const allProfiles = chosen || !profile;
  const scope: ListScope = allProfiles || !profile ? { allProfiles: true } : { profileId: profile.id };
  // Until the profiles are known, "no active profile" is not yet true: lists wait instead of asking
  // for every profile's records and showing them for a moment.
  return { profile, allProfiles, scope, setAllProfiles, ready: !isPending };
}
export type ListScopeState = ReturnType<typeof useListScope>;
