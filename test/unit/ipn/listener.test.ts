import { afterEach, describe, expect, it } from 'vitest';
import { signParams } from '../../../shared/protocol/signing';
import { createIpnListener } from '../../../electron/core/adapters/ipn-http-listener';
import type { IpnEvent } from '../../../electron/core/services/ipn/events';
import { createFakeClock } from '../../fakes/clock';
import { createFakeLogger } from '../../fakes/logger';

const TOKEN = 'ipn-test-token-123';
const PAYMENT = {
  amount: '10.00',
  currency: 'USD',
  settleCurrency: 'USD',
  reference: 'r1',
  status: 'success',
  time: '20260115120000',
  transactionNo: '297553638300708562',
};

function setup(
  opts: {
    record?: (e: IpnEvent) => Promise<'recorded' | 'duplicate' | void>;
    eventLogsPerMinute?: number;
  } = {},
) {
  const log = createFakeLogger();
  const recorded: IpnEvent[] = [];
  const hinted: IpnEvent[] = [];
  const listener = createIpnListener({
    clock: createFakeClock(),
    log,
    tokenFor: async (id) => (id === 'P1' ? TOKEN : undefined),
    record: opts.record ?? (async (e) => void recorded.push(e)),
    onEvent: (e) => hinted.push(e),
    badSignatureLogsPerMinute: 2,
    ...(opts.eventLogsPerMinute ? { eventLogsPerMinute: opts.eventLogsPerMinute } : {}),
  });
  return { listener, log, recorded, hinted };
}

const post = (
  url: string,
  body: string,
  type = 'application/x-www-form-urlencoded',
  extra: Record<string, string> = {},
) =>
  fetch(url, { method: 'POST', headers: { 'content-type': type, ...extra }, body }).then(async (r) => ({
    status: r.status,
    text: await r.text(),
  }));

let running: ReturnType<typeof createIpnListener> | undefined;
afterEach(async () => {
  await running?.stop();
  running = undefined;
});

