import { cardLabel, maskVaultId } from '../../../../shared/domain/card';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import type { PaymentIntent } from './intent';
import type { CustomerRecord, PaymentStore, StoredMethod } from './store';

/**
 * What the renderer may see of payments and customers. Built field by field (events are not filtered by
 * the contract): no vaultId (only masked), no card data beyond the last four, no service address. A
 * whitelabel payment's SDK data comes from memory (`sdkDataFor`): it is never stored.
 */
export function createViews(
  store: PaymentStore,
  sdkDataFor: (paymentId: string) => string | undefined = () => undefined,
) {
  const methodLabel = (m: StoredMethod) => `${cardLabel(m.cardLast4)} (${maskVaultId(m.vaultId)})`;

  function payment(i: PaymentIntent): PaymentView {
    const customer = i.customerId ? store.customers.get(i.customerId) : undefined;
    const methodId = i.methodId ?? i.savedMethodId;
    const method = methodId ? store.methods.get(methodId) : undefined;
    const expires =
      (i.kind === 'link' || i.kind === 'whitelabel') && i.timeoutMin
        ? new Date(Date.parse(i.createdAt) + i.timeoutMin * 60_000).toISOString()
        : undefined;
    const opt = <K extends keyof PaymentView>(key: K, value: PaymentView[K] | undefined) =>
      value === undefined || value === '' ? {} : { [key]: value };
    return {
      id: i.id,
      kind: i.kind,
      state: i.state,
      profileId: i.profileId,
      profileName: i.profileName,
      environment: i.environment,
      operator: i.operator,
      reference: i.reference,
      amountMinor: i.amountMinor,
      currency: i.currency,
      settleCurrency: i.settleCurrency,
      vendor: i.vendor,
      goods: i.goods.map((g) => ({ name: g.name, quantity: g.quantity })),
      saveCard: i.saveCard,
      methodSaved: Boolean(i.savedMethodId),
      createdAt: i.createdAt,
      updatedAt: i.updatedAt,
      ...opt('description', i.description),
      ...opt('note', i.note),
      ...opt('timeoutMin', i.timeoutMin),
      ...opt('expiresAt', expires),
      ...opt('customerId', i.customerId),
      ...opt('customerNo', i.customerNo),
      ...opt('customerName', customer ? `${customer.firstName} ${customer.lastName}` : undefined),
      ...opt('methodId', i.methodId),
      ...opt('methodLabel', method ? methodLabel(method) : undefined),
      ...opt('cardLast4', i.cardLast4),
      ...opt('transactionNo', i.transactionNo),
      ...opt('paymentStatus', i.paymentStatus),
      ...opt('cashierUrl', i.cashierUrl),
      ...opt('sdkAuthorization', sdkDataFor(i.id)),
      ...opt('authUrl', i.authUrl),
      ...opt('retCode', i.retCode),
      ...opt('retMsg', i.retMsg),
      ...opt('detail', i.detail),
      ...opt('lastCheck', i.lastCheck ? { ...i.lastCheck } : undefined),
      ...opt('paidAt', i.paidAt),
    };
  }

  function customer(c: CustomerRecord): CustomerView {
    return {
      id: c.id,
      profileId: c.profileId,
      customerNo: c.customerNo,
      ...(c.customerCode ? { customerCode: c.customerCode } : {}),
      firstName: c.firstName,
      lastName: c.lastName,
      email: c.email,
      countryCode: c.countryCode,
      ...(c.state ? { state: c.state } : {}),
      createdAt: c.createdAt,
      operator: c.operator,
      methods: store.methods.forCustomer(c.id).map((m) => ({
        id: m.id,
        vendor: m.vendor,
        label: cardLabel(m.cardLast4),
        vaultMasked: maskVaultId(m.vaultId),
        createdAt: m.createdAt,
      })),
    };
  }

  return { payment, customer, methodLabel };
}
