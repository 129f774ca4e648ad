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

/**
 * A batch awaiting approval: approved as a whole and run on this desk (refunds.batchApprove), rejected
 * with a comment by a checker (refunds.batchReject), or cancelled by its starter (refunds.batchCancel).
 * The database decides who may; the list re-reads either way.
 */
export function useBatchDecision() {
  const bridge = useBridge();
  const client = useQueryClient();
  const settled = () => void client.invalidateQueries({ queryKey: approvalKeys.lists });
  return {
    approve: useMutation({
      mutationFn: (input: Input<'refunds.batchApprove'>) => unwrap(bridge['refunds.batchApprove'](input)),
      onSettled: settled,
    }),
    reject: useMutation({
      mutationFn: (input: Input<'refunds.batchReject'>) => unwrap(bridge['refunds.batchReject'](input)),
      onSettled: settled,
    }),
    cancel: useMutation({
      mutationFn: (input: Input<'refunds.batchCancel'>) => unwrap(bridge['refunds.batchCancel'](input)),
      onSettled: settled,
    }),
  };
}
