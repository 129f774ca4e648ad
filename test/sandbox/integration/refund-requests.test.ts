import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { overlappingRefundRequests, type RunningSandbox } from '../../../electron/sandbox/index';
import { PATHS, call, paidPayment, startTestSandbox } from './helpers';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ refundSettleMs: 60_000 });
});
afterAll(() => sb.close());

const refund = (transactionNo: string, refundAmount: string, over: Record<string, string> = {}) =>
  call(sb, PATHS.refund, { transactionNo, refundAmount, currency: 'USD', settleCurrency: 'USD', ...over });
const logOf = (transactionNo: string) => sb.refundRequests().filter((e) => e.payment === transactionNo);

describe("the sandbox's own record of refund requests", () => {
  it('two refund requests for one payment at the service at once are an overlap; one after the other are not', async () => {
    const together = await paidPayment(sb);
    const apart = await paidPayment(sb);
    // Each request stays at the service a while, so two sent together are there at the same time.
    sb.setFaults({ endpoints: { refund: { latencyMs: 150 } } });
    try {
      await Promise.all([
        refund(together, '1.00', { refundReference: 'RQ-A' }),
        refund(together, '2.00', { refundReference: 'RQ-B' }),
      ]);
      await refund(apart, '1.00');
      await refund(apart, '2.00');
    } finally {
      sb.resetFaults();
    }
    expect(logOf(together)).toEqual([
      expect.objectContaining({ refundReference: 'RQ-A', refundAmount: '1.00', outcome: '000100' }),
      expect.objectContaining({ refundReference: 'RQ-B', refundAmount: '2.00', outcome: '000100' }),
    ]);
    for (const e of [...logOf(together), ...logOf(apart)])
      expect(e.answeredAt! - e.arrivedAt).toBeGreaterThanOrEqual(140);
    const overlaps = overlappingRefundRequests(sb.refundRequests());
    expect(overlaps.map(([a, b]) => [a.payment, b.payment])).toEqual([[together, together]]);
  });

  it('a request still being handled overlaps every later one for that payment', () => {
    const at = (arrivedAt: number, answeredAt?: number) => ({
      payment: 'P',
      arrivedAt,
      ...(answeredAt !== undefined ? { answeredAt } : {}),
    });
    expect(overlappingRefundRequests([at(0, 10), at(10, 20), at(30)])).toEqual([]);
    expect(overlappingRefundRequests([at(0), at(50, 60), { ...at(5, 6), payment: 'Q' }])).toHaveLength(1);
  });

  it('refusals for asking more than is left are marked; other refusals are not', async () => {
    const no = await paidPayment(sb);
    expect((await refund(no, '60.00')).ret_code).toBe('000100');
    expect((await refund(no, '40.01')).ret_code).toBe('000023'); // over the remainder
    expect((await refund(no, '1.00', { currency: 'CNY', settleCurrency: 'USD' })).ret_code).toBe('000023');
    expect((await refund(no, '40.00')).ret_code).toBe('000100');
    expect((await refund(no, '0.01')).ret_code).toBe('000040'); // nothing left
    expect(logOf(no).map((e) => [e.outcome, e.overRemainder ?? false])).toEqual([
      ['000100', false],
      ['000023', true],
      ['000023', false],
      ['000100', false],
      ['000040', true],
    ]);
  });
});
