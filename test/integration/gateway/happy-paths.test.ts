import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CARD_3DS, CARD_SUCCESS, type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { gatewayFor, refundablePayment } from './helpers';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 7, transactions: 60, refundSettleMs: 20 });
});
afterAll(() => sb.close());

describe('gateway ↔ sandbox: every endpoint over real HTTP', () => {
  it('tran-query by transactionNo and by reference', async () => {
    const gw = gatewayFor(sb);
    const p = refundablePayment(sb);
    const byNo = await gw.queryTransaction({ transactionNo: p.transactionNo });
    expect(byNo.transaction).toMatchObject({
      transactionNo: p.transactionNo,
      amountMinor: p.amountMinor,
      currency: 'USD',
      status: 'success',
      transactionType: 'payment',
    });
    expect(byNo.transaction.createdAt).toMatch(/Z$/);
    const byRef = await gw.queryTransaction({ reference: p.reference });
    expect(byRef.transaction.transactionNo).toBe(p.transactionNo);
  });

  it('refund, then find it by refundTransactionNo and in refundInfo', async () => {
    const gw = gatewayFor(sb);
    const p = refundablePayment(sb, 1);
    const r = await gw.refund({
      transactionNo: p.transactionNo,
      refundAmountMinor: 100,
      currency: p.currency,
      settleCurrency: p.settleCurrency,
      refundReference: 'RDTEST1',
    });
    expect(r).toMatchObject({
      transactionNo: p.transactionNo,
      refundAmountMinor: 100,
      refundReference: 'RDTEST1',
    });
    expect(r.refundTransactionNo).toMatch(/^\d{18,}$/);
    const asRefund = await gw.queryTransaction({ refundTransactionNo: r.refundTransactionNo });
    expect(asRefund.transaction.transactionType).toBe('refund');
    expect(asRefund.originalTransactionNo).toBe(p.transactionNo);
    const after = await gw.queryTransaction({ transactionNo: p.transactionNo });
    expect(after.transaction.refunds.map((x) => x.refundReference)).toContain('RDTEST1');
  });

  it('create customer, secure-pay (hosted and YIP), capture (charged and 3-D Secure)', async () => {
    const gw = gatewayFor(sb);
    const c = await gw.createCustomer({
      firstName: 'Ada',
      lastName: 'Lovelace',
      email: 'ada@example.com',
      countryCode: 'US',
      state: 'NY',
    });
    expect(c.customerNo).toMatch(/^\d+$/);
    const hosted = await gw.securePay({
      amountMinor: 1234,
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'alipay',
      terminal: 'ONLINE',
      reference: 'it-sp-1',
      ipnUrl: 'http://127.0.0.1:9/ipn',
      callbackUrl: 'http://127.0.0.1:9/cb',
      goodsInfo: '[{"goods_name":"Tea","quantity":"1"}]',
    });
    expect(hosted.cashierUrl).toContain(sb.baseUrl);
    const yip = await gw.securePay({
      amountMinor: 500,
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'paypal',
      terminal: 'YIP',
      reference: 'it-sp-2',
      ipnUrl: 'http://127.0.0.1:9/ipn',
    });
    expect(yip.authorization).toBeTruthy();
    const charged = await gw.capture({
      amountMinor: 999,
      currency: 'USD',
      settleCurrency: 'USD',
      reference: 'it-cap-1',
      terminal: 'ONLINE',
      card: { number: CARD_SUCCESS, expYear: '2099', expMonth: '12', cvv: '123' },
    });
    expect(charged.status).toBe('success');
    const threeDs = await gw.capture({
      amountMinor: 999,
      currency: 'USD',
      settleCurrency: 'USD',
      reference: 'it-cap-2',
      terminal: 'ONLINE',
      customerNo: c.customerNo,
      card: { number: CARD_3DS, expYear: '2099', expMonth: '12', cvv: '123' },
    });
    expect(threeDs).toMatchObject({ status: 'pending', customerNo: c.customerNo });
    expect(threeDs.authUrl).toContain('/3ds/');
    const q = await gw.queryTransaction({ reference: 'it-sp-1' });
    expect(q.transaction).toMatchObject({ amountMinor: 1234, status: 'init' });
  });

  it('trans-list returns the store’s payments of a day range', async () => {
    const gw = gatewayFor(sb);
    const p = refundablePayment(sb);
    const rows = await gw.listTransactions({ startMs: p.createdAt, endMs: p.createdAt });
    expect(rows.map((r) => r.transactionNo)).toContain(p.transactionNo);
  });
});
