import { createHash } from 'node:crypto';
import { withProfile } from '../../fakes/scope';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { signingString, signParams } from '../../../shared/protocol/signing';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { createLogger } from '../../../electron/core/adapters/logger';
import type { AppCore } from '../../../electron/core/compose';
import type { HttpClient } from '../../../electron/core/services/gateway/http-port';
import { CARD_SUCCESS, DEMO_MERCHANT } from '../../../electron/sandbox';
import type { EventPayload } from '../../../shared/ipc/contract';

const md5 = (s: string) => createHash('md5').update(s).digest('hex');

/** Every secret-ish string that went over the wire, to look for in the logs afterwards. */
const secrets = new Set<string>([DEMO_MERCHANT.token, md5(DEMO_MERCHANT.token), CARD_SUCCESS]);
const recordingHttp: HttpClient = (() => {
  const inner = createFetchHttpClient();
  return (req) => {
    const body = JSON.parse(req.body) as Record<string, string>;
    if (body.verifySign) secrets.add(body.verifySign);
    const { verifySign: _v, ...rest } = body;
    secrets.add(signingString(rest, DEMO_MERCHANT.token));
    return inner(req);
  };
})();

const lines: string[] = [];
let core: AppCore;
let dataDir: string;
const updates: EventPayload<'transactions.updated'>[] = [];

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rd-full-'));
  core = await createNodeCore({
    host: 'browser',
    dataDir,
    log: createLogger({ sink: (l) => lines.push(l) }),
    http: recordingHttp,
    demo: { transactions: 60, ipnSchedule: [20], refundSettleMs: 30 },
  });
  core.events.subscribe((event, payload) => {
    if (event === 'transactions.updated') updates.push(payload as EventPayload<'transactions.updated'>);
  });
});
afterAll(async () => {
  await core.close();
  rmSync(dataDir, { recursive: true, force: true });
});

/** Calls are for the active profile, as the renderer's are. */
const activeId = () => core.profiles.profiles.active()?.id ?? 'none';
async function call<T>(channel: string, input?: unknown): Promise<T> {
  const r = await core.dispatch(channel, withProfile(channel, input, activeId()));
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

const until = async (cond: () => boolean, ms = 5_000) => {
  const end = Date.now() + ms;
  while (!cond()) {
    if (Date.now() > end) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 20));
  }
};

