/**
 * A payment's answer is checked against its request, as a refund's is: a success about another amount,
 * reference or transaction number is evidence of a problem, never a success. The Demo sandbox applies
 * each request as sent and then lies in its answer (electron/sandbox/faults.ts `answers`); everything
 * goes through the composed core over real HTTP, on a real SQLite file.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AppCore } from '../../../electron/core/compose';
import { CARD_SUCCESS } from '../../../electron/sandbox/cards';
import type { PaymentAuditEntry, PaymentView } from '../../../shared/ipc/contract/payments';
import { createFakeLogger } from '../../fakes/logger';
import { withProfile } from '../../fakes/scope';

let core: AppCore;
let dataDir: string;
let profileId: string;
const updates: PaymentView[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rd-pay-answers-'));
  core = await createNodeCore({
    host: 'browser',
    dataDir,
    log: createFakeLogger(),
    demo: { transactions: 20, ipnSchedule: [20], refundSettleMs: 30 },
  });
  core.events.subscribe((event, payload) => {
    if (event === 'payments.updated') updates.push(payload as PaymentView);
  });
  profileId = core.profiles.profiles.active()!.id;
});
afterEach(() => {
  sandbox().resetFaults();
});
afterAll(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

const sandbox = () => core.demoSandbox()!;
async function call<T>(channel: string, input?: unknown): Promise<T> {
  const r = await core.dispatch(channel, withProfile(channel, input, profileId));
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}
const until = async <T>(get: () => Promise<T | undefined>, ms = 10_000): Promise<T> => {
  const end = Date.now() + ms;
  for (;;) {
    const v = await get();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
};
let n = 0;
const ref = () => `ANS-${Date.now().toString(36)}-${(n += 1)}`;
const capture = (reference = ref()) =>
  call<PaymentView>('payments.captureCard', {
    profileId,
    amountMinor: 1234,
    currency: 'USD',
    reference,
    saveCard: false,
    card: { number: CARD_SUCCESS, expMonth: '12', expYear: '2031', cvv: '7391' },
  });
const payment = async (id: string) => (await call<PaymentView[]>('payments.list')).find((p) => p.id === id);
const auditOf = async (id: string) =>
  (await call<PaymentAuditEntry[]>('payments.audit')).filter((e) => e.subjectId === id);
/** The states the renderer was told about, in order. */
const statesOf = (id: string) =>
  updates
    .filter((u) => u.id === id)
    .map((u) => u.state)
    .filter((s, i, all) => s !== all[i - 1]);
/** The payment the service really made for a reference. */
const atService = (reference: string) =>
  sandbox()
    .state.snapshot()
    .payments.filter((x) => x.reference === reference);

describe('the words of an unknown outcome say what is known', () => {
  it('a capture answered 000000 is unknown, and its detail does not say it was rejected or that nothing moved', async () => {
    sandbox().setFaults({ endpoints: { capture: { systemErrorRate: 1 } } });
    const p = await capture();
    expect(p).toMatchObject({ state: 'outcome_unknown', retCode: '000000' });
    for (const words of [
      p.detail,
      (await auditOf(p.id)).find((e) => e.outcome === 'outcome_unknown')?.detail,
    ]) {
      expect(words).toMatch(/may or may not have gone through/);
      expect(words).not.toMatch(/rejected|Nothing was charged/);
    }
  });
});

