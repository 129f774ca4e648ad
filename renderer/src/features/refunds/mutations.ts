import { useMutation, useQueryClient } from '@tanstack/react-query';
import type { Input } from '../../../../shared/ipc/contract';
import { unwrap, useBridge } from '../../lib/bridge';
import { refreshHealth } from '../shell/queries';
import { applyIntent, refundKeys } from './queries';

/** refunds.submit. Main holds the per-transaction lock; the dialog also disables Submit while pending. */
export function useSubmitRefund() {
  const bridge = useBridge();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input<'refunds.submit'>) => unwrap(bridge['refunds.submit'](input)),
    onSuccess: (intent) => applyIntent(client, intent),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: refundKeys.lists });
      void client.invalidateQueries({ queryKey: refundKeys.audits });
      void refreshHealth(client);
    },
  });
}

/** refunds.checkAgain: asks the service whether an unresolved refund exists (never resends it). */
export function useCheckAgain() {
  const bridge = useBridge();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input<'refunds.checkAgain'>) => unwrap(bridge['refunds.checkAgain'](input)),
    onSuccess: (intent) => applyIntent(client, intent),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: refundKeys.lists });
      void client.invalidateQueries({ queryKey: refundKeys.audits });
      void refreshHealth(client);
    },
  });
}

/**
 * refunds.closeNotSent: closes an unknown refund the service never listed as not sent. Main decides
 * (enough checks over enough time, one more query first) and says why when it refuses.
 */
export function useCloseNotSent() {
  const bridge = useBridge();
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Input<'refunds.closeNotSent'>) => unwrap(bridge['refunds.closeNotSent'](input)),
    onSuccess: (intent) => applyIntent(client, intent),
    onSettled: () => {
      void client.invalidateQueries({ queryKey: refundKeys.lists });
      void client.invalidateQueries({ queryKey: refundKeys.audits });
      void refreshHealth(client);
    },
  });
}
