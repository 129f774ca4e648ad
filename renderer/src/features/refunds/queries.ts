import { queryOptions, useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { Bridge } from '../../../../shared/ipc/contract';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { unwrap, useBridge } from '../../lib/bridge';
import { upsertIntent } from './filters';

/** Query-key factory for refunds and the audit log. */
export const refundKeys = {
  all: ['refunds'] as const,
  list: ['refunds', 'list'] as const,
  preview: (transactionNo: string) => ['refunds', 'preview', transactionNo] as const,
  audit: ['audit', 'list'] as const,
};

/**
 * Fresh numbers for the dialog. Never served from cache: the remaining amount must come from a query
 * made when the dialog opens (main re-queries again right before sending).
 */
export const refundPreviewQuery = (bridge: Bridge, transactionNo: string) =>
  queryOptions({
    queryKey: refundKeys.preview(transactionNo),
    queryFn: () => unwrap(bridge['refunds.preview']({ transactionNo })),
    staleTime: 0,
    gcTime: 0,
  });

export const refundsListQuery = (bridge: Bridge) =>
  queryOptions({ queryKey: refundKeys.list, queryFn: () => unwrap(bridge['refunds.list']()) });

export const auditListQuery = (bridge: Bridge) =>
  queryOptions({ queryKey: refundKeys.audit, queryFn: () => unwrap(bridge['audit.list']()) });

/**
 * Keeps the refunds list live: every `refunds.updated` push is written into the cached list, and the
 * audit log is refetched because main appends to it on the same transitions. Mounted once (host).
 */
export function useRefundEvents(): void {
  const bridge = useBridge();
  const client = useQueryClient();
  useEffect(
    () =>
      bridge.on['refunds.updated']((intent: IntentView) => {
        client.setQueryData<IntentView[]>(refundKeys.list, (old) => (old ? upsertIntent(old, intent) : old));
        void client.invalidateQueries({ queryKey: refundKeys.list });
        void client.invalidateQueries({ queryKey: refundKeys.audit });
      }),
    [bridge, client],
  );
}
