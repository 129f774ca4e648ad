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
export function refundHandlers(
  refunds: RefundService,
  ctx: () => { profileId: string; profileName: string; operator: string },
  now: () => number,
): Pick<HandlerMap, RefundChannels> {
  return {
    'refunds.preview': async ({ transactionNo }) => {
      const p = await refunds.preview(transactionNo);
      const c = ctx();
      return {
        ...p,
        profileId: c.profileId,
        profileName: c.profileName,
        operator: c.operator,
        fetchedAt: new Date(now()).toISOString(),
      };
    },
    'refunds.submit': (input) => refunds.submit(input),
    'refunds.list': () => refunds.list(),
    'refunds.checkAgain': ({ id }) => refunds.checkAgain(id),
    'refunds.closeNotSent': ({ id, confirmation }) => refunds.closeNotSent(id, confirmation),
    'audit.list': () => refunds.audit(),
  };
}
