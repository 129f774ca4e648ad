import { queryOptions, useQuery } from '@tanstack/react-query';
import type { Bridge, Output } from '../../../../../shared/ipc/contract';
import { unwrap, useBridge } from '../../../lib/bridge';

/** Who this desk's person is in the team database (login, groups, limits). */
export type TeamPerson = Extract<Output<'approvals.whoAmI'>, { team: true }>;

/** Query-key factory for four-eyes (team database): refunds.updated of a request re-reads `lists`. */
export const approvalKeys = {
  all: ['approvals'] as const,
  whoAmI: ['approvals', 'whoAmI'] as const,
  lists: ['approvals', 'list'] as const,
  list: (profileId: string) => ['approvals', 'list', profileId] as const,
  approvers: (profileId: string, id: string) => ['approvals', 'approvers', profileId, id] as const,
};

/**
 * Who am I in the team database. A single desk answers `team: false` and stays so until it starts
 * again; a person's groups and limits change rarely (the administrator's command), so a minute is fresh.
 */
export const whoAmIQuery = (bridge: Bridge) =>
  queryOptions({
    queryKey: approvalKeys.whoAmI,
    queryFn: () => unwrap(bridge['approvals.whoAmI']()),
    staleTime: 60_000,
  });

/** This desk's person in the team database, or undefined on a single desk (and while not known). */
export function useTeamPerson(): TeamPerson | undefined {
  const me = useQuery(whoAmIQuery(useBridge())).data;
  return me?.team ? me : undefined;
}

/**
 * Open requests of the profile's account, oldest first. Kept live by refunds.updated (any desk's change
 * of a request reaches this one through the team database's change feed); re-read every 30 s as well,
 * because a request that expires on the server's clock changes without anyone writing it.
 */
export const approvalsListQuery = (bridge: Bridge, profileId: string) =>
  queryOptions({
    queryKey: approvalKeys.list(profileId),
    queryFn: () => unwrap(bridge['approvals.list']({ profileId })),
    refetchInterval: 30_000,
  });

/** Who may approve one request (other checkers whose limit covers it). */
export const approversQuery = (bridge: Bridge, profileId: string, id: string) =>
  queryOptions({
    queryKey: approvalKeys.approvers(profileId, id),
    queryFn: () => unwrap(bridge['approvals.approvers']({ profileId, id })),
    staleTime: 60_000,
  });

/**
 * Refund batches of the profile's account waiting for a checker (team mode), newest first. Under
 * `lists`, so whatever re-reads the requests re-reads these; every 30 s too, as a batch past its expiry
 * is marked expired by the database when it is read.
 */
export const waitingBatchesQuery = (bridge: Bridge, profileId: string) =>
  queryOptions({
    queryKey: [...approvalKeys.list(profileId), 'batches'] as const,
    queryFn: () => unwrap(bridge['refunds.batchList']({ profileId, awaitingApproval: true, limit: 100 })),
    refetchInterval: 30_000,
  });
