import { scopeProfileId } from '../../../../shared/ipc/contract/scope';
import type { RefundService } from '../../services/refunds/service';
import type { HandlerMap } from '../dispatcher';

type RefundChannels =
  | 'refunds.preview'
  | 'refunds.submit'
  | 'refunds.list'
  | 'refunds.checkAgain'
  | 'refunds.closeNotSent'
  | 'audit.list'
  | 'approvals.list'
  | 'approvals.approveAndSend'
  | 'approvals.reject'
  | 'approvals.cancel'
  | 'approvals.whoAmI'
  | 'approvals.approvers';

/** Thin: IPC shape → refund service call. All checks live in the service. */
export function refundHandlers(refunds: RefundService, now: () => number): Pick<HandlerMap, RefundChannels> {
  return {
    // The preview names the profile every figure was computed for (resolved once, in the service).
    'refunds.preview': async ({ profileId, transactionNo }) => ({
      ...(await refunds.preview(profileId, transactionNo)),
      fetchedAt: new Date(now()).toISOString(),
    }),
    // Intents go out as a person sees them: with when one may be closed, or who closed it.
    'refunds.submit': async (input) => await refunds.view(await refunds.submit(input)),
    'refunds.list': async (input) => await refunds.views(await refunds.list(scopeProfileId(input))),
    'refunds.checkAgain': async ({ profileId, id }) =>
      await refunds.view(await refunds.checkAgain(profileId, id)),
    'refunds.closeNotSent': async ({ profileId, id, confirmation }) =>
      await refunds.view(await refunds.closeNotSent(profileId, id, confirmation)),
    'audit.list': (input) => refunds.audit(scopeProfileId(input)),
    // Four-eyes (team database): every rule is the service's and the database's.
    'approvals.list': async ({ profileId }) => await refunds.views(await refunds.openRequests(profileId)),
    'approvals.approveAndSend': async (input) => await refunds.view(await refunds.approveAndSend(input)),
    'approvals.reject': async ({ profileId, id, comment }) =>
      await refunds.view(await refunds.reject(profileId, id, comment)),
    'approvals.cancel': async ({ profileId, id, comment }) =>
      await refunds.view(await refunds.cancel(profileId, id, comment)),
    'approvals.whoAmI': () => refunds.whoAmI(),
    'approvals.approvers': async ({ profileId, id }) => ({ logins: await refunds.approvers(profileId, id) }),
  };
}
