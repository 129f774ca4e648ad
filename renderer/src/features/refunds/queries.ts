import { type QueryClient, queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Bridge } from '../../../../shared/ipc/contract';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import type { ListScope } from '../../../../shared/ipc/contract/scope';
import { unwrap, useBridge } from '../../lib/bridge';
import { upsertNewest } from '../../lib/upsert';
import { approvalKeys } from './approvals/queries';

/** The part of a list's key that says whose records it holds. */
const scopeKey = (scope: ListScope) => ('profileId' in scope ? scope.profileId : '*all*');

/** Query-key factory for refunds and the audit log; every list is keyed by the profile it shows. */
export const refundKeys = {
  all: ['refunds'] as const,
  lists: ['refunds', 'list'] as const,
  list: (scope: ListScope) => ['refunds', 'list', scopeKey(scope)] as const,
  preview: (profileId: string, transactionNo: string) =>
    ['refunds', 'preview', profileId, transactionNo] as const,
  audits: ['audit', 'list'] as const,
  audit: (scope: ListScope) => ['audit', 'list', scopeKey(scope)] as const,
};

/**
 * Fresh numbers for the dialog, for the profile the dialog was opened for. Never served from cache: the
 * remaining amount must come from a query made when the dialog opens (main re-queries again right
 * before sending).
 */
export const refundPreviewQuery = (bridge: Bridge, profileId: string, transactionNo: string) =>
  queryOptions({
    queryKey: refundKeys.preview(profileId, transactionNo),
    queryFn: () => unwrap(bridge['refunds.preview']({ profileId, transactionNo })),
    staleTime: 0,
    gcTime: 0,
  });

/**
 * Fresh for a few seconds: the active profile's list app.bootstrap brought (app/warm-start.ts) serves the
 * landing list mounting right after it. Changes are pushed (refunds.updated → applyIntent invalidates).
 */
export const refundsListQuery = (bridge: Bridge, scope: ListScope) =>
  queryOptions({
    queryKey: refundKeys.list(scope),
    queryFn: () => unwrap(bridge['refunds.list'](scope)),
    staleTime: 5_000,
  });

export const auditListQuery = (bridge: Bridge, scope: ListScope) =>
  queryOptions({ queryKey: refundKeys.audit(scope), queryFn: () => unwrap(bridge['audit.list'](scope)) });

/**
 * Writes one changed intent into the lists already loaded (never creating one), then has every refunds
 * list, the audit log (and, for a request for approval, the open requests) re-read: main decides which profile's list an intent belongs to (a CLI refund
 * to this account counts too), so the re-read is what settles it.
 */
export function applyIntent(client: QueryClient, intent: IntentView): void {
  for (const [key] of client.getQueriesData<IntentView[]>({ queryKey: refundKeys.lists })) {
    const scope = key[2];
    if (scope === '*all*' || scope === intent.profileId)
      client.setQueryData<IntentView[]>(key, (old) => upsertNewest(old, intent));
  }
  void client.invalidateQueries({ queryKey: refundKeys.lists });
  void client.invalidateQueries({ queryKey: refundKeys.audits });
  // A request for approval changed (made, approved, sent, declined, on this desk or another): the open
  // requests are re-read, so every desk's Approvals view follows without a reload.
  if (intent.approval) void client.invalidateQueries({ queryKey: approvalKeys.lists });
}

/** Keeps the refunds lists live from `refunds.updated` pushes. Mounted once (host). */
export function useRefundEvents(): void {
  const bridge = useBridge();
  const client = useQueryClient();
  useEffect(
    () => bridge.on['refunds.updated']((intent: IntentView) => applyIntent(client, intent)),
    [bridge, client],
  );
}
