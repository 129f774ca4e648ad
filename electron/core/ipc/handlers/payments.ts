import { scopeProfileId } from '../../../../shared/ipc/contract/scope';
import type { PaymentsRuntime } from '../../services/payments/runtime';
import type { HandlerMap } from '../dispatcher';

type PaymentChannels =
  | 'customers.list'
  | 'customers.register'
  | 'payments.list'
  | 'payments.createCheckout'
  | 'payments.captureCard'
  | 'payments.chargeMethod'
  | 'payments.checkAgain'
  | 'payments.openPage'
  | 'payments.audit';

/** Thin: IPC shape → payments runtime call. Every check lives in the service. */
export function paymentHandlers(payments: PaymentsRuntime): Pick<HandlerMap, PaymentChannels> {
  const { service, views } = payments;
  return {
    'customers.list': (input) => payments.customers(scopeProfileId(input)),
    'customers.register': ({ profileId, customer }) => payments.register(profileId, customer),
    'payments.list': (input) => payments.payments(scopeProfileId(input)),
    'payments.createCheckout': async (input) => views.payment(await service.createCheckout(input)),
    'payments.captureCard': async (input) => views.payment(await service.captureCard(input)),
    'payments.chargeMethod': async (input) => views.payment(await service.chargeMethod(input)),
    'payments.checkAgain': async ({ profileId, id }) =>
      views.payment(await service.checkAgain(profileId, id)),
    'payments.openPage': ({ profileId, id, page }) => payments.openPage(profileId, id, page),
    'payments.audit': (input) => service.audit(scopeProfileId(input)),
  };
}
