import { DEMO_MERCHANT } from '../../../electron/sandbox/index';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import fc from 'fast-check';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { rejectionError } from '../../../electron/core/services/gateway/errors';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

let sandbox: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sandbox = await startRefundSandbox();
});
afterAll(() => sandbox.close());

const serviceRefunds = (txNo: string) =>
  sandbox.state.snapshot().refunds.filter((r) => r.transactionNo === txNo);

describe('refunds against the sandbox', () => {
  it('refunds the full amount, with refundReference = intent id, and follows it to success', async () => {
    const { service } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    const intent = await service.submit({
      transactionNo: p.transactionNo,
      amountMinor: p.amountMinor,
      currency: p.currency,
      ...reason,
    });
    expect(intent.state).toBe('accepted');
    expect(intent.refundTransactionNo).toMatch(/^\d{18}$/);
    const atService = serviceRefunds(p.transactionNo);
    expect(atService).toHaveLength(1);
    expect(atService[0]!.refundReference).toBe(intent.id);
    await new Promise((r) => setTimeout(r, 80));
    const [tracked] = await service.track(p.transactionNo);
    expect(tracked!.state).toBe('succeeded');
  });

  it('allows several partials up to exactly the amount, then refuses one more cent before sending', async () => {
    const { service } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    const third = Math.floor(p.amountMinor / 3);
    for (const amount of [third, third, p.amountMinor - 2 * third]) {
      const i = await service.submit({
        transactionNo: p.transactionNo,
        amountMinor: amount,
        currency: p.currency,
        ...reason,
      });
      expect(i.state).toBe('accepted');
    }
    const before = serviceRefunds(p.transactionNo).length;
    await expect(
      service.submit({ transactionNo: p.transactionNo, amountMinor: 1, currency: p.currency, ...reason }),
    ).rejects.toMatchObject({ code: 'conflict' });
    expect(serviceRefunds(p.transactionNo)).toHaveLength(before);
    expect((await service.preview('demo', p.transactionNo)).remainingMinor).toBe(0);
  });

  it('refuses an over-refund before anything is sent', async () => {
    const { service } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    await expect(
      service.submit({
        transactionNo: p.transactionNo,
        amountMinor: p.amountMinor + 1,
        currency: p.currency,
        ...reason,
      }),
    ).rejects.toMatchObject({
      code: 'conflict',
      details: { moneyMoved: 'no', remainingMinor: p.amountMinor },
    });
    expect(serviceRefunds(p.transactionNo)).toHaveLength(0);
    expect(await service.list()).toHaveLength(0);
    expect((await service.audit())[0]).toMatchObject({ outcome: 'refused', transactionNo: p.transactionNo });
  });

  it('refuses a submit confirmed against another account than the one the profile now points at', async () => {
    const { service } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    await expect(
      service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: p.currency,
        ...reason,
        account: { baseUrl: 'https://pay.example.com', merchantNo: DEMO_MERCHANT.merchantNo },
      }),
    ).rejects.toMatchObject({ code: 'conflict', details: { moneyMoved: 'no' } });
    expect(serviceRefunds(p.transactionNo)).toHaveLength(0);
    expect(
      (
        await service.submit({
          transactionNo: p.transactionNo,
          amountMinor: 100,
          currency: p.currency,
          ...reason,
          account: { baseUrl: sandbox.baseUrl, merchantNo: DEMO_MERCHANT.merchantNo },
        })
      ).state,
    ).toBe('accepted');
  });

  it('refuses every non-success status without sending', async () => {
    const { service } = buildRefunds(sandbox);
    const statuses = ['closed', 'failed', 'init', 'pending', 'reversed'];
    for (const status of statuses) {
      const p = sandbox.state
        .snapshot()
        .payments.find((x) => x.status === status && x.merchantNo === '200043');
      if (!p) continue;
      await expect(
        service.submit({ transactionNo: p.transactionNo, amountMinor: 1, currency: p.currency, ...reason }),
      ).rejects.toMatchObject({ code: 'conflict', details: { status } });
      expect(serviceRefunds(p.transactionNo)).toHaveLength(0);
    }
  });

  it('turns a double click and concurrent submits into exactly one refund', async () => {
    const a = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    const submit = () =>
      a.service.submit({
        transactionNo: p.transactionNo,
        amountMinor: p.amountMinor,
        currency: p.currency,
        ...reason,
      });
    const results = await Promise.allSettled(Array.from({ length: 10 }, submit));
    expect(results.filter((r) => r.status === 'fulfilled')).toHaveLength(1);
    for (const r of results.filter((x) => x.status === 'rejected'))
      expect((r as PromiseRejectedResult).reason).toMatchObject({ code: 'conflict' });
    expect(serviceRefunds(p.transactionNo)).toHaveLength(1);
  });

  it('survives a connection dropped after the sandbox applied the refund: no second refund, resolved by query', async () => {
    const { service } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    sandbox.setFaults({ endpoints: { refund: { dropAfterRate: 1 } } });
    try {
      const intent = await service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 500,
        currency: p.currency,
        ...reason,
      });
      // The drop made the first answer ambiguous; the immediate query found the refund by reference
      // (already settled, on a slow machine).
      expect(intent.state).toMatch(/^(accepted|succeeded)$/);
      expect(intent.lastCheck?.found).toBe(true);
    } finally {
      sandbox.resetFaults();
    }
    expect(serviceRefunds(p.transactionNo)).toHaveLength(1);
    const audit = (await service.audit())
      .filter((e) => e.transactionNo === p.transactionNo)
      .map((e) => e.outcome);
    expect(audit).toContain('outcome_unknown');
    expect(audit).toContain('accepted');
  });

  it('keeps an unresolvable outcome unknown, with evidence, and never resends', async () => {
    const { service } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    // A 5xx before anything is applied: the outcome is ambiguous to the client, and nothing exists.
    sandbox.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    let id = '';
    try {
      const intent = await service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 500,
        currency: p.currency,
        ...reason,
      });
      expect(intent.state).toBe('outcome_unknown');
      expect(intent.lastCheck).toMatchObject({ found: false });
      id = intent.id;
    } finally {
      sandbox.resetFaults();
    }
    // Blocks another refund of the same payment until resolved.
    await expect(
      service.submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: p.currency, ...reason }),
    ).rejects.toMatchObject({ code: 'conflict' });
    const again = await service.checkAgain('demo', id);
    expect(again.state).toBe('outcome_unknown');
    expect(serviceRefunds(p.transactionNo)).toHaveLength(0);
  });

  it('rejections keep ret_code and ret_msg', async () => {
    const { service, gateway } = buildRefunds(sandbox);
    const p = freshPayment(sandbox, used);
    // A refusal that proves nothing happened (000080 "upstream error" does not: see answers.test.ts).
    Object.assign(gateway, {
      refund: async () => {
        throw rejectionError('refund', '000040', 'the transaction status does not allow a refund');
      },
    });
    const intent = await service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      ...reason,
    });
    expect(intent).toMatchObject({
      state: 'rejected',
      retCode: '000040',
      retMsg: 'the transaction status does not allow a refund',
    });
  });

  it('never exceeds the amount over random sequences of refund attempts (property)', async () => {
    const { service } = buildRefunds(sandbox);
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.integer({ min: 1, max: 4000 }), { minLength: 1, maxLength: 6 }),
        async (amounts) => {
          const p = freshPayment(sandbox, used);
          await Promise.allSettled(
            amounts.map((a) =>
              service.submit({
                transactionNo: p.transactionNo,
                amountMinor: a,
                currency: p.currency,
                ...reason,
              }),
            ),
          );
          const total = serviceRefunds(p.transactionNo)
            .filter((r) => r.status !== 'failed')
            .reduce((s, r) => s + r.refundAmountMinor, 0);
          expect(total).toBeLessThanOrEqual(p.amountMinor);
        },
      ),
      { numRuns: 12 },
    );
  });
});