describe('a full run through the composed core (Demo boot, gateway, IPN listener)', () => {
  it('boots a Demo profile on the embedded sandbox, with IPN on', async () => {
    const list = await call<{
      profiles: { id: string; environment: string; hasToken: boolean; ipnEnabled: boolean }[];
      activeProfileId: string;
    }>('profiles.list');
    expect(list.profiles).toHaveLength(1);
    expect(list.profiles[0]).toMatchObject({ environment: 'demo', hasToken: true, ipnEnabled: true });
    expect(list.activeProfileId).toBe(list.profiles[0]!.id);
    expect((await call<{ mode: string }>('app.info')).mode).toBe('demo');
    expect((await call<{ status: string }>('app.health')).status).toBe('ok');
    expect(
      (await call<{ verdict: string }>('profiles.testConnection', { id: list.activeProfileId })).verdict,
    ).toBe('ok');
  });

  it('looks up by transactionNo, reference and refundTransactionNo, and confirms IPNs with a query', async () => {
    const sb = core.demoSandbox()!;
    const profileId = core.profiles.profiles.active()!.id;
    const ipnUrl = core.profiles.ipnUrlFor(profileId)!;
    expect(ipnUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/ipn\//);
    const seeded = sb.state
      .snapshot()
      .payments.find(
        (p) =>
          p.status === 'success' &&
          p.currency === 'USD' &&
          p.storeNo === DEMO_MERCHANT.storeNo &&
          p.refunds.length === 0,
      )!;

    const byNo = await call<{ kind: string; remainingRefundableMinor: number }>('transactions.lookup', {
      query: ` ${seeded.transactionNo} `,
    });
    expect(byNo).toMatchObject({ kind: 'transactionNo', remainingRefundableMinor: seeded.amountMinor });
    expect((await call<{ kind: string }>('transactions.lookup', { query: seeded.reference })).kind).toBe(
      'reference',
    );

    const gw = core.profiles.gatewayFor(profileId);
    const refund = await gw.refund({
      transactionNo: seeded.transactionNo,
      refundAmountMinor: 100,
      currency: 'USD',
      settleCurrency: seeded.settleCurrency,
      refundReference: 'RDFULL1',
      ipnUrl,
    });
    const byRefund = await call<{
      kind: string;
      matchedRefundTransactionNo: string;
      transaction: { transactionNo: string };
    }>('transactions.lookup', { query: refund.refundTransactionNo });
    expect(byRefund).toMatchObject({
      kind: 'refundTransactionNo',
      matchedRefundTransactionNo: refund.refundTransactionNo,
      transaction: { transactionNo: seeded.transactionNo },
    });
    const missing = await core.dispatch(
      'transactions.lookup',
      withProfile('transactions.lookup', { query: '123456789012345678' }, activeId()),
    );
    expect(missing.ok ? '' : missing.error.code).toBe('not_found');

    const pay = await gw.securePay({
      amountMinor: 2500,
      currency: 'USD',
      settleCurrency: 'USD',
      vendor: 'alipay',
      terminal: 'ONLINE',
      reference: 'full-run-1',
      ipnUrl,
      callbackUrl: 'http://127.0.0.1:9/cb',
    });
    expect(sb.completePayment(pay.transactionNo, 'success')).toBe(true);
    await gw.capture({
      amountMinor: 700,
      currency: 'USD',
      settleCurrency: 'USD',
      reference: 'full-run-2',
      terminal: 'ONLINE',
      ipnUrl,
      card: { number: CARD_SUCCESS, expYear: '2099', expMonth: '12', cvv: '123' },
    });

    await until(() =>
      updates.some(
        (u) => u.transaction.transactionNo === pay.transactionNo && u.transaction.status === 'success',
      ),
    );
    await until(() =>
      updates.some((u) => u.refundTransactionNo === refund.refundTransactionNo && u.confirmed),
    );
    expect(updates.every((u) => u.source === 'ipn')).toBe(true);
  });

  it('refuses a forged IPN', async () => {
    const profileId = core.profiles.profiles.active()!.id;
    const forged = signParams(
      { transactionNo: '297553638300708562', status: 'success', amount: '1.00', currency: 'USD' },
      'not-the-token',
    );
    secrets.add(forged.verifySign!);
    const res = await fetch(core.profiles.ipnUrlFor(profileId)!, {
      method: 'POST',
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams(forged).toString(),
    });
    expect(res.status).toBe(401);
    expect(lines.some((l) => l.includes('ipn.bad_signature'))).toBe(true);
  });

  it('no secret appears in any log line or in the IPN record', async () => {
    const sb = core.demoSandbox()!;
    await sb.ipnIdle();
    await core.profiles.ipnIdle();
    for (const e of sb.ipnLog()) if (e.params.verifySign) secrets.add(e.params.verifySign);
    expect(lines.length).toBeGreaterThan(10);
    expect(secrets.size).toBeGreaterThan(10);
    // The IPN record lives in the app database: its pages and its write-ahead log, read as bytes.
    const db = ['refund-desk.db', 'refund-desk.db-wal']
      .map((f) => join(dataDir, f))
      .filter((f) => existsSync(f))
      .map((f) => readFileSync(f).toString('latin1'));
    expect(db.join('')).toContain('"kind":"payment"');
    const haystack = [...lines, ...db].join('\n');
    for (const s of secrets) expect(haystack.includes(s), `a secret leaked: ${s.slice(0, 6)}…`).toBe(false);
    expect(haystack).not.toMatch(/424242424242/);
  });
});
