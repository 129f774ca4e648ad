import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { withProfile } from '../../fakes/scope';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { createLogger } from '../../../electron/core/adapters/logger';
import type { AppCore } from '../../../electron/core/compose';
import { CARD_3DS, CARD_DECLINED, CARD_SUCCESS } from '../../../electron/sandbox/cards';
import type { CustomerView, PaymentView } from '../../../shared/ipc/contract/payments';
import { filesUnder, scanForCard } from './card-scan';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { paymentStoreOn } from '../../../electron/core/services/payments/store';
import { createFakeLogger } from '../../fakes/logger';

const CVV = '7391';
const lines: string[] = [];
const events: { event: string; payload: unknown }[] = [];
let core: AppCore;
let dataDir: string;
let profileId: string;

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rd-payments-'));
  core = await createNodeCore({
    host: 'browser',
    dataDir,
    log: createLogger({ file: join(dataDir, 'logs', 'browser.jsonl'), sink: (l) => lines.push(l) }),
    demo: { transactions: 40, ipnSchedule: [20], refundSettleMs: 30 },
  });
  core.events.subscribe((event, payload) => events.push({ event, payload }));
  profileId = core.profiles.profiles.active()!.id;
});
afterAll(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Calls are for the active profile, as the renderer's are. */
const activeId = () => core.profiles.profiles.active()?.id ?? 'none';
async function call<T>(channel: string, input?: unknown): Promise<T> {
  const r = await core.dispatch(channel, withProfile(channel, input, activeId()));
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}
async function fail(channel: string, input?: unknown) {
  const r = await core.dispatch(channel, withProfile(channel, input, activeId()));
  if (r.ok) throw new Error(`${channel} unexpectedly succeeded`);
  return r.error;
}
const until = async <T>(get: () => T | undefined | Promise<T | undefined>, ms = 8_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};
const payment = async (id: string) => (await call<PaymentView[]>('payments.list')).find((p) => p.id === id);
const sandbox = () => core.demoSandbox()!;
let n = 0;
const ref = () => `IT-${Date.now().toString(36)}-${(n += 1)}`;
const checkout = (over: Record<string, unknown> = {}) => ({
  profileId,
  kind: 'link',
  amountMinor: 2500,
  currency: 'USD',
  settleCurrency: 'USD',
  vendor: 'alipay',
  reference: ref(),
  description: 'Phone order',
  goods: [{ name: 'Blue mug', quantity: 2 }],
  timeoutMin: 30,
  ...over,
});
const card = (number: string) => ({ number, expMonth: '12', expYear: '2031', cvv: CVV });

let customer: CustomerView;

describe('back-office payments through the composed core and the Demo sandbox', () => {
  it('registers a customer after field checks, keeping only what finds them again', async () => {
    const bad = await fail('customers.register', {
      profileId,
      customer: { firstName: 'Ana', lastName: 'Lima', email: 'ana@', countryCode: 'US' },
    });
    expect(bad.code).toBe('invalid_input');
    const paths = (bad.details?.['issues'] as { path: string }[]).map((i) => i.path);
    expect(paths).toEqual(expect.arrayContaining(['customer.email', 'customer.state']));

    customer = await call<CustomerView>('customers.register', {
      profileId,
      customer: {
        firstName: 'Ana',
        lastName: 'Lima',
        email: 'ana@example.com',
        countryCode: 'us',
        state: 'ca',
        phone: '+1 415 555 0100',
        dateOfBirth: '1990-04-01',
        customerCode: 'C-1001',
      },
    });
    expect(customer).toMatchObject({ countryCode: 'US', state: 'CA', customerCode: 'C-1001', methods: [] });
    expect(customer.customerNo).toMatch(/^\d{22}$/);
    expect((await call<CustomerView[]>('customers.list')).map((c) => c.id)).toContain(customer.id);
    expect((await call<{ action: string; outcome: string }[]>('payments.audit'))[0]).toMatchObject({
      action: 'customer.register',
      outcome: 'registered',
    });
  });

  it('creates a payment link, which enters the cache as pending and turns successful by IPN', async () => {
    const link = await call<PaymentView>('payments.createCheckout', checkout({ customerId: customer.id }));
    expect(link).toMatchObject({ state: 'open', paymentStatus: 'init', customerName: 'Ana Lima' });
    expect(link.cashierUrl).toMatch(/\/checkout\/[0-9a-f]{32}$/);
    expect(link.expiresAt).toBeDefined();
    const created = events.find(
      (e) => e.event === 'transactions.updated' && (e.payload as { source: string }).source === 'created',
    )?.payload as { transaction: { transactionNo: string; status: string } };
    expect(created.transaction).toMatchObject({ transactionNo: link.transactionNo, status: 'init' });

    const res = await fetch(`${link.cashierUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    const done = await until(async () => {
      const p = await payment(link.id);
      return p?.state === 'succeeded' ? p : undefined;
    });
    expect(done).toMatchObject({ paymentStatus: 'success', transactionNo: link.transactionNo });
    expect(done.paidAt).toBeDefined();
  });

  it('refuses what the service would refuse, before anything is recorded or sent', async () => {
    const before = sandbox().state.counts().payments;
    const e1 = await fail('payments.createCheckout', checkout({ vendor: 'wechatpay', currency: 'GBP' }));
    expect(e1).toMatchObject({
      code: 'invalid_input',
      details: { fields: { currency: expect.any(String) } },
    });
    const e2 = await fail('payments.createCheckout', checkout({ kind: 'whitelabel', vendor: 'alipay' }));
    expect(e2.message).toMatch(/Whitelabel checkout is offered only for/);
    // A call names its profile; one that does not exist is refused before anything is recorded.
    const e3 = await fail('payments.createCheckout', checkout({ profileId: 'another' }));
    expect(e3.code).toBe('not_found');
    expect(sandbox().state.counts().payments).toBe(before);
  });

  it('a reused reference is refused locally; one used at the service shows the service’s answer', async () => {
    const first = await call<PaymentView>('payments.createCheckout', checkout());
    const again = await fail('payments.createCheckout', checkout({ reference: first.reference }));
    expect(again).toMatchObject({ code: 'conflict', details: { fields: { reference: expect.any(String) } } });
    const seeded = sandbox()
      .state.snapshot()
      .payments.find((p) => p.merchantNo === '200043')!;
    const taken = await call<PaymentView>(
      'payments.createCheckout',
      checkout({ reference: seeded.reference }),
    );
    expect(taken).toMatchObject({ state: 'rejected', retCode: '000022' });
    expect(taken.retMsg).toMatch(/already used/);
  });

  it('whitelabel: returns the SDK initialization data and is followed to its final status', async () => {
    const wl = await call<PaymentView>(
      'payments.createCheckout',
      checkout({ kind: 'whitelabel', vendor: 'paypal' }),
    );
    expect(wl.state).toBe('open');
    expect(wl.cashierUrl).toBeUndefined();
    const sdk = JSON.parse(Buffer.from(wl.sdkAuthorization!, 'base64').toString('utf8')) as {
      transactionNo: string;
    };
    expect(sdk.transactionNo).toBe(wl.transactionNo);
    // It holds the vendor's client token: shown, never stored.
    const db = ['refund-desk.db', 'refund-desk.db-wal']
      .map((f) => join(dataDir, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'))
      .join('');
    expect(db).toContain(wl.reference);
    expect(db).not.toContain(wl.sdkAuthorization!);
    expect(sandbox().completePayment(wl.transactionNo!, 'success')).toBe(true);
    await until(async () => (await payment(wl.id))?.state === 'succeeded');
  });

  it('card with 3-D Secure and Save card: pending, then successful, and the method is on the customer', async () => {
    const p = await call<PaymentView>('payments.captureCard', {
      profileId,
      amountMinor: 4200,
      currency: 'USD',
      reference: ref(),
      customerId: customer.id,
      saveCard: true,
      card: card(CARD_3DS.replace(/(\d{4})/g, '$1 ').trim()),
    });
    expect(p).toMatchObject({ state: 'open', paymentStatus: 'pending', cardLast4: '3220', saveCard: true });
    expect(p.authUrl).toMatch(/\/3ds\/[0-9a-f]{32}$/);
    const res = await fetch(`${p.authUrl}/approve`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBeLessThan(400);
    const done = await until(async () => {
      const x = await payment(p.id);
      return x?.state === 'succeeded' && x.methodSaved ? x : undefined;
    });
    expect(done.methodLabel).toMatch(/^Card •••• 3220 \(pp_…[0-9a-f]{4}\)$/);
    const withMethod = (await call<CustomerView[]>('customers.list')).find((c) => c.id === customer.id)!;
    expect(withMethod.methods).toHaveLength(1);
    expect(withMethod.methods[0]!.vaultMasked).toMatch(/^pp_…[0-9a-f]{4}$/);
    customer = withMethod;
  });

  it('charges the stored method, with the amount typed again above the profile limit', async () => {
    const methodId = customer.methods[0]!.id;
    const p = core.profiles.profiles.active()!;
    await core.profiles.profiles.save({
      id: p.id,
      name: p.name,
      environment: p.environment,
      merchantNo: p.merchantNo,
      storeNo: p.storeNo,
      ipnEnabled: p.ipnEnabled,
      guardrails: { limits: [{ currency: 'USD', maxSingleMinor: 1000 }] },
    });
    const base = { profileId, methodId, currency: 'USD', confirmation: {} };
    const small = await call<PaymentView>('payments.chargeMethod', {
      ...base,
      amountMinor: 999,
      reference: ref(),
    });
    expect(small).toMatchObject({ state: 'succeeded', kind: 'charge', customerNo: customer.customerNo });
    const needs = await fail('payments.chargeMethod', { ...base, amountMinor: 1500, reference: ref() });
    expect(needs).toMatchObject({ code: 'invalid_input', details: { requires: ['typed_amount'] } });
    const typed = await call<PaymentView>('payments.chargeMethod', {
      ...base,
      amountMinor: 1500,
      reference: ref(),
      confirmation: { typedAmount: '15.00' },
    });
    expect(typed.state).toBe('succeeded');
    // Refundable through the refund flow like any payment.
    const intent = await call<{ state: string }>('refunds.submit', {
      transactionNo: typed.transactionNo,
      amountMinor: 500,
      currency: 'USD',
      reasonCode: 'customer_request',
      reasonNote: '',
      confirmation: {},
    });
    expect(intent.state).toBe('accepted');
  });

  it('a declined card (000080: the acquirer failed, not a refusal) is looked up and found failed; only the last four are kept', async () => {
    const p = await call<PaymentView>('payments.captureCard', {
      profileId,
      amountMinor: 300,
      currency: 'USD',
      reference: ref(),
      saveCard: false,
      card: card(CARD_DECLINED),
    });
    expect(p).toMatchObject({
      state: 'failed',
      paymentStatus: 'failed',
      retCode: '000080',
      cardLast4: '0002',
    });
    expect(p.retMsg).toMatch(/declined/);
    const ok = await call<PaymentView>('payments.captureCard', {
      profileId,
      amountMinor: 300,
      currency: 'USD',
      reference: ref(),
      saveCard: false,
      card: card(CARD_SUCCESS),
    });
    expect(ok.state).toBe('succeeded');
  });

  it('a lost answer is resolved by querying the reference: found, never created twice', async () => {
    sandbox().setFaults({ endpoints: { 'secure-pay': { dropAfterRate: 1 } } });
    const input = checkout();
    let p: PaymentView;
    try {
      p = await call<PaymentView>('payments.createCheckout', input);
    } finally {
      sandbox().resetFaults();
    }
    expect(p.state).toBe('open');
    expect(p.transactionNo).toMatch(/^\d{18}$/);
    expect(p.cashierUrl).toBeUndefined();
    const atService = sandbox()
      .state.snapshot()
      .payments.filter((x) => x.reference === input.reference);
    expect(atService).toHaveLength(1);
    const audit = await call<{ action: string; outcome: string; subjectId: string }[]>('payments.audit');
    expect(audit.filter((a) => a.subjectId === p.id).map((a) => a.outcome)).toEqual(
      expect.arrayContaining(['outcome_unknown', 'found']),
    );
  });

  it('a create that failed before the service applied it stays unknown, with the evidence of the check', async () => {
    sandbox().setFaults({ endpoints: { 'secure-pay': { http5xxRate: 1 } } });
    let p: PaymentView;
    try {
      p = await call<PaymentView>('payments.createCheckout', checkout());
    } finally {
      sandbox().resetFaults();
    }
    expect(p.state).toBe('outcome_unknown');
    expect(p.lastCheck).toMatchObject({ found: false });
    const again = await call<PaymentView>('payments.checkAgain', { id: p.id });
    expect(again.state).toBe('outcome_unknown');
    expect(again.lastCheck?.note).toMatch(/No payment with reference/);
  });

  it('a change another process makes to a payment reaches this one’s renderer (the store’s change feed)', async () => {
    const link = await call<PaymentView>('payments.createCheckout', checkout());
    // Another process on the same data directory (a second host, a CLI run) records a check of it.
    const other = openAppStorage({ dataDir, now: Date.now, log: createFakeLogger() });
    try {
      const note = `Checked from another process ${ref()}`;
      await paymentStoreOn(other.intents, other.customers).noteCheck(link.id, {
        at: new Date().toISOString(),
        found: true,
        note,
      });
      const pushed = await until(() =>
        events.find(
          (e) =>
            e.event === 'payments.updated' &&
            (e.payload as PaymentView).id === link.id &&
            (e.payload as PaymentView).lastCheck?.note === note,
        ),
      );
      expect(pushed.payload).toMatchObject({ id: link.id, state: 'open', profileId });
    } finally {
      other.close();
    }
  });

  it('opens only the service’s own pages', async () => {
    const link = (await call<PaymentView[]>('payments.list')).find((p) => p.cashierUrl)!;
    expect(await call('payments.openPage', { id: link.id, page: 'checkout' })).toMatchObject({
      opened: true,
    });
    expect(lines.some((l) => l.includes('external.open_skipped'))).toBe(true);
  });

  it('the scan finds a card number or security code wherever it is (so its silence means something)', () => {
    const d = mkdtempSync(join(tmpdir(), 'rd-scan-'));
    writeFileSync(join(d, 'a.json'), JSON.stringify({ cardCvv: CVV, tx: `1${CVV}2`, hex: `ab${CVV}cd` }));
    writeFileSync(join(d, 'b.bin'), Buffer.from(`x${CARD_3DS.replace(/(\d{4})(?=\d)/g, '$1 ')}x`, 'utf16le'));
    const hits = scanForCard({ dir: d, numbers: [CARD_3DS], cvv: CVV, texts: { log: `n=${CARD_SUCCESS}` } });
    expect(hits).toEqual(['a.json: security code', 'b.bin (UTF-16): card number 4000…3220']);
    expect(scanForCard({ numbers: [CARD_SUCCESS], cvv: CVV, texts: { log: `n=${CARD_SUCCESS}` } })).toEqual([
      'log: card number 4242…4242',
    ]);
    rmSync(d, { recursive: true, force: true });
  });

  it('no card number or security code in the data directory, logs or events', async () => {
    await sandbox().ipnIdle();
    await core.profiles.ipnIdle();
    const hits = scanForCard({
      dir: dataDir,
      texts: { 'log lines': lines.join('\n'), events: JSON.stringify(events) },
      numbers: [CARD_3DS, CARD_DECLINED, CARD_SUCCESS],
      cvv: CVV,
    });
    expect(hits).toEqual([]);
    // The scan did read the database and its write-ahead log (where the newest pages are).
    expect(filesUnder(dataDir)).toEqual(expect.arrayContaining(['refund-desk.db', 'refund-desk.db-wal']));
    expect(events.some((e) => e.event === 'payments.updated')).toBe(true);
  });
});
