import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { DEMO_MERCHANT } from '../../../electron/sandbox';
import { createFakeLogger } from '../../fakes/logger';
import { VALID_SAMPLES } from '../../unit/fuzz/hostile';
import { refundablePayment } from '../gateway/helpers';

/**
 * Every account-scoped call names its profile, and main acts for that profile only — whatever profile
 * is active when the call arrives. Two profiles: the Demo one (A) and a second merchant (B) at an address
 * where nothing answers; B is made active, as a person switching profiles would.
 */
let core: AppCore;
let demoId: string;
let otherId: string;

async function call<T>(channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
  return r.value as T;
}

beforeAll(async () => {
  core = await createNodeCore({
    host: 'browser',
    dataDir: mkdtempSync(join(tmpdir(), 'rd-scope-')),
    log: createFakeLogger(),
    demo: { transactions: 120, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 1_500, retry: { retries: 0 } },
  });
  demoId = core.profiles.profiles.active()!.id;
  const other = await call<{ id: string }>('profiles.save', {
    name: 'Second store',
    merchantNo: '200101',
    storeNo: '300101',
    environment: 'custom',
    baseUrl: 'http://127.0.0.1:1',
  });
  otherId = other.id;
  await call('profiles.setToken', { id: otherId, token: 'tok-second-0001' });
  await call('profiles.activate', { id: otherId });
  expect(core.profiles.profiles.active()?.id).toBe(otherId);
});
afterAll(async () => {
  await core.close();
});

describe('one merchant per call', () => {
  it('a lookup and a refresh for profile A answer for A while B is active, and say so', async () => {
    const p = refundablePayment(core.demoSandbox()!);
    const found = await call<{ profileId: string; transaction: { transactionNo: string } }>(
      'transactions.lookup',
      { profileId: demoId, query: p.transactionNo },
    );
    expect(found).toMatchObject({ profileId: demoId, transaction: { transactionNo: p.transactionNo } });
    const refreshed = await call<{ profileId: string; items: { ok: boolean }[] }>('transactions.refresh', {
      profileId: demoId,
      transactionNos: [p.transactionNo],
    });
    expect(refreshed.profileId).toBe(demoId);
    expect(refreshed.items.every((i) => i.ok)).toBe(true);
  });

  it('a call without a profile is refused; a profile that does not exist is not_found, before any network', async () => {
    const p = refundablePayment(core.demoSandbox()!);
    expect(await core.dispatch('transactions.lookup', { query: p.transactionNo })).toMatchObject({
      ok: false,
      error: { code: 'invalid_input' },
    });
    expect(
      await core.dispatch('transactions.lookup', { profileId: 'P-gone', query: p.transactionNo }),
    ).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });

  it('the refund preview names the profile, merchant and address its figures are for, whichever is active', async () => {
    const p = refundablePayment(core.demoSandbox()!);
    const preview = await call<{
      profileId: string;
      profileName: string;
      merchantNo: string;
      baseUrl: string;
    }>('refunds.preview', { profileId: demoId, transactionNo: p.transactionNo });
    expect(preview).toMatchObject({
      profileId: demoId,
      profileName: 'Demo',
      merchantNo: DEMO_MERCHANT.merchantNo,
      baseUrl: core.demoSandbox()!.baseUrl,
    });
  });

  it("a refund goes to the named profile's account; another profile cannot check or close it (conflict)", async () => {
    const p = refundablePayment(core.demoSandbox()!);
    const intent = await call<{ id: string; profileId: string; merchantNo: string }>('refunds.submit', {
      profileId: demoId,
      transactionNo: p.transactionNo,
      amountMinor: 100,
      currency: p.currency,
      reasonCode: 'customer_request',
      reasonNote: '',
      confirmation: {},
      account: { baseUrl: core.demoSandbox()!.baseUrl, merchantNo: DEMO_MERCHANT.merchantNo },
    });
    expect(intent).toMatchObject({ profileId: demoId, merchantNo: DEMO_MERCHANT.merchantNo });
    expect(await core.dispatch('refunds.checkAgain', { profileId: otherId, id: intent.id })).toMatchObject({
      ok: false,
      error: { code: 'conflict', details: { ownerProfileId: demoId } },
    });
    expect(
      await core.dispatch('refunds.closeNotSent', {
        profileId: otherId,
        id: intent.id,
        confirmation: 'NOT SENT',
      }),
    ).toMatchObject({ ok: false, error: { code: 'conflict' } });
    // The lists say whose records they hold: A's has it, B's does not, "all profiles" does.
    const ids = async (scope: object) =>
      (await call<{ id: string }[]>('refunds.list', scope)).map((i) => i.id);
    expect(await ids({ profileId: demoId })).toContain(intent.id);
    expect(await ids({ profileId: otherId })).not.toContain(intent.id);
    expect(await ids({ allProfiles: true })).toContain(intent.id);
    const audit = await call<{ intentId: string }[]>('audit.list', { profileId: otherId });
    expect(audit.map((a) => a.intentId)).not.toContain(intent.id);
  });

  it('a reconciliation run belongs to its profile: another profile cannot read or steer it', async () => {
    const { runId } = await call<{ runId: string }>('reconciliation.create', {
      ...(VALID_SAMPLES['reconciliation.create'] as object),
      profileId: demoId,
    });
    for (const channel of ['reconciliation.get', 'reconciliation.start', 'reconciliation.cancel'])
      expect(await core.dispatch(channel, { profileId: otherId, runId })).toMatchObject({
        ok: false,
        error: { code: 'conflict', details: { ownerProfileId: demoId } },
      });
    expect(await core.dispatch('reconciliation.get', { profileId: demoId, runId })).toMatchObject({
      ok: true,
    });
  });
});
