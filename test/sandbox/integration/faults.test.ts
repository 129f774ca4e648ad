import { afterAll, beforeAll, afterEach, describe, expect, it } from 'vitest';
import type { FaultConfig, RunningSandbox } from '../../../electron/sandbox/index';
import {
  DEMO,
  PATHS,
  admin,
  call,
  paidPayment,
  postRaw,
  securePayParams,
  startIpnListener,
  startTestSandbox,
  waitFor,
} from './helpers';
import { signParams } from '../../../shared/protocol/signing';

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startTestSandbox({ adminSecret: 'test-secret' });
});
afterAll(() => sb.close());
afterEach(() => {
  sb.resetFaults();
});

const signed = (params: Record<string, string>) =>
  JSON.stringify(signParams({ merchantNo: DEMO.merchantNo, storeNo: DEMO.storeNo, ...params }, DEMO.token));
const refundBody = (transactionNo: string, amount = '10.00') =>
  signed({ transactionNo, refundAmount: amount, currency: 'USD', settleCurrency: 'USD' });
const refundCount = async (transactionNo: string) =>
  (await call(sb, PATHS.tranQuery, { transactionNo })).result?.refundInfo?.length;

describe('admin endpoint', () => {
  it('requires the secret', async () => {
    expect((await admin(sb, 'GET', 'faults', undefined, 'wrong')).status).toBe(401);
    const res = await fetch(`${sb.baseUrl}/__admin/faults`);
    expect(res.status).toBe(401);
    expect(sb.adminSecret).toBe('test-secret');
  });
  it('GET/POST/DELETE faults; invalid patches are refused', async () => {
    const set = await admin(sb, 'POST', 'faults', {
      endpoints: { refund: { latencyMs: 5 } },
      ipnFailRate: 0.5,
    });
    expect(set.status).toBe(200);
    expect((set.json as FaultConfig).endpoints.refund).toEqual({ latencyMs: 5 });
    await admin(sb, 'POST', 'faults', { endpoints: { refund: { http5xxRate: 0 } } });
    expect(((await admin(sb, 'GET', 'faults')).json as FaultConfig).endpoints.refund).toEqual({
      latencyMs: 5,
      http5xxRate: 0,
    });
    expect((await admin(sb, 'POST', 'faults', { all: { http5xxRate: 2 } })).status).toBe(400);
    expect((await admin(sb, 'POST', 'faults', { endpoints: { nope: {} } })).status).toBe(400);
    expect((await admin(sb, 'POST', 'faults', { bogus: 1 })).status).toBe(400);
    expect(((await admin(sb, 'DELETE', 'faults')).json as FaultConfig).ipnFailRate).toBe(0);
  });
  it('state, transaction view and completing an open payment', async () => {
    const st = (await admin(sb, 'GET', 'state')).json as { seed: number; counts: { payments: number } };
    expect(st.seed).toBe(7);
    const env = await call(
      sb,
      PATHS.securePay,
      securePayParams({ terminal: 'YIP', vendor: 'venmo', callbackUrl: '' }),
    );
    const no = String(env.result?.transactionNo);
    expect(((await admin(sb, 'GET', `transactions/${no}`)).json as { status: string }).status).toBe('init');
    expect((await admin(sb, 'POST', `transactions/${no}/complete`, { outcome: 'maybe' })).status).toBe(400);
    expect(
      (
        (await admin(sb, 'POST', `transactions/${no}/complete`, { outcome: 'success' })).json as {
          status: string;
        }
      ).status,
    ).toBe('success');
    expect((await admin(sb, 'POST', `transactions/${no}/complete`, { outcome: 'failed' })).status).toBe(409);
    expect((await admin(sb, 'GET', 'transactions/1')).status).toBe(404);
  });
});

