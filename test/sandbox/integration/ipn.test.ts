import { afterEach, describe, expect, it } from 'vitest';
import { verifySignature } from '../../../shared/protocol/signing';
import type { IpnLogEntry, RunningSandbox } from '../../../electron/sandbox/index';
import {
  DEMO,
  PATHS,
  VALID_CARD,
  admin,
  call,
  paidPayment,
  securePayParams,
  startIpnListener,
  startTestSandbox,
  waitFor,
  type IpnListener,
} from './helpers';

let sb: RunningSandbox | undefined;
let listener: IpnListener | undefined;
afterEach(async () => {
  await sb?.close();
  await listener?.close();
  sb = undefined;
  listener = undefined;
});

async function pay(s: RunningSandbox, ipnUrl: string): Promise<string> {
  const env = await call(s, PATHS.securePay, securePayParams({ ipnUrl, note: 'thanks' }));
  const cashierUrl = String(env.result?.cashierUrl);
  await fetch(`${cashierUrl}/pay`, { method: 'POST', redirect: 'manual' });
  return String(env.result?.transactionNo);
}

describe('IPN delivery', () => {
  it('payment IPN: form-urlencoded, signed with the merchant token, time in UTC+8', async () => {
    listener = await startIpnListener();
    sb = await startTestSandbox();
    const no = await pay(sb, listener.url);
    const ipn = await waitFor(() => listener!.received[0]);
    expect(verifySignature(ipn, DEMO.token)).toBe(true);
    expect(ipn).toMatchObject({
      transactionNo: no,
      status: 'success',
      amount: '10.00',
      currency: 'USD',
      settleCurrency: 'USD',
      note: 'thanks',
    });
    expect(ipn.time).toMatch(/^\d{14}$/);
    const paidAt = sb.state.payment(no)!.paidAt!;
    const utc8 = new Date(paidAt + 8 * 3_600_000).toISOString().replace(/\D/g, '').slice(0, 14);
    expect(ipn.time).toBe(utc8);
    expect(verifySignature({ ...ipn, amount: '11.00' }, DEMO.token)).toBe(false);
  });

  it('retries until the body is exactly "success", and logs every attempt', async () => {
    listener = await startIpnListener((n) => (n <= 2 ? 'fail' : n === 3 ? 'success\n' : 'success'));
    sb = await startTestSandbox({ ipnSchedule: [10, 20] });
    const no = await pay(sb, listener.url);
    await waitFor(() => (listener!.received.length >= 4 ? true : undefined));
    await sb.ipnIdle();
    const log = sb.ipnLog().filter((e) => e.transactionNo === no);
    expect(log.map((e) => [e.attempt, e.outcome, e.final])).toEqual([
      [1, 'rejected', false],
      [2, 'rejected', false],
      [3, 'rejected', false],
      [4, 'delivered', true],
    ]);
    expect(new Set(listener.received.map((r) => r.verifySign)).size).toBe(1);
    const viaAdmin = await admin(sb, 'GET', 'ipn-log');
    expect((viaAdmin.json as { entries: IpnLogEntry[] }).entries.length).toBe(4);
  });

  it('gives up after 8 attempts', async () => {
    listener = await startIpnListener(() => 'nope');
    sb = await startTestSandbox({ ipnSchedule: [5] });
    const no = await pay(sb, listener.url);
    await waitFor(() => (sb!.ipnLog().some((e) => e.final) ? true : undefined));
    const log = sb.ipnLog().filter((e) => e.transactionNo === no);
    expect(log.length).toBe(8);
    expect(log.at(-1)).toMatchObject({ attempt: 8, outcome: 'rejected', final: true });
    expect(listener.received.length).toBe(8);
  });

  it('an unreachable listener is an error attempt, retried', async () => {
    sb = await startTestSandbox({ ipnSchedule: [5] });
    listener = await startIpnListener();
    const deadUrl = listener.url;
    await listener.close();
    listener = undefined;
    await pay(sb, deadUrl);
    await waitFor(() => (sb!.ipnLog().length >= 2 ? true : undefined));
    expect(sb.ipnLog()[0]).toMatchObject({ outcome: 'error', final: false });
  });

  it('refund IPN goes to the refund’s ipnUrl (else the payment’s) after settlement', async () => {
    listener = await startIpnListener();
    const paymentListener = await startIpnListener();
    sb = await startTestSandbox({ refundSettleMs: 20 });
    try {
      const no = await paidPayment(sb, { ipnUrl: paymentListener.url });
      await waitFor(() => paymentListener.received[0]);
      const capture = paymentListener.received[0]!;
      // Capture (v4) IPNs carry completedAt (ISO UTC) instead of time.
      expect(capture.completedAt).toMatch(/Z$/);
      expect(capture.time).toBeUndefined();
      const r1 = await call(sb, PATHS.refund, {
        transactionNo: no,
        refundAmount: '10.00',
        currency: 'USD',
        settleCurrency: 'USD',
        refundReference: 'RD-A',
        ipnUrl: listener.url,
      });
      const r2 = await call(sb, PATHS.refund, {
        transactionNo: no,
        refundAmount: '5.00',
        currency: 'USD',
        settleCurrency: 'USD',
      });
      const own = await waitFor(() => listener!.received[0]);
      expect(verifySignature(own, DEMO.token)).toBe(true);
      expect(own).toMatchObject({
        transactionType: 'refund',
        refundTransactionNo: r1.result?.refundTransactionNo,
        refundReference: 'RD-A',
        refundAmount: '10.00',
        transactionNo: no,
        status: 'success',
        currency: 'USD',
        settleCurrency: 'USD',
      });
      expect(own.time).toMatch(/^\d{14}$/);
      const fallback = await waitFor(() =>
        paymentListener.received.find((r) => r.transactionType === 'refund'),
      );
      expect(fallback.refundTransactionNo).toBe(r2.result?.refundTransactionNo);
      expect(verifySignature(fallback, DEMO.token)).toBe(true);
    } finally {
      await paymentListener.close();
    }
  });

  it('3-D Secure and vault IPNs carry customerNo and vaultId', async () => {
    listener = await startIpnListener();
    sb = await startTestSandbox();
    const cust = await call(sb, PATHS.customers, {
      timestamp: '2024-01-01T00:00:00Z',
      firstName: 'A',
      lastName: 'B',
      email: 'a@b.co',
      countryCode: 'GB',
    });
    const customerNo = String(cust.customer?.customerNo);
    const env = await call(sb, PATHS.capture, {
      amount: '3.00',
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'creditcard',
      terminal: 'ONLINE',
      reference: 'IPN-3DS',
      cardNumber: '4000000000003220',
      ...VALID_CARD,
      customerNo,
      creditType: 'vault',
      ipnUrl: listener.url,
    });
    expect(env.result?.customerNo).toBe(customerNo);
    await fetch(`${String(env.result?.authUrl)}/approve`, { method: 'POST', redirect: 'manual' });
    const ipn = await waitFor(() => listener!.received[0]);
    expect(ipn).toMatchObject({ status: 'success', customerNo, transactionNo: env.result?.transactionNo });
    expect(ipn.vaultId).toMatch(/^pp_[0-9a-f]{32}$/);
  });
});
