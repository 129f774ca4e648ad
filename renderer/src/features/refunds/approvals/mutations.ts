import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Input } from '../../../../../shared/ipc/contract';
import { unwrap, useBridge } from '../../../lib/bridge';
import { refreshHealth } from '../../shell/queries';
import { applyIntent } from '../queries';
import { approvalKeys } from './queries';

/**
 * approvals.approveAndSend: approve another person's request and send it in one action. Main takes a
 * fresh query, the same confirmations as a refund, and the database decides who may.
 */
export function useApproveAndSend() {
  const bridge = useBridge();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input<'approvals.approveAndSend'>) =>
      unwrap(bridge['approvals.approveAndSend'](input)),
    onSuccess: (intent) => applyIntent(client, intent),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: approvalKeys.lists });
      void refreshHealth(client);
    },
  });
}

/** approvals.reject (a checker) or approvals.cancel (its requester), with the required comment. */
export function useCloseRequest(how: 'reject' | 'cancel') {
  const bridge = useBridge();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input<'approvals.reject'>) =>
      unwrap(how === 'reject' ? bridge['approvals.reject'](input) : bridge['approvals.cancel'](input)),
    onSuccess: (intent) => applyIntent(client, intent),
    onSettled: () => void client.invalidateQueries({ queryKey: approvalKeys.lists }),
  });
}
