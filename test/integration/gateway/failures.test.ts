import type { Currency } from '../../../shared/domain/currencies';
import { createServer } from 'node:net';
import type { AddressInfo } from 'node:net';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { countingHttp, gatewayFor, refundablePayment } from './helpers';
import { caughtAppError as caught } from '../../fakes/app-error';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 11, transactions: 80, refundSettleMs: 20 });
});
afterEach(() => void sb.resetFaults());
afterAll(() => sb.close());

const refundOf = (
  p: { transactionNo: string; currency: Currency; settleCurrency: Currency },
  amountMinor: number,
  ref?: string,
) => ({
  transactionNo: p.transactionNo,
  refundAmountMinor: amountMinor,
  currency: p.currency,
  settleCurrency: p.settleCurrency,
  ...(ref ? { refundReference: ref } : {}),
});

describe('ret_code paths', () => {
  it('000021 → not_found', async () => {
    const e = await caught(gatewayFor(sb).queryTransaction({ transactionNo: '100000000000000001' }));
    expect(e.code).toBe('not_found');
    expect(e.details?.['ret_code']).toBe('000021');
  });

  it('000030 → unauthorized (wrong token, unknown store)', async () => {
    expect(
      (
        await caught(
          gatewayFor(sb, { over: { token: 'wrong-token-123' } }).queryTransaction({ transactionNo: '1' }),
        )
      ).code,
    ).toBe('unauthorized');
    const e = await caught(
      gatewayFor(sb, { over: { storeNo: '999999' } }).queryTransaction({ transactionNo: '1' }),
    );
    expect(e).toMatchObject({ code: 'unauthorized' });
    expect(e.details?.['ret_code']).toBe('000030');
  });

  it('000020 / 000022 / 000023 / 000040 → upstream_rejected with the service’s words', async () => {
    const gw = gatewayFor(sb);
    const missing = await caught(
      gw.createCustomer({ firstName: 'A', lastName: 'B', email: '', countryCode: 'GB' }),
    );
    expect(missing.details).toMatchObject({ ret_code: '000020' });
    const p = refundablePayment(sb, 2);
    const dup = await caught(
      gw.securePay({
        amountMinor: 100,
        currency: 'USD',
        settleCurrency: 'USD',
        vendor: 'alipay',
        terminal: 'ONLINE',
        reference: p.reference,
        ipnUrl: 'http://127.0.0.1:9/i',
        callbackUrl: 'http://127.0.0.1:9/c',
      }),
    );
    expect(dup.details).toMatchObject({ ret_code: '000022' });
    const tooMuch = await caught(gw.refund(refundOf(p, p.amountMinor + 1)));
    expect(tooMuch.details).toMatchObject({ ret_code: '000023' });
    expect(tooMuch.message).toMatch(/Nothing was charged or refunded/);
    const open = sb.state
      .snapshot()
      .payments.find((x) => x.status !== 'success' && x.merchantNo === '200043' && x.storeNo === '300014');
    if (!open) throw new Error('no non-success payment seeded');
    const status = await caught(gw.refund(refundOf(open, 1)));
    expect(status.details).toMatchObject({ ret_code: '000040' });
    for (const e of [missing, dup, tooMuch, status]) expect(e.code).toBe('upstream_rejected');
  });

  it('injected 000000 and 000080 are rejections, not retried', async () => {
    const http = countingHttp();
    sb.setFaults({ endpoints: { 'tran-query': { systemErrorRate: 1 } } });
    expect(
      (await caught(gatewayFor(sb, { http }).queryTransaction({ transactionNo: '1' }))).details,
    ).toMatchObject({ ret_code: '000000' });
    sb.setFaults({ endpoints: { 'tran-query': { systemErrorRate: 0, upstreamErrorRate: 1 } } });
    expect(
      (await caught(gatewayFor(sb, { http }).queryTransaction({ transactionNo: '1' }))).details,
    ).toMatchObject({ ret_code: '000080' });
    expect(http.count('/tran-query')).toBe(2);
  });
});

