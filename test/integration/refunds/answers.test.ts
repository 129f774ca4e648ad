/**
 * A refund's answer is checked against its request: a "success" about another amount, currency, payment
 * or reference is evidence of a problem, never a success; "system error" and "upstream error" do not
 * prove that nothing happened. The hostile answers come from a fake at the gateway edge; the follow-up
 * query goes to the real sandbox over HTTP.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import type { RefundRecord } from '../../../shared/domain/transaction';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from './harness';

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

/** The real service's query answers, with their refundInfo rewritten at the gateway edge. */
function doctorRefunds(
  d: ReturnType<typeof buildRefunds>,
  rewrite: (refunds: RefundRecord[]) => RefundRecord[],
) {
  const query = d.gateway.queryTransaction.bind(d.gateway);
  Object.assign(d.gateway, {
    queryTransaction: async (...args: Parameters<typeof query>) => {
      const r = await query(...args);
      return { ...r, transaction: { ...r.transaction, refunds: rewrite(r.transaction.refunds) } };
    },
  });
}

describe('a refund answer is checked against the request', () => {
  it.each([
    ['another amount', { refundAmountMinor: 9999 }, /refundAmount: sent 1\.00 USD, answered 99\.99 USD/],
    ['another currency', { currency: 'JPY', refundAmountMinor: 100 }, /currency: sent USD, answered JPY/],
    [
      'another payment',
      { transactionNo: '100000000000000999' },
      /transactionNo: sent \d+, answered 100000000000000999/,
    ],
    [
      'another reference',
      { refundReference: 'RDSOMEONEELSE' },
      /refundReference: sent RD\w+, answered RDSOMEONEELSE/,
    ],
  ])(
    'a 000100 answer about %s is recorded as unknown with the evidence, never as succeeded',
    async (_what, bad, evidence) => {
      const d = buildRefunds(sb);
      const p = freshPayment(sb, used);
      Object.assign(d.gateway, {
        refund: async (input: { refundReference: string; transactionNo: string }) => ({
          refundTransactionNo: '900000000000000123',
          refundAmountMinor: 100,
          currency: 'USD',
          status: 'success',
          transactionNo: input.transactionNo,
          refundReference: input.refundReference,
          ...bad,
        }),
      });
      const intent = await d.service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: 'USD',
        ...reason,
      });
      expect(intent.state).toBe('outcome_unknown');
      expect(intent.detail).toMatch(evidence);
      // The follow-up asked the real service, which has no such refund: still unknown, with what it found.
      expect(intent.lastCheck).toMatchObject({ found: false });
      expect(
        (await d.service.audit()).some((e) => e.intentId === intent.id && e.outcome === 'succeeded'),
      ).toBe(false);
      // … and the payment is blocked until someone looks.
      await expect(
        d.service.submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: 'USD', ...reason }),
      ).rejects.toMatchObject({ code: 'conflict' });
    },
  );

  it.each([
    ['000000 (system error)', { systemErrorRate: 1 }],
    ['000080 (upstream error)', { upstreamErrorRate: 1 }],
  ])('%s on a refund is an unknown outcome resolved by query, not a rejection', async (_what, fault) => {
    const d = buildRefunds(sb);
    const p = freshPayment(sb, used);
    sb.setFaults({ endpoints: { refund: fault } });
    let intent;
    try {
      intent = await d.service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: 'USD',
        ...reason,
      });
    } finally {
      sb.resetFaults();
    }
    expect(intent.state).toBe('outcome_unknown');
    expect(intent.lastCheck?.note).toMatch(/none carries reference/);
  });

  it('a refund found by query for another amount than sent stays unknown, with the evidence', async () => {
    const d = buildRefunds(sb);
    const p = freshPayment(sb, used);
    // The service applies 1.00, then the connection drops; the app sent (so it believes) 1.00 … but the
    // query's answer is doctored at the edge to show 2.00 under the same reference.
    sb.setFaults({ endpoints: { refund: { dropAfterRate: 1 } } });
    doctorRefunds(d, (refunds) => refunds.map((x) => ({ ...x, refundAmountMinor: x.refundAmountMinor * 2 })));
    let intent;
    try {
      intent = await d.service.submit({
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: 'USD',
        ...reason,
      });
    } finally {
      sb.resetFaults();
    }
    expect(intent.state).toBe('outcome_unknown');
    expect(intent.lastCheck).toMatchObject({
      found: true,
      note: expect.stringMatching(/but for 200 minor units of USD \(sent: 100/),
    });
  });

  it('a payment with a refund in another currency is refused with the reason', async () => {
    const d = buildRefunds(sb);
    const p = freshPayment(sb, used);
    doctorRefunds(d, () => [
      { refundTransactionNo: '9', refundAmountMinor: 6000, currency: 'JPY', status: 'success' },
    ]);
    const preview = await d.service.preview('demo', p.transactionNo);
    expect(preview).toMatchObject({
      remainingMinor: 0,
      blockedReason: expect.stringMatching(/another currency \(JPY\)/),
    });
    await expect(
      d.service.submit({ transactionNo: p.transactionNo, amountMinor: 100, currency: 'USD', ...reason }),
    ).rejects.toMatchObject({ code: 'conflict', details: { moneyMoved: 'no', blocked: true } });
    expect(sb.state.snapshot().refunds.filter((r) => r.transactionNo === p.transactionNo)).toHaveLength(0);
  });

  it('a record the service labels a refund is refused with the reason, and nothing is sent', async () => {
    // A real refund at the service first: its number is a record of transactionType `refund`.
    const first = buildRefunds(sb);
    const p = freshPayment(sb, used);
    const made = await first.service.submit({
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: 'USD',
      ...reason,
    });
    const refundNo = made.refundTransactionNo!;
    expect(refundNo).toMatch(/^\d+$/);
    // A desk asked to refund that number as if it were a payment: the service answers with the refund
    // record itself (the sandbox's own answer for that number, asked by refundTransactionNo).
    const d = buildRefunds(sb);
    const query = d.gateway.queryTransaction.bind(d.gateway);
    let refundCalls = 0;
    const refund = d.gateway.refund.bind(d.gateway);
    Object.assign(d.gateway, {
      queryTransaction: (key: Parameters<typeof query>[0], opts?: Parameters<typeof query>[1]) =>
        'transactionNo' in key && key.transactionNo === refundNo
          ? query({ refundTransactionNo: refundNo }, opts)
          : query(key, opts),
      refund: (...args: Parameters<typeof refund>) => {
        refundCalls += 1;
        return refund(...args);
      },
    });
    const preview = await d.service.preview('demo', refundNo);
    expect(preview.transaction.transactionType).toBe('refund');
    expect(preview).toMatchObject({
      remainingMinor: 0,
      blockedReason: expect.stringMatching(/is a refund, not a payment/),
    });
    const before = sb.state.snapshot().refunds.length;
    await expect(
      d.service.submit({ transactionNo: refundNo, amountMinor: 100, currency: 'USD', ...reason }),
    ).rejects.toMatchObject({
      code: 'conflict',
      message: expect.stringMatching(/is a refund, not a payment/),
      details: { moneyMoved: 'no', blocked: true },
    });
    expect(refundCalls).toBe(0);
    expect(sb.state.snapshot().refunds).toHaveLength(before);
    expect((await d.service.audit())[0]).toMatchObject({ outcome: 'refused', transactionNo: refundNo });
  });
});
