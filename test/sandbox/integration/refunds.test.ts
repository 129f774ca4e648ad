import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { parseMinor } from '../../../shared/domain/money';
import type { PaymentRecord, RunningSandbox } from '../../../electron/sandbox/index';
import {
  DEMO,
  PATHS,
  call,
  paidPayment,
  securePayParams,
  startTestSandbox,
  uniqueRef,
  waitFor,
  type Envelope,
} from './helpers';

let sb: RunningSandbox;
let seeded: PaymentRecord[];
beforeAll(async () => {
  sb = await startTestSandbox({ refundSettleMs: 60_000 });
  seeded = sb.state.snapshot().payments.filter((p) => p.merchantNo === DEMO.merchantNo);
});
afterAll(() => sb.close());

const refund = (transactionNo: string, refundAmount: string, over: Record<string, string> = {}) =>
  call(sb, PATHS.refund, { transactionNo, refundAmount, currency: 'USD', settleCurrency: 'USD', ...over });
const info = async (transactionNo: string) =>
  (await call(sb, PATHS.tranQuery, { transactionNo })).result?.refundInfo ?? [];

describe('refund rules', () => {
  it('a partial refund returns its own 18-digit refundTransactionNo, pending, and shows in refundInfo', async () => {
    const no = await paidPayment(sb);
    const env = await refund(no, '30', { refundReference: 'RD-1' });
    expect(env.ret_code).toBe('000100');
    expect(env.result).toMatchObject({
      amount: '100.00',
      refundAmount: '30.00',
      currency: 'USD',
      settleCurrency: 'USD',
      status: 'pending',
      refundReference: 'RD-1',
      transactionNo: no,
    });
    expect(env.result?.refundTransactionNo).toMatch(/^\d{18}$/);
    expect(env.result?.refundTransactionNo).not.toBe(no);
    expect(await info(no)).toMatchObject([
      {
        refundTransactionId: env.result?.refundTransactionNo,
        refundAmount: '30.00',
        status: 'pending',
        refundReference: 'RD-1',
      },
    ]);
  });
  it('by reference too; both → 000022; neither → 000020; unknown → 000021', async () => {
    const no = await paidPayment(sb, { reference: 'REF-BY-REF-1' });
    expect(
      (
        await call(sb, PATHS.refund, {
          reference: 'REF-BY-REF-1',
          refundAmount: '1.00',
          currency: 'USD',
          settleCurrency: 'USD',
        })
      ).ret_code,
    ).toBe('000100');
    expect((await refund(no, '1.00', { reference: 'REF-BY-REF-1' })).ret_code).toBe('000022');
    expect(
      (await call(sb, PATHS.refund, { refundAmount: '1.00', currency: 'USD', settleCurrency: 'USD' }))
        .ret_code,
    ).toBe('000020');
    expect((await refund('123456789012345678', '1.00')).ret_code).toBe('000021');
    expect((await refund(no, '')).ret_code).toBe('000020');
  });
  it('repeated partials up to the amount, then over-refund 000023 and fully refunded 000040', async () => {
    const no = await paidPayment(sb);
    expect((await refund(no, '60.00')).ret_code).toBe('000100');
    const over = await refund(no, '40.01');
    expect(over.ret_code).toBe('000023');
    expect(over.ret_msg).toContain('40.00');
    expect((await refund(no, '40.00')).ret_code).toBe('000100');
    expect((await refund(no, '0.01')).ret_code).toBe('000040');
    expect((await info(no)).length).toBe(2);
  });
  it('bad amounts and currency mismatches → 000023', async () => {
    const no = await paidPayment(sb);
    expect((await refund(no, '0')).ret_code).toBe('000023');
    expect((await refund(no, '1.001')).ret_code).toBe('000023');
    expect((await refund(no, 'abc')).ret_code).toBe('000023');
    expect((await refund(no, '1.00', { currency: 'CNY' })).ret_code).toBe('000023');
    expect((await refund(no, '1.00', { settleCurrency: 'GBP' })).ret_code).toBe('000023');
    expect((await refund(no, '1.00', { ipnUrl: 'not a url' })).ret_code).toBe('000023');
    expect(await info(no)).toEqual([]);
  });
  it('only success payments: init, failed, closed, reversed, pending → 000040', async () => {
    const open = await call(sb, PATHS.securePay, securePayParams());
    expect((await refund(String(open.result?.transactionNo), '1.00')).ret_code).toBe('000040');
    for (const status of ['failed', 'closed', 'reversed', 'pending', 'init'] as const) {
      const p = seeded.find((x) => x.status === status && x.currency === 'USD' && x.settleCurrency === 'USD');
      if (!p) continue;
      expect([status, (await refund(p.transactionNo, '0.01')).ret_code]).toEqual([status, '000040']);
    }
  });
  it('refunds of zero-exponent currencies use whole units with two decimals', async () => {
    const p = seeded.find((x) => x.status === 'success' && x.currency === 'KRW' && x.refunds.length === 0);
    if (!p) return;
    const env = await call(sb, PATHS.refund, {
      transactionNo: p.transactionNo,
      refundAmount: '10',
      currency: 'KRW',
      settleCurrency: p.settleCurrency,
    });
    expect(env.result?.refundAmount).toBe('10.00');
    expect(
      (
        await call(sb, PATHS.refund, {
          transactionNo: p.transactionNo,
          refundAmount: '10.50',
          currency: 'KRW',
          settleCurrency: p.settleCurrency,
        })
      ).ret_code,
    ).toBe('000023');
  });
  it('does not deduplicate refundReference (a sandbox choice: the worst case)', async () => {
    const no = await paidPayment(sb);
    const a = await refund(no, '5.00', { refundReference: 'SAME' });
    const b = await refund(no, '5.00', { refundReference: 'SAME' });
    expect(a.ret_code).toBe('000100');
    expect(b.ret_code).toBe('000100');
    expect(a.result?.refundTransactionNo).not.toBe(b.result?.refundTransactionNo);
    expect((await info(no)).length).toBe(2);
  });
  it('seeded pending + succeeded refunds never exceed the amount; failed ones do not count', () => {
    for (const p of seeded) {
      const refunds = p.refunds.map((n) => sb.state.refund(n)!);
      const committed = refunds
        .filter((r) => r.status !== 'failed')
        .reduce((s, r) => s + r.refundAmountMinor, 0);
      expect(committed).toBeLessThanOrEqual(p.amountMinor);
    }
  });
});