describe('a payment answer is believed only when it is about the payment sent', () => {
  it.each([
    ['another amount', { amount: '999.99' }, /amount: sent 12\.34 USD, answered 999\.99 USD/],
    ['another reference', { reference: 'SOMEONE-ELSE' }, /reference: sent ANS-\S+, answered SOMEONE-ELSE/],
  ])(
    'a 12.34 USD capture answered with %s is unknown with the evidence, then settled by a query of its own reference',
    async (_what, lie, evidence) => {
      const reference = ref();
      sandbox().setFaults({ answers: { capture: lie } });
      const p = await capture(reference);
      const made = atService(reference);
      expect(made).toHaveLength(1); // sent once; never again
      // Never recorded as succeeded from the answer: unknown first, then what the query by reference says.
      expect(statesOf(p.id)).toEqual(['sending', 'outcome_unknown', 'succeeded']);
      expect(p).toMatchObject({
        state: 'succeeded',
        amountMinor: 1234,
        transactionNo: made[0]!.transactionNo,
      });
      const audit = await auditOf(p.id);
      expect(audit).toContainEqual(
        expect.objectContaining({ outcome: 'outcome_unknown', detail: expect.stringMatching(evidence) }),
      );
      expect(audit).toContainEqual(expect.objectContaining({ outcome: 'found' }));
    },
  );

  it('the evidence of an answer that echoes the card never keeps the card number', async () => {
    const spaced = CARD_SUCCESS.replace(/(\d{4})(?=\d)/g, '$1 ');
    sandbox().setFaults({ answers: { capture: { reference: CARD_SUCCESS } } });
    const p = await capture();
    sandbox().resetFaults();
    sandbox().setFaults({ answers: { capture: { reference: `card ${spaced}\u202e${'x'.repeat(500)}` } } });
    const q = await capture();
    for (const x of [p, q]) {
      const audit = await auditOf(x.id);
      const evidence = audit.find((e) => e.outcome === 'outcome_unknown')?.detail ?? '';
      expect(evidence).toMatch(/reference: sent ANS-\S+, answered /);
      const kept = JSON.stringify([x, audit, updates.filter((u) => u.id === x.id)]);
      expect(kept).not.toContain(CARD_SUCCESS);
      expect(kept).not.toContain(spaced);
      expect(evidence).not.toMatch(/\u202e|x{65}/);
    }
  });

  it('five captures answered with one transaction number are each settled by their own reference', async () => {
    const first = await capture();
    expect(first.state).toBe('succeeded');
    const taken = first.transactionNo!;
    sandbox().setFaults({ answers: { capture: { transactionNo: taken } } });
    const five = await Promise.all([capture(), capture(), capture(), capture(), capture()]);
    sandbox().resetFaults();
    for (const p of five) {
      const made = atService(p.reference);
      expect(made).toHaveLength(1);
      expect(p).toMatchObject({ state: 'succeeded', transactionNo: made[0]!.transactionNo });
      expect(p.transactionNo).not.toBe(taken);
      expect(await auditOf(p.id)).toContainEqual(
        expect.objectContaining({
          outcome: 'outcome_unknown',
          detail: expect.stringMatching(
            // The number itself may be masked: the card scrubber hides any Luhn-passing run of digits
            // that is not this payment's own id (one service number in ten passes Luhn by chance).
            new RegExp(
              `transactionNo: answered .+, which this desk already recorded for its payment ${first.id}`,
            ),
          ),
        }),
      );
    }
    expect(new Set(five.map((p) => p.transactionNo)).size).toBe(5);
    expect((await payment(first.id))?.transactionNo).toBe(taken);
  });

  it('a query by transaction number that answers another amount makes an open payment unknown; its reference settles it', async () => {
    const link = await call<PaymentView>('payments.createCheckout', {
      profileId,
      kind: 'link',
      amountMinor: 2500,
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'alipay',
      reference: ref(),
      goods: [],
      timeoutMin: 30,
    });
    expect(link.state).toBe('open');
    sandbox().setFaults({ answers: { 'tran-query': { amount: '999.99' } } });
    const checked = await call<PaymentView>('payments.checkAgain', { id: link.id });
    expect(checked.state).toBe('outcome_unknown');
    expect(checked.detail).toMatch(/amount: sent 25\.00 USD, answered 999\.99 USD/);
    // Then looked for by its reference (still lying here): not taken for this payment either.
    expect(checked.lastCheck?.note).toMatch(/exists at the service, but it is not this one/);
    sandbox().resetFaults();
    const settled = await call<PaymentView>('payments.checkAgain', { id: link.id });
    expect(settled).toMatchObject({ state: 'open', transactionNo: link.transactionNo });
  });

  it('a paid link whose confirming query answers another amount is not taken as succeeded', async () => {
    const link = await call<PaymentView>('payments.createCheckout', {
      profileId,
      kind: 'link',
      amountMinor: 2600,
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'alipay',
      reference: ref(),
      goods: [],
      timeoutMin: 30,
    });
    sandbox().setFaults({ answers: { 'tran-query': { amount: '999.99' } } });
    // The payer pays: the sandbox's IPN is confirmed by main's query, which lies about the amount.
    const res = await fetch(`${link.cashierUrl}/pay`, { method: 'POST', redirect: 'manual' });
    expect(res.status).toBe(303);
    await sandbox().ipnIdle();
    await core.profiles.ipnIdle();
    const unknown = await until(async () => {
      const p = await payment(link.id);
      return p?.state === 'outcome_unknown' ? p : undefined;
    });
    expect(unknown.detail).toMatch(/amount: sent 26\.00 USD, answered 999\.99 USD/);
    expect(statesOf(link.id)).not.toContain('succeeded');
    sandbox().resetFaults();
    expect(await call<PaymentView>('payments.checkAgain', { id: link.id })).toMatchObject({
      state: 'succeeded',
      transactionNo: link.transactionNo,
    });
  });
});
