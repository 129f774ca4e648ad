import { paymentStoreOn } from '../../../electron/core/services/payments/store';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Transaction } from '../../../shared/domain/transaction';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { outcomeUnknown, rejectionError } from '../../../electron/core/services/gateway/errors';
import type { PaymentGateway } from '../../../electron/core/services/payments/follow';
import type { PaymentIntent } from '../../../electron/core/services/payments/intent';
import { createPaymentService, type PaymentContext } from '../../../electron/core/services/payments/service';
import { createFakeClock } from '../../fakes/clock';
import { createFakeLogger } from '../../fakes/logger';

const CARD = { number: '4242424242424242', expMonth: '12', expYear: '2031', cvv: '7391' };

const ctx = (over: Partial<PaymentContext> = {}): PaymentContext => ({
  profileId: 'p1',
  profileName: 'Main',
  environment: 'vendor-sandbox',
  baseUrl: 'https://mapi.yuansferdev.com',
  moneyMode: 'test',
  merchantNo: '200043',
  storeNo: '300014',
  operator: 'Ana',
  guardrails: { limits: [] },
  ipnUrl: 'http://127.0.0.1:9/ipn/p1',
  ...over,
});

const tx = (over: Partial<Transaction> = {}): Transaction => ({
  transactionNo: '300000000000000001',
  reference: 'R1',
  amountMinor: 2500,
  currency: 'USD' as const,
  status: 'init',
  transactionType: 'payment',
  refunds: [],
  ...over,
});

function build(gw: Partial<PaymentGateway>, context = ctx()) {
  const storage = openAppStorage({
    dataDir: mkdtempSync(join(tmpdir(), 'rd-pay-unit-')),
    now: Date.now,
    log: createFakeLogger(),
  });
  const clock = createFakeClock();
  const changes: PaymentIntent[] = [];
  const txs: { source: string; tx: Transaction }[] = [];
  let n = 0;
  const notCalled = () => {
    throw new Error('not expected in this test');
  };
  const service = createPaymentService({
    gatewayFor: () => ({
      createCustomer: notCalled,
      securePay: notCalled,
      capture: notCalled,
      queryTransaction: notCalled,
      ...gw,
    }),
    store: paymentStoreOn(storage.intents, storage.customers),
    clock,
    log: createFakeLogger(),
    newId: (prefix) => `${prefix}${(n += 1)}`,
    sender: 'host:1',
    context: (id) => {
      if (id !== context.profileId) throw new AppError('not_found', 'That profile no longer exists.');
      return context;
    },
    onPayment: (i) => changes.push(i),
    onTransaction: (_i, t, source) => txs.push({ source, tx: t }),
  });
  return { service, storage, clock, changes, txs };
}

const link = (over: Record<string, unknown> = {}) => ({
  profileId: 'p1',
  kind: 'link' as const,
  amountMinor: 2500,
  currency: 'USD' as const,
  settleCurrency: 'USD' as const,
  vendor: 'alipay',
  reference: 'R1',
  goods: [],
  timeoutMin: 30,
  callbackUrl: 'https://shop.example/thanks?r={reference}',
  ...over,
});

