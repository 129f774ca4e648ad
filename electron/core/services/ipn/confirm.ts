import { isAppError } from '../../../../shared/domain/errors';
import type { EventBus } from '../event-bus';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { IpnEvent } from './events';

/**
 * Treats an IPN as a hint: confirms it with a signed tran-query of the payment (whose refundInfo also
 * carries refund statuses) and pushes what the service says — not what the IPN claimed — to the
 * renderer as `transactions.updated`.
 */
export function createIpnConfirmer(deps: {
  gatewayFor: (profileId: string) => Pick<GatewayClient, 'queryTransaction'>;
  events: EventBus;
  clock: Clock;
  log: Logger;
}) {
  const inFlight = new Set<Promise<void>>();
  const confirm = async (event: IpnEvent): Promise<void> => {
    try {
      const { transaction } = await deps
        .gatewayFor(event.profileId)
        .queryTransaction({ transactionNo: event.transactionNo });
      const matches =
        event.kind === 'payment'
          ? transaction.status === event.status
          : transaction.refunds.some(
              (r) => r.refundTransactionNo === event.refundTransactionNo && r.status === event.status,
            );
      if (!matches)
        deps.log.warn('ipn.unconfirmed', {
          profileId: event.profileId,
          kind: event.kind,
          transactionNo: event.transactionNo,
        });
      deps.events.emit('transactions.updated', {
        profileId: event.profileId,
        source: 'ipn',
        confirmed: matches,
        transaction,
        ...(event.refundTransactionNo ? { refundTransactionNo: event.refundTransactionNo } : {}),
        fetchedAt: new Date(deps.clock.now()).toISOString(),
      });
    } catch (e) {
      deps.log.warn('ipn.confirm_failed', {
        profileId: event.profileId,
        transactionNo: event.transactionNo,
        code: isAppError(e) ? e.code : 'internal',
      });
    }
  };
  return {
    /** Starts confirming in the background; never throws. */
    handle(event: IpnEvent): void {
      const p = confirm(event).finally(() => inFlight.delete(p));
      inFlight.add(p);
    },
    /** Resolves when every confirmation started so far has finished (tests, shutdown). */
    async idle(): Promise<void> {
      while (inFlight.size > 0) await Promise.all([...inFlight]);
    },
  };
}