describe('IPN listener', () => {
  it('an IPN whose key the database already holds (an earlier run) is acknowledged but not acted on again', async () => {
    const keys = new Set<string>(['P1|payment|297553638300708562||success']);
    const { listener, hinted } = setup({
      record: async (e) => {
        const key = [e.profileId, e.kind, e.transactionNo, e.refundTransactionNo ?? '', e.status].join('|');
        if (keys.has(key)) return 'duplicate';
        keys.add(key);
        return 'recorded';
      },
    });
    running = listener;
    await listener.start();
    const res = await post(
      listener.urlFor('P1')!,
      new URLSearchParams(signParams(PAYMENT, TOKEN)).toString(),
    );
    expect(res).toEqual({ status: 200, text: 'success' });
    expect(hinted).toEqual([]);
  });

  it('binds to loopback, records a signed IPN, answers `success` and passes it on as a hint', async () => {
    const { listener, recorded, hinted } = setup();
    running = listener;
    const base = await listener.start();
    expect(base).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const url = listener.urlFor('P1')!;
    const res = await post(url, new URLSearchParams(signParams(PAYMENT, TOKEN)).toString());
    expect(res).toEqual({ status: 200, text: 'success' });
    expect(recorded).toEqual([
      expect.objectContaining({
        profileId: 'P1',
        kind: 'payment',
        transactionNo: PAYMENT.transactionNo,
        status: 'success',
      }),
    ]);
    expect(hinted).toHaveLength(1);
    expect(JSON.stringify(recorded)).not.toContain('verifySign');
  });

  it('accepts a JSON body and tells refunds apart', async () => {
    const { listener, recorded } = setup();
    running = listener;
    await listener.start();
    const refund = {
      transactionType: 'refund',
      refundTransactionNo: '397553638300708563',
      refundReference: 'RD1',
      refundAmount: '1.00',
      transactionNo: PAYMENT.transactionNo,
      currency: 'USD',
      settleCurrency: 'USD',
      status: 'success',
      time: '20260115120000',
    };
    const res = await post(
      listener.urlFor('P1')!,
      JSON.stringify(signParams(refund, TOKEN)),
      'application/json',
    );
    expect(res.text).toBe('success');
    expect(recorded[0]).toMatchObject({ kind: 'refund', refundTransactionNo: '397553638300708563' });
  });

  it('deduplicates by state: a resend is acknowledged but not recorded twice', async () => {
    const { listener, recorded, hinted } = setup();
    running = listener;
    await listener.start();
    const body = new URLSearchParams(signParams(PAYMENT, TOKEN)).toString();
    for (let i = 0; i < 3; i += 1) expect((await post(listener.urlFor('P1')!, body)).text).toBe('success');
    expect(recorded).toHaveLength(1);
    expect(hinted).toHaveLength(1);
  });

  it('refuses bad signatures and unknown profiles, logging rate-limited lines without fields', async () => {
    const { listener, log, recorded } = setup();
    running = listener;
    await listener.start();
    const forged = new URLSearchParams({ ...PAYMENT, verifySign: 'f'.repeat(32) }).toString();
    for (let i = 0; i < 5; i += 1)
      expect(await post(listener.urlFor('P1')!, forged)).toEqual({ status: 401, text: 'fail' });
    expect(
      (await post(listener.urlFor('P2')!, new URLSearchParams(signParams(PAYMENT, TOKEN)).toString())).status,
    ).toBe(401);
    expect(recorded).toHaveLength(0);
    const bad = log.lines.filter((l) => l.event === 'ipn.bad_signature');
    expect(bad).toHaveLength(2); // rate limit: 2 per minute in this test
    expect(JSON.stringify(log.lines)).not.toContain('ffffffff');
    expect(JSON.stringify(log.lines)).not.toContain(PAYMENT.reference);
  });

  it('refuses any request that carries an Origin header (a web page, not the service), recording nothing', async () => {
    const { listener, recorded, hinted, log } = setup();
    running = listener;
    await listener.start();
    const body = new URLSearchParams(signParams(PAYMENT, TOKEN)).toString();
    for (const origin of ['https://evil.example', 'null', 'http://127.0.0.1:1234']) {
      expect(
        await post(listener.urlFor('P1')!, body, 'application/x-www-form-urlencoded', { origin }),
      ).toEqual({ status: 403, text: 'fail' });
    }
    expect(recorded).toHaveLength(0);
    expect(hinted).toHaveLength(0);
    expect(log.lines.filter((l) => l.event === 'ipn.foreign_origin')).toHaveLength(2); // rate-limited like forgeries
    expect(JSON.stringify(log.lines)).not.toContain('evil.example');
    // The same signed body without an Origin (server-to-server) is still accepted.
    expect((await post(listener.urlFor('P1')!, body)).text).toBe('success');
  });

  it('rate-limits accepted and duplicate log lines', async () => {
    const { listener, log, recorded } = setup({ eventLogsPerMinute: 2 });
    running = listener;
    await listener.start();
    const body = new URLSearchParams(signParams(PAYMENT, TOKEN)).toString();
    for (let i = 0; i < 6; i += 1) expect((await post(listener.urlFor('P1')!, body)).text).toBe('success');
    expect(recorded).toHaveLength(1);
    expect(log.lines.filter((l) => l.event === 'ipn.received')).toHaveLength(1);
    expect(log.lines.filter((l) => l.event === 'ipn.duplicate')).toHaveLength(2);
  });

  it('does not answer `success` when recording fails (the service will resend)', async () => {
    const { listener, hinted } = setup({ record: async () => Promise.reject(new Error('disk full')) });
    running = listener;
    await listener.start();
    const res = await post(
      listener.urlFor('P1')!,
      new URLSearchParams(signParams(PAYMENT, TOKEN)).toString(),
    );
    expect(res).toEqual({ status: 500, text: 'fail' });
    expect(hinted).toHaveLength(0);
  });

  it('answers 404/405 for anything but POST /ipn/<id>', async () => {
    const { listener } = setup();
    running = listener;
    const base = await listener.start();
    expect((await fetch(`${base}/other`, { method: 'POST' })).status).toBe(404);
    expect((await fetch(`${base}/ipn/P1`)).status).toBe(405);
  });
});
