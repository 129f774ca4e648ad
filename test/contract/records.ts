import type { IntentRecord, PaymentKey } from '../../electron/core/services/engine/port';

export const payment = (transactionNo: string): PaymentKey => ({
  environment: 'demo',
  merchantNo: '200043',
  storeNo: '300014',
  transactionNo,
});

/** A refund record as the engine would insert it, `sending`. */
export function record(id: string, transactionNo: string, over: Partial<IntentRecord> = {}): IntentRecord {
  const at = over.createdAt ?? new Date().toISOString();
  return {
    id,
    kind: 'refund',
    state: 'sending',
    profileId: 'p',
    profileName: 'P',
    environment: 'demo',
    baseUrl: '',
    merchantNo: '200043',
    storeNo: '300014',
    transactionNo,
    amountMinor: 100,
    currency: 'USD',
    settleCurrency: 'USD',
    operator: 'contract',
    createdAt: at,
    updatedAt: at,
    checks: 0,
    attempts: 1,
    data: { reasonCode: 'other' },
    ...over,
  };
}