describe('concurrency', () => {
  it('300 parallel partial refunds never exceed the amount', async () => {
    const no = await paidPayment(sb, { amount: '100.00' });
    const n = 300;
    const partial = '0.70'; // 300 × 0.70 = 210.00 > 100.00
    const results = await Promise.all(
      Array.from({ length: n }, (_, i) => refund(no, partial, { refundReference: `P${i}` })),
    );
    const accepted = results.filter((r) => r.ret_code === '000100');
    const codes = new Set(results.filter((r) => r.ret_code !== '000100').map((r) => r.ret_code));
    const expectedMinor = Math.min(10_000, n * 70);
    expect(accepted.length * 70).toBeLessThanOrEqual(expectedMinor);
    expect(accepted.length).toBe(Math.floor(expectedMinor / 70));
    expect([...codes].every((c) => c === '000023' || c === '000040')).toBe(true);
    const sum = (await info(no)).reduce((s, r) => s + parseMinor(r.refundAmount!, 'USD'), 0);
    expect(sum).toBe(accepted.length * 70);
    expect(sum).toBeLessThanOrEqual(10_000);
  });
  it('parallel refunds that fit all succeed (sum = n × partial)', async () => {
    const no = await paidPayment(sb, { amount: '100.00' });
    const results: Envelope[] = await Promise.all(Array.from({ length: 100 }, () => refund(no, '1.00')));
    expect(results.every((r) => r.ret_code === '000100')).toBe(true);
    expect((await refund(no, '0.01')).ret_code).toBe('000040');
  });
});

describe('settlement', () => {
  it('pending → success after refundSettleMs', async () => {
    const fast = await (await import('./helpers')).startTestSandbox({ refundSettleMs: 30 });
    try {
      const no = await paidPayment(fast);
      const env = await call(fast, PATHS.refund, {
        transactionNo: no,
        refundAmount: '100.00',
        currency: 'USD',
        settleCurrency: 'USD',
      });
      const refundNo = String(env.result?.refundTransactionNo);
      expect(env.result?.status).toBe('pending');
      const settled = await waitFor(async () => {
        const q = await call(fast, PATHS.tranQuery, { refundTransactionNo: refundNo });
        return q.result?.status === 'pending' ? undefined : q.result?.status;
      });
      expect(settled).toBe('success');
      expect(
        (
          await call(fast, PATHS.refund, {
            transactionNo: no,
            refundAmount: '1.00',
            currency: 'USD',
            settleCurrency: 'USD',
          })
        ).ret_code,
      ).toBe('000040');
    } finally {
      await fast.close();
    }
  });
  it('pending → failed at refundFailRate 1, and the amount becomes refundable again', async () => {
    const fast = await (
      await import('./helpers')
    ).startTestSandbox({ refundSettleMs: 30, refundFailRate: 1 });
    try {
      const no = await paidPayment(fast);
      const env = await call(fast, PATHS.refund, {
        transactionNo: no,
        refundAmount: '100.00',
        currency: 'USD',
        settleCurrency: 'USD',
      });
      const settled = await waitFor(async () => {
        const q = await call(fast, PATHS.tranQuery, { transactionNo: no });
        const s = q.result?.refundInfo?.[0]?.status;
        return s === 'pending' ? undefined : s;
      });
      expect(settled).toBe('failed');
      expect(fast.state.refund(String(env.result?.refundTransactionNo))?.status).toBe('failed');
      fast.setFaults({ refundFailRate: 0 });
      expect(
        (
          await call(fast, PATHS.refund, {
            transactionNo: no,
            refundAmount: '100.00',
            currency: 'USD',
            settleCurrency: 'USD',
            refundReference: uniqueRef(),
          })
        ).ret_code,
      ).toBe('000100');
    } finally {
      await fast.close();
    }
  });
});