describe('transport failures: reads retried, writes never', () => {
  it('5xx: a read is tried 3 times then `unavailable`; a refund once then `outcome_unknown`', async () => {
    sb.setFaults({ all: { http5xxRate: 1 } });
    const http = countingHttp();
    const p = refundablePayment(sb, 3);
    expect(
      (await caught(gatewayFor(sb, { http }).queryTransaction({ transactionNo: p.transactionNo }))).code,
    ).toBe('unavailable');
    expect(http.count('/tran-query')).toBe(3);
    expect((await caught(gatewayFor(sb, { http }).refund(refundOf(p, 100)))).code).toBe('outcome_unknown');
    expect(http.count('/refund')).toBe(1);
  });

  it('timeout: read retried then `timeout`; capture and secure-pay once then `outcome_unknown`', async () => {
    sb.setFaults({ all: { latencyMs: 300 } });
    const http = countingHttp();
    const gw = gatewayFor(sb, { http, timeoutMs: 100 });
    expect((await caught(gw.queryTransaction({ transactionNo: '1' }))).code).toBe('timeout');
    expect(http.count('/tran-query')).toBe(3);
    expect(
      (
        await caught(
          gw.capture({
            amountMinor: 100,
            currency: 'USD',
            settleCurrency: 'USD',
            reference: 'it-to-1',
            terminal: 'ONLINE',
            vaultId: 'pp_00000000000000000000000000000000',
          }),
        )
      ).code,
    ).toBe('outcome_unknown');
    expect(
      (
        await caught(
          gw.securePay({
            amountMinor: 100,
            currency: 'USD',
            settleCurrency: 'USD',
            vendor: 'alipay',
            terminal: 'ONLINE',
            reference: 'it-to-2',
            ipnUrl: 'http://127.0.0.1:9/i',
            callbackUrl: 'http://127.0.0.1:9/c',
          }),
        )
      ).code,
    ).toBe('outcome_unknown');
    expect(http.count('/capture') + http.count('/secure-pay')).toBe(2);
  });

  it('malformed JSON: a read fails `unavailable` without retry; a refund is `outcome_unknown`', async () => {
    sb.setFaults({ all: { malformedJsonRate: 1 } });
    const http = countingHttp();
    const p = refundablePayment(sb, 4);
    expect(
      (await caught(gatewayFor(sb, { http }).queryTransaction({ transactionNo: p.transactionNo }))).code,
    ).toBe('unavailable');
    expect(http.count('/tran-query')).toBe(1);
    expect((await caught(gatewayFor(sb, { http }).refund(refundOf(p, 100)))).code).toBe('outcome_unknown');
  });

  it('dropped connection after a refund was applied: outcome_unknown, and the refund is findable by refundReference', async () => {
    const http = countingHttp();
    const p = refundablePayment(sb, 5);
    sb.setFaults({ endpoints: { refund: { dropAfterRate: 1 } } });
    const e = await caught(gatewayFor(sb, { http }).refund(refundOf(p, 150, 'RDDROP1')));
    expect(e.code).toBe('outcome_unknown');
    expect(e.message).toMatch(/Do not send it again/);
    expect(http.count('/refund')).toBe(1);
    sb.resetFaults();
    const { transaction } = await gatewayFor(sb).queryTransaction({ transactionNo: p.transactionNo });
    expect(transaction.refunds.find((r) => r.refundReference === 'RDDROP1')?.refundAmountMinor).toBe(150);
  });

  it('dropped connection on reads is retried, then `network`', async () => {
    sb.setFaults({ endpoints: { 'tran-query': { dropAfterRate: 1 } } });
    const http = countingHttp();
    expect((await caught(gatewayFor(sb, { http }).queryTransaction({ transactionNo: '1' }))).code).toBe(
      'network',
    );
    expect(http.count('/tran-query')).toBe(3);
  });

  it('connection refused: read retried then `network`; a refund is "not sent", never outcome_unknown', async () => {
    const port = await new Promise<number>((resolve) => {
      const s = createServer();
      s.listen(0, '127.0.0.1', () => {
        const p = (s.address() as AddressInfo).port;
        s.close(() => resolve(p));
      });
    });
    const http = countingHttp();
    const gw = gatewayFor({ baseUrl: `http://127.0.0.1:${port}` }, { http });
    expect((await caught(gw.queryTransaction({ transactionNo: '1' }))).code).toBe('network');
    expect(http.count('/tran-query')).toBe(3);
    const e = await caught(
      gw.refund({ transactionNo: '1', refundAmountMinor: 1, currency: 'USD', settleCurrency: 'USD' }),
    );
    expect(e.code).toBe('network');
    expect(e.details).toMatchObject({ sent: false });
    expect(http.count('/refund')).toBe(1);
  });
});