describe('payment creation', () => {
  it('journals the intent as sending before the request leaves, then records the answer', async () => {
    let seenAtSend: string | undefined;
    const { service, storage, txs } = build({
      securePay: async (input) => {
        seenAtSend = (await paymentStoreOn(storage.intents, storage.customers).list('p1')).find(
          (i) => i.reference === input.reference,
        )?.state;
        return { transactionNo: '300000000000000001', cashierUrl: 'https://pay.example/c/1' };
      },
    });
    const p = await service.createCheckout(link());
    expect(seenAtSend).toBe('sending');
    expect(p).toMatchObject({ state: 'open', paymentStatus: 'init', cashierUrl: 'https://pay.example/c/1' });
    expect(txs).toEqual([
      { source: 'created', tx: expect.objectContaining({ status: 'init', reference: 'R1' }) },
    ]);
    expect((await paymentStoreOn(storage.intents, storage.customers).audit.list())[0]).toMatchObject({
      action: 'payment.link',
      outcome: 'created',
    });
  });

  it('a timeout is resolved by querying the reference: not found stays unknown, and after ten minutes is not created', async () => {
    let sent = 0;
    const { service, storage, clock } = build({
      securePay: async () => {
        sent += 1;
        throw outcomeUnknown('securePay', 'no answer in time', {});
      },
      queryTransaction: async (key) => {
        expect(key).toEqual({ reference: 'R1' });
        throw rejectionError('tranQuery', '000021', 'no record');
      },
    });
    const p = await service.createCheckout(link());
    expect(p.state).toBe('outcome_unknown');
    expect(p.lastCheck).toMatchObject({
      found: false,
      note: expect.stringMatching(/No payment with reference R1/),
    });
    clock.advance(11 * 60_000);
    const later = await service.checkAgain(p.profileId, p.id);
    expect(later.state).toBe('not_created');
    expect(sent).toBe(1);
    expect(
      (await paymentStoreOn(storage.intents, storage.customers).audit.list()).map((a) => a.outcome),
    ).toEqual(expect.arrayContaining(['outcome_unknown', 'not_created']));
  });

  it('a timeout whose payment exists is adopted as created (never sent again)', async () => {
    let sent = 0;
    const { service } = build({
      securePay: async () => {
        sent += 1;
        throw outcomeUnknown('securePay', 'the connection dropped', {});
      },
      queryTransaction: async () => ({ transaction: tx() }),
    });
    const p = await service.createCheckout(link());
    expect(p).toMatchObject({ state: 'open', transactionNo: '300000000000000001' });
    expect(sent).toBe(1);
  });

  it('000000 / 000080 (the service failed, not refused) are looked up by reference like a lost answer', async () => {
    const { service } = build({
      securePay: async () => {
        throw rejectionError('securePay', '000000', 'system error');
      },
      queryTransaction: async () => ({ transaction: tx({ status: 'init' }) }),
    });
    const p = await service.createCheckout(link());
    expect(p).toMatchObject({ state: 'open', retCode: '000000', transactionNo: '300000000000000001' });
  });

  it('a payment with our reference but another amount is not ours', async () => {
    const { service } = build({
      securePay: async () => {
        throw outcomeUnknown('securePay', 'no answer in time', {});
      },
      queryTransaction: async () => ({ transaction: tx({ amountMinor: 99 }) }),
    });
    const p = await service.createCheckout(link());
    expect(p.state).toBe('outcome_unknown');
    expect(p.lastCheck?.note).toMatch(/not this one/);
  });

  it('a rejection keeps the service’s words; the same reference may be sent again, a created one may not', async () => {
    let calls = 0;
    const { service } = build({
      securePay: async () => {
        calls += 1;
        if (calls === 1) throw rejectionError('securePay', '000023', 'amount is not valid');
        return { transactionNo: '300000000000000001', cashierUrl: 'https://pay.example/c/1' };
      },
    });
    const rejected = await service.createCheckout(link());
    expect(rejected).toMatchObject({ state: 'rejected', retCode: '000023', retMsg: 'amount is not valid' });
    expect((await service.createCheckout(link())).state).toBe('open');
    await expect(service.createCheckout(link())).rejects.toMatchObject({
      code: 'conflict',
      details: { moneyMoved: 'no', fields: { reference: expect.any(String) } },
    });
    expect(calls).toBe(2);
  });

  it('refuses before anything is recorded: unknown profile, wrong currency, no notification address', async () => {
    const { service, storage } = build({}, ctx({ ipnUrl: undefined }));
    await expect(service.createCheckout(link({ profileId: 'p2' }))).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(
      service.createCheckout(link({ vendor: 'paypal', currency: 'CNY' as const })),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      details: { fields: { currency: expect.stringMatching(/PayPal takes USD/) } },
    });
    await expect(service.createCheckout(link())).rejects.toMatchObject({
      details: { fields: { ipnUrl: expect.any(String) } },
    });
    await expect(service.createCheckout(link({ ipnUrl: 'http://shop.example/ipn' }))).rejects.toMatchObject({
      details: { fields: { ipnUrl: expect.any(String) } },
    });
    expect(await paymentStoreOn(storage.intents, storage.customers).list('p1')).toHaveLength(0);
    expect(
      (await paymentStoreOn(storage.intents, storage.customers).audit.list()).every(
        (a) => a.outcome === 'refused',
      ),
    ).toBe(true);
  });
});

describe('card capture', () => {
  const capture = (over: Record<string, unknown> = {}) => ({
    profileId: 'p1',
    amountMinor: 4200,
    currency: 'USD' as const,
    reference: 'C1',
    saveCard: false,
    card: { ...CARD },
    ...over,
  });

  it('sends the card once, keeps only its last four, and drops the caller’s reference to it', async () => {
    let sentCard: unknown;
    const { service, storage } = build({
      capture: async (input) => {
        sentCard = input.card;
        return {
          transactionNo: '300000000000000002',
          status: 'success',
          paymentTime: '2026-01-15T04:00:00Z',
        };
      },
    });
    const input = capture();
    const p = await service.captureCard(input);
    expect(sentCard).toEqual({ number: CARD.number, expMonth: '12', expYear: '2031', cvv: '7391' });
    expect('card' in input).toBe(false);
    expect(p).toMatchObject({ state: 'succeeded', cardLast4: '4242', paidAt: '2026-01-15T04:00:00.000Z' });
    const everything = JSON.stringify([
      await paymentStoreOn(storage.intents, storage.customers).list('p1'),
      await paymentStoreOn(storage.intents, storage.customers).audit.list(),
    ]);
    expect(everything).not.toContain(CARD.number);
    expect(everything).not.toMatch(/\b7391\b/);
  });

  it('a service message that echoes the card is masked before it is kept', async () => {
    const { service } = build({
      capture: async () => {
        throw rejectionError('capture', '000023', `card ${CARD.number} cvv ${CARD.cvv} refused`);
      },
    });
    const p = await service.captureCard(capture());
    expect(p.state).toBe('rejected');
    expect(p.retMsg).toBe('card •••• 4242 cvv ••• refused');
    expect(p.detail).not.toContain(CARD.number);
  });

  it('live money needs the PCI acknowledgement; Save card needs a customer; nothing is sent otherwise', async () => {
    const { service } = build({}, ctx({ environment: 'production', moneyMode: 'live' }));
    await expect(service.captureCard(capture())).rejects.toMatchObject({
      code: 'invalid_input',
      details: { requires: ['pci_acknowledgement'] },
    });
    await expect(
      service.captureCard(capture({ pciAcknowledged: true, saveCard: true })),
    ).rejects.toMatchObject({
      details: { fields: { customerId: expect.any(String) } },
    });
  });

  it('an expired card is refused in main too', async () => {
    const { service } = build({});
    await expect(service.captureCard(capture({ card: { ...CARD, expYear: '2020' } }))).rejects.toBeInstanceOf(
      AppError,
    );
  });
});
