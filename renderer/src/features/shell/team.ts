import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bridge, Output } from '../../../../shared/ipc/contract';
import { unwrap, useBridge } from '../../lib/bridge';

export type TeamStatus = Output<'team.status'>;

export const teamKeys = {
  status: ['team', 'status'] as const,
  settings: ['team', 'settings'] as const,
};

/**
 * The desk's team state (who, which desk, read-only since when). A desk on the team database asks every
 * 2 s (an in-memory answer of main), so the banner comes and goes by itself; a single desk asks once —
 * it becomes a team desk only by starting again.
 */
export const teamStatusQuery = (bridge: Bridge) =>
  queryOptions({
    queryKey: teamKeys.status,
    queryFn: () => unwrap(bridge['team.status']()),
    refetchInterval: (q) => (q.state.data?.mode === 'team' ? 2_000 : false),
    refetchIntervalInBackground: true,
    // A single desk's answer holds until it starts again (app.bootstrap brought it).
    staleTime: (q) => (q.state.data?.mode === 'team' ? 1_000 : Infinity),
  });

export function useTeamStatus(): TeamStatus | undefined {
  return useQuery(teamStatusQuery(useBridge())).data;
}

/** Why refunds (and approvals) are refused on this desk now, or undefined when they may be made. */
export function useTeamReadOnly(): string | undefined {
  const s = useTeamStatus();
  return s?.readOnly ? readOnlyWords(s.readOnly.reason) : undefined;
}

/** The short reason a disabled Refund… button gives. */
export function readOnlyWords(reason: string): string {
  return `Refunds are refused while this desk is read-only: ${reason}`;
}