describe('fault knobs', () => {
  it('latency', async () => {
    await admin(sb, 'POST', 'faults', { endpoints: { 'tran-query': { latencyMs: 150 } } });
    const t0 = Date.now();
    await call(sb, PATHS.tranQuery, { transactionNo: '1' });
    expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
    const t1 = Date.now();
    await call(sb, PATHS.transList, { startDate: '20240101', endDate: '20240101' });
    expect(Date.now() - t1).toBeLessThan(140);
  });
  it('HTTP 5xx, before handling: nothing changes', async () => {
    const no = await paidPayment(sb);
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    const res = await postRaw(sb, PATHS.refund, refundBody(no));
    expect(res.status).toBe(503);
    sb.resetFaults();
    expect(await refundCount(no)).toBe(0);
  });
  it('000000 and 000080, before handling: nothing changes', async () => {
    const no = await paidPayment(sb);
    for (const [knob, code] of [
      ['systemErrorRate', '000000'],
      ['upstreamErrorRate', '000080'],
    ] as const) {
      sb.setFaults({ endpoints: { refund: { [knob]: 1 } } });
      expect(JSON.parse((await postRaw(sb, PATHS.refund, refundBody(no))).text)).toMatchObject({
        ret_code: code,
      });
      sb.resetFaults();
    }
    expect(await refundCount(no)).toBe(0);
  });
  it('malformed JSON body, after handling: the refund was applied', async () => {
    const no = await paidPayment(sb);
    sb.setFaults({ endpoints: { refund: { malformedJsonRate: 1 } } });
    const res = await postRaw(sb, PATHS.refund, refundBody(no));
    expect(res.status).toBe(200);
    expect(() => JSON.parse(res.text) as unknown).toThrow();
    sb.resetFaults();
    expect(await refundCount(no)).toBe(1);
  });
  it('drop after refund: the client sees a socket error, a following tran-query shows the refund', async () => {
    const no = await paidPayment(sb);
    await admin(sb, 'POST', 'faults', { endpoints: { refund: { dropAfterRate: 1 } } });
    const body = signed({
      transactionNo: no,
      refundAmount: '25.00',
      currency: 'USD',
      settleCurrency: 'USD',
      refundReference: 'RD-DROP',
    });
    await expect(postRaw(sb, PATHS.refund, body)).rejects.toThrow();
    await admin(sb, 'DELETE', 'faults');
    const q = await call(sb, PATHS.tranQuery, { transactionNo: no });
    expect(q.result?.refundInfo).toMatchObject([{ refundReference: 'RD-DROP', refundAmount: '25.00' }]);
    // Other endpoints were not affected by the refund-only fault.
    expect(q.ret_code).toBe('000100');
  });
  it('hold: a refund held on the way lands when released, after its client gave up; other requests pass', async () => {
    const no = await paidPayment(sb);
    const held = sb.hold('refund');
    const body = signed({
      transactionNo: no,
      refundAmount: '4.00',
      currency: 'USD',
      settleCurrency: 'USD',
      refundReference: 'RD-HELD',
    });
    const gaveUp = new AbortController();
    const sent = fetch(`${sb.baseUrl}${PATHS.refund}`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body,
      signal: gaveUp.signal,
    });
    await held.arrived;
    gaveUp.abort();
    await expect(sent).rejects.toThrow();
    sb.resetFaults(); // a reset does not let it go: it is still on its way
    expect(await refundCount(no)).toBe(0);
    // Only the next request was held: another refund goes straight through.
    expect(JSON.parse((await postRaw(sb, PATHS.refund, refundBody(no, '1.00'))).text)).toMatchObject({
      ret_code: '000100',
    });
    await held.release();
    const q = await call(sb, PATHS.tranQuery, { transactionNo: no });
    expect(q.result?.refundInfo).toHaveLength(2);
    expect(q.result?.refundInfo).toEqual(
      expect.arrayContaining([expect.objectContaining({ refundReference: 'RD-HELD', refundAmount: '4.00' })]),
    );
  });
  it('"all" applies to every endpoint; an endpoint entry overrides it', async () => {
    sb.setFaults({ all: { systemErrorRate: 1 }, endpoints: { 'tran-query': { systemErrorRate: 0 } } });
    expect((await call(sb, PATHS.transList, { startDate: '20240101', endDate: '20240101' })).ret_code).toBe(
      '000000',
    );
    expect((await call(sb, PATHS.tranQuery, { transactionNo: '1' })).ret_code).toBe('000021');
  });
  it('fractional rates are seeded: about the right share fails', async () => {
    sb.setFaults({ endpoints: { 'tran-query': { upstreamErrorRate: 0.5 } } });
    const codes = await Promise.all(
      Array.from({ length: 200 }, () =>
        call(sb, PATHS.tranQuery, { transactionNo: '1' }).then((e) => e.ret_code),
      ),
    );
    const failed = codes.filter((c) => c === '000080').length;
    expect(failed).toBeGreaterThan(60);
    expect(failed).toBeLessThan(140);
  });
  it('IPN delay and injected IPN failures', async () => {
    const listener = await startIpnListener();
    const s2 = await startTestSandbox({ ipnSchedule: [10], faults: { ipnDelayMs: 150, ipnFailRate: 1 } });
    try {
      const env = await call(s2, PATHS.securePay, securePayParams({ ipnUrl: listener.url }));
      const t0 = Date.now();
      await fetch(`${String(env.result?.cashierUrl)}/pay`, { method: 'POST', redirect: 'manual' });
      await waitFor(() => (s2.ipnLog().length >= 2 ? true : undefined));
      expect(Date.now() - t0).toBeGreaterThanOrEqual(140);
      expect(s2.ipnLog()[0]).toMatchObject({ outcome: 'injected-failure', attempt: 1 });
      expect(listener.received.length).toBe(0);
      s2.setFaults({ ipnFailRate: 0 });
      await waitFor(() => listener.received[0]);
      await s2.ipnIdle();
      expect(s2.ipnLog().at(-1)).toMatchObject({ outcome: 'delivered', final: true });
    } finally {
      await s2.close();
      await listener.close();
    }
  });
});
