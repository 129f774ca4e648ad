import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { Input, Output } from '../../../../shared/ipc/contract';
import { unwrap, useBridge } from '../../lib/bridge';
import { teamRunsKeys } from './report-parts';

export type ExceptionsData = Output<'reconciliation.exceptions'>;

export const exceptionKeys = {
  run: (profileId: string, runId: string) => ['reconciliation', 'exceptions', profileId, runId] as const,
};
/** The run's close history (./CloseHistory.tsx), read again after every change. */
export const auditKeys = {
  run: (profileId: string, runId: string) => ['reconciliation', 'audit', profileId, runId] as const,
};

/**
 * A run's exceptions as main keeps them (every one; the worklist filters on screen), its sign-off and
 * the content hash computed again. Every change goes through main, which re-checks it, and the list is
 * read again after it: what is shown is what is stored.
 */
export function useExceptions(profileId: string, runId: string) {
  const bridge = useBridge();
  const client = useQueryClient();
  const key = exceptionKeys.run(profileId, runId);
  const list = useQuery({
    queryKey: key,
    queryFn: () => unwrap(bridge['reconciliation.exceptions']({ profileId, runId })),
  });
  const refresh = () =>
    Promise.all([
      client.invalidateQueries({ queryKey: key }),
      client.invalidateQueries({ queryKey: auditKeys.run(profileId, runId) }),
      // A signed run leaves the team's list of runs awaiting sign-off.
      client.invalidateQueries({ queryKey: teamRunsKeys.all }),
    ]);
  const update = useMutation({
    mutationFn: (input: Omit<Input<'reconciliation.updateException'>, 'profileId' | 'runId'>) =>
      unwrap(bridge['reconciliation.updateException']({ profileId, runId, ...input })),
    onSettled: refresh,
  });
  const match = useMutation({
    mutationFn: (input: Omit<Input<'reconciliation.matchException'>, 'profileId' | 'runId'>) =>
      unwrap(bridge['reconciliation.matchException']({ profileId, runId, ...input })),
    onSettled: refresh,
  });
  const signOff = useMutation({
    mutationFn: (input: Omit<Input<'reconciliation.signOff'>, 'profileId' | 'runId'>) =>
      unwrap(bridge['reconciliation.signOff']({ profileId, runId, ...input })),
    onSettled: refresh,
  });
  return { list, update, match, signOff };
}
