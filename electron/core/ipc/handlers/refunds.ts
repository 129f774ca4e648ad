import { scopeProfileId } from '../../../../shared/ipc/contract/scope';
import type { RefundService } from '../../services/refunds/service';
import type { HandlerMap } from '../dispatcher';

type RefundChannels =
  | 'refunds.preview'
  | 'refunds.submit'
  | 'refunds.list'
  | 'refunds.checkAgain'
  | 'refunds.closeNotSent'
  | 'audit.list';

/** Thin: IPC shape → refund service call. All checks live in the service. */
export function refundHandlers(refunds: RefundService, now: () => number): Pick<HandlerMap, RefundChannels> {
  return {
    // The preview names the profile every figure was computed for (resolved once, in the service).
    'refunds.preview': async ({ profileId, transactionNo }) => ({
      ...(await refunds.preview(profileId, transactionNo)),
      fetchedAt: new Date(now()).toISOString(),
    }),
    'refunds.submit': (input) => refunds.submit(input),
    'refunds.list': (input) => refunds.list(scopeProfileId(input)),
    'refunds.checkAgain': ({ profileId, id }) => refunds.checkAgain(profileId, id),
    'refunds.closeNotSent': ({ profileId, id, confirmation }) =>
      refunds.closeNotSent(profileId, id, confirmation),
    'audit.list': (input) => refunds.audit(scopeProfileId(input)),
  };
}
