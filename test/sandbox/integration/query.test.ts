import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { toServiceDate } from '../../../shared/protocol/time';
import { toTransaction, tranQueryResultSchema } from '../../../shared/protocol/wire';
import type { PaymentRecord, RunningSandbox } from '../../../electron/sandbox/index';
import { DEMO, PATHS, call, paidPayment, startTestSandbox } from './helpers';

let sb: RunningSandbox;
let seeded: PaymentRecord[];
beforeAll(async () => {
  sb = await startTestSandbox({ transactions: 600 });
  seeded = sb.state.snapshot().payments.filter((p) => p.merchantNo === DEMO.merchantNo);
});
afterAll(() => sb.close());

describe('tran-query', () => {
  it('finds a seeded payment by transactionNo and by reference; the result parses as the client does', async () => {
    const p = seeded.find((x) => x.refunds.length > 1)!;
    const lookups: Record<string, string>[] = [
      { transactionNo: p.transactionNo },
      { reference: p.reference },
    ];
    for (const lookup of lookups) {
      const env = await call(sb, PATHS.tranQuery, lookup);
      expect(env.ret_code).toBe('000100');
      const tx = toTransaction(tranQueryResultSchema.parse(env.result));
      expect(tx).toMatchObject({
        transactionNo: p.transactionNo,
        reference: p.reference,
        amountMinor: p.amountMinor,
        currency: p.currency,
        status: p.status,
        vendor: p.vendor,
        transactionType: 'payment',
      });
      expect(tx.refunds.map((r) => r.refundTransactionNo)).toEqual(p.refunds);
      expect(tx.createdAt).toBe(new Date(Math.floor(p.createdAt / 1000) * 1000).toISOString());
      const entry = env.result!.refundInfo![0]!;
      expect(entry.refundTransactionId).toBe(entry.refundTransactionNo);
      expect(entry.refundAmount).toMatch(/^\d+\.\d{2}$/);
      expect(env.result!.createTime).toMatch(/^\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}$/);
    }
  });
  it('amounts always have two decimals, even for zero-exponent currencies', async () => {
    const krw = seeded.find((x) => x.currency === 'KRW' || x.currency === 'IDR' || x.currency === 'JPY');
    if (!krw) return;
    const env = await call(sb, PATHS.tranQuery, { transactionNo: krw.transactionNo });
    expect(env.result?.amount).toBe(`${krw.amountMinor}.00`);
  });
  it('finds one refund by refundTransactionNo', async () => {
    const p = seeded.find((x) => x.refunds.length > 0)!;
    const refundNo = p.refunds[0]!;
    const env = await call(sb, PATHS.tranQuery, { refundTransactionNo: refundNo });
    expect(env.result).toMatchObject({
      transactionType: 'refund',
      refundTransactionNo: refundNo,
      originalTransactionNo: p.transactionNo,
    });
    const tx = toTransaction(tranQueryResultSchema.parse(env.result));
    expect(tx.transactionType).toBe('refund');
  });
  it('lookup rules: both → 000022, none → 000020, unknown → 000021', async () => {
    const p = seeded[0]!;
    expect(
      (await call(sb, PATHS.tranQuery, { transactionNo: p.transactionNo, reference: p.reference })).ret_code,
    ).toBe('000022');
    expect(
      (await call(sb, PATHS.tranQuery, { transactionNo: p.transactionNo, refundTransactionNo: '1' }))
        .ret_code,
    ).toBe('000022');
    expect((await call(sb, PATHS.tranQuery, {})).ret_code).toBe('000020');
    expect((await call(sb, PATHS.tranQuery, { transactionNo: '' })).ret_code).toBe('000020');
    expect((await call(sb, PATHS.tranQuery, { transactionNo: '111111111111111111' })).ret_code).toBe(
      '000021',
    );
    expect((await call(sb, PATHS.tranQuery, { reference: 'no-such-reference' })).ret_code).toBe('000021');
    expect((await call(sb, PATHS.tranQuery, { refundTransactionNo: '111111111111111111' })).ret_code).toBe(
      '000021',
    );
  });
  it('another merchant’s transactions are invisible', async () => {
    const m = sb.merchants[1]!;
    const creds = { merchantNo: m.merchantNo, storeNo: m.storeNos[0]!, token: m.token };
    const own = await paidPayment(sb, {}, creds);
    expect((await call(sb, PATHS.tranQuery, { transactionNo: own }, { creds })).ret_code).toBe('000100');
    expect((await call(sb, PATHS.tranQuery, { transactionNo: own })).ret_code).toBe('000021');
    expect(
      (await call(sb, PATHS.tranQuery, { transactionNo: seeded[0]!.transactionNo }, { creds })).ret_code,
    ).toBe('000021');
  });
});

describe('trans-list', () => {
  const DAY = 86_400_000;
  it('lists the store’s payments of the window (top-level transactions + size)', async () => {
    const newest = Math.max(...seeded.map((p) => p.createdAt));
    const startDate = toServiceDate(newest - 10 * DAY);
    const endDate = toServiceDate(newest);
    const env = await call(sb, PATHS.transList, { startDate, endDate });
    expect(env.ret_code).toBe('000100');
    expect(env.result).toBeUndefined();
    const expected = seeded.filter(
      (p) =>
        p.storeNo === DEMO.storeNo &&
        toServiceDate(p.createdAt) >= startDate &&
        toServiceDate(p.createdAt) <= endDate,
    );
    expect(env.size).toBe(expected.length);
    expect(env.transactions!.map((t) => t.transactionNo).sort()).toEqual(
      expected.map((p) => p.transactionNo).sort(),
    );
    for (const t of env.transactions!) toTransaction(tranQueryResultSchema.parse(t));
  });
  it('date rules: span ≤ 15 days, valid dates, order, required', async () => {
    expect((await call(sb, PATHS.transList, { startDate: '20240101', endDate: '20240116' })).ret_code).toBe(
      '000100',
    );
    expect((await call(sb, PATHS.transList, { startDate: '20240101', endDate: '20240117' })).ret_code).toBe(
      '000023',
    );
    expect((await call(sb, PATHS.transList, { startDate: '20240110', endDate: '20240101' })).ret_code).toBe(
      '000023',
    );
    expect((await call(sb, PATHS.transList, { startDate: '20240231', endDate: '20240301' })).ret_code).toBe(
      '000023',
    );
    expect((await call(sb, PATHS.transList, { startDate: '2024-01-01', endDate: '20240102' })).ret_code).toBe(
      '000023',
    );
    expect((await call(sb, PATHS.transList, { startDate: '20240101' })).ret_code).toBe('000020');
  });
});
