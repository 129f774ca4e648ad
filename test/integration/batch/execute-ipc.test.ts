import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { cliAccount, openCliCore } from '../../../electron/hosts/cli/core';
import type { CliIo } from '../../../electron/hosts/cli/io';
import {
  DEMO_MERCHANT,
  type PaymentRecord,
  type RunningSandbox,
  startSandbox,
} from '../../../electron/sandbox/index';
import type { BatchStatus } from '../../../shared/batch/execution';
import { formatMinor } from '../../../shared/domain/money';

/**
 * The batch execution IPC (issue 27, for the screen that comes later), at handler level: every call
 * through the app core's own dispatcher (contract-checked input and output), against the embedded
 * sandbox over real HTTP and the app's database on a real SQLite file.
 */

let sb: RunningSandbox;
let core: AppCore;
let profileId: string;
const dataDir = mkdtempSync(join(tmpdir(), 'rd-batch-ipc-'));
const progress: BatchStatus[] = [];
let fresh: PaymentRecord[];

const io: CliIo = {
  out: () => undefined,
  err: () => undefined,
  env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
};

async function call<T = unknown>(channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok)
    throw Object.assign(new Error(r.error.message), { code: r.error.code, details: r.error.details });
  return r.value as T;
}

const fileOf = (payments: PaymentRecord[], amount = 100) => ({
  name: 'claims.csv',
  base64: Buffer.from(
    [
      'Transaction No,Refund amount,Currency,Reason',
      ...payments.map((p) => `${p.transactionNo},${formatMinor(amount, p.currency)},${p.currency},recall`),
    ].join('\r\n'),
  ).toString('base64'),
});

async function until(batchId: string, done: (s: BatchStatus) => boolean): Promise<BatchStatus> {
  for (;;) {
    const s = await call<BatchStatus>('refunds.batchStatus', { profileId, batchId });
    if (done(s)) return s;
    await new Promise((r) => setTimeout(r, 50));
  }
}

const refundsOn = (ps: PaymentRecord[]) => {
  const nos = new Set(ps.map((p) => p.transactionNo));
  return sb.state.snapshot().refunds.filter((r) => nos.has(r.transactionNo));
};

beforeAll(async () => {
  sb = await startSandbox({ seed: 909, transactions: 400, refundSettleMs: 30 });
  fresh = sb.state
    .snapshot()
    .payments.filter(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        p.refunds.length === 0 &&
        p.amountMinor >= 1000,
    );
  const account = cliAccount(
    { 'base-url': sb.baseUrl, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
    io,
    dataDir,
  );
  // Loopback custom address declared as a test service (no typed totals needed; live money is below).
  account.profile = { ...account.profile, loopbackMoneyMode: 'test', operatorName: 'ipc clerk' };
  profileId = account.profile.id;
  core = await openCliCore({ dataDir, io, account });
  core.events.subscribe((event, payload) => {
    if (event === 'refunds.batchProgress') progress.push(payload as BatchStatus);
  });
}, 60_000);
afterAll(async () => {
  await core.close();
  await sb.close();
});

describe('refunds.batchStart / batchStatus / batchReport', () => {
  it('executes every row once, reports progress with an ETA, and the report has each refund', async () => {
    const ps = fresh.splice(0, 12);
    sb.setFaults({ endpoints: { refund: { latencyMs: 60 } } });
    try {
      const started = await call<BatchStatus>('refunds.batchStart', { profileId, file: fileOf(ps) });
      expect(started).toMatchObject({ state: 'running', active: true, toSend: 12, pending: 12 });
      const end = await until(started.batchId, (s) => !s.active);
      expect(end).toMatchObject({ state: 'finished', refunded: 12, refused: 0, unknown: 0, pending: 0 });
      expect(refundsOn(ps)).toHaveLength(12);
      expect(progress.some((p) => p.batchId === started.batchId && p.etaMs !== undefined)).toBe(true);
      const report = await call<{ rows: Array<Record<string, unknown>> }>('refunds.batchReport', {
        profileId,
        batchId: started.batchId,
      });
      expect(report.rows).toHaveLength(12);
      for (const r of report.rows)
        expect(r).toMatchObject({
          outcome: expect.stringMatching(/accepted|succeeded/),
          refundTransactionNo: expect.stringMatching(/^\d+$/),
          operator: 'ipc clerk',
        });
      // The same file again: a new batch with nothing to send, every row recognised.
      const again = await call<BatchStatus>('refunds.batchStart', { profileId, file: fileOf(ps) });
      expect(await until(again.batchId, (s) => !s.active)).toMatchObject({ toSend: 0, alreadyDone: 12 });
      expect(refundsOn(ps)).toHaveLength(12);
      // The audit has an entry per row: the refunds' own the first time, and for each row the second
      // batch did not send, one saying why under that batch's id.
      const audit = await call<Array<{ intentId: string; outcome: string; detail?: string }>>('audit.list', {
        profileId,
      });
      const notSent = audit.filter((e) => e.intentId === again.batchId && e.outcome === 'batch_row_not_sent');
      expect(notSent).toHaveLength(12);
      for (const e of notSent) expect(e.detail).toMatch(/^Line \d+ not sent \(already refunded\)/);
    } finally {
      sb.resetFaults();
    }
  });

  it('pause stops taking rows and batchStart with the id resumes it; cancel skips the rest, sending none of it', async () => {
    const ps = fresh.splice(0, 16);
    sb.setFaults({ endpoints: { refund: { latencyMs: 300 } } });
    try {
      const started = await call<BatchStatus>('refunds.batchStart', { profileId, file: fileOf(ps) });
      const paused = await call<BatchStatus>('refunds.batchPause', { profileId, batchId: started.batchId });
      expect(paused).toMatchObject({ state: 'paused', active: false });
      expect(paused.pending).toBeGreaterThan(0);
      expect(refundsOn(ps)).toHaveLength(16 - paused.pending);
      const resumed = await call<BatchStatus>('refunds.batchStart', { profileId, batchId: started.batchId });
      expect(resumed).toMatchObject({ state: 'running', resumed: true });
      expect(await until(started.batchId, (s) => !s.active)).toMatchObject({
        state: 'finished',
        refunded: 16,
      });
      expect(refundsOn(ps)).toHaveLength(16);

      const others = fresh.splice(0, 16);
      const second = await call<BatchStatus>('refunds.batchStart', { profileId, file: fileOf(others) });
      const cancelled = await call<BatchStatus>('refunds.batchCancel', {
        profileId,
        batchId: second.batchId,
      });
      expect(cancelled).toMatchObject({ state: 'cancelled', active: false, pending: 0 });
      expect(cancelled.cancelled).toBeGreaterThan(0);
      expect(refundsOn(others)).toHaveLength(cancelled.refunded);
      await expect(call('refunds.batchStart', { profileId, batchId: second.batchId })).rejects.toMatchObject({
        code: 'conflict',
      });
    } finally {
      sb.resetFaults();
    }
  });

  it('refuses another profile’s batch, an unknown one, a malformed id; live money needs the totals typed', async () => {
    await expect(call('refunds.batchStatus', { profileId, batchId: 'RBNOPE' })).rejects.toMatchObject({
      code: 'not_found',
    });
    await expect(call('refunds.batchStatus', { profileId, batchId: 'RB 1; drop' })).rejects.toMatchObject({
      code: 'invalid_input',
    });
    const ps = fresh.splice(0, 2);
    const s = await call<BatchStatus>('refunds.batchStart', { profileId, file: fileOf(ps) });
    await until(s.batchId, (x) => !x.active);
    await expect(
      call('refunds.batchReport', { profileId: 'another-profile', batchId: s.batchId }),
    ).rejects.toMatchObject({ code: 'conflict' });

    // A desk whose profile is declared live (another process on the same database): without the
    // batch's totals typed again — or with other totals — nothing is sent.
    const live = fresh.splice(0, 2);
    const liveAccount = cliAccount(
      { 'base-url': sb.baseUrl, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
      io,
      dataDir,
    );
    liveAccount.profile = { ...liveAccount.profile, loopbackMoneyMode: 'live' };
    const liveCore = await openCliCore({ dataDir, io, account: liveAccount });
    const before = sb.state.counts().refunds;
    try {
      const start = async (extra: Record<string, unknown>) => {
        const r = await liveCore.dispatch('refunds.batchStart', {
          profileId: liveAccount.profile.id,
          file: fileOf(live),
          ...extra,
        });
        return r.ok ? r.value : r.error;
      };
      expect(await start({})).toMatchObject({ code: 'invalid_input', details: { moneyMoved: 'no' } });
      expect(await start({ typedTotals: ['9.99 USD'] })).toMatchObject({ code: 'invalid_input' });
      expect(sb.state.counts().refunds).toBe(before);
    } finally {
      await liveCore.close();
    }
  });

  it('lists this desk’s batches newest first, a page at a time, with state, counts and totals; a batch’s report opens again from the list; a single desk rejects nothing', async () => {
    const ps = fresh.splice(0, 3);
    const done = await call<BatchStatus>('refunds.batchStart', { profileId, file: fileOf(ps, 150) });
    await until(done.batchId, (x) => !x.active);
    const all: BatchStatus[] = [];
    let before: string | undefined;
    for (;;) {
      const page = await call<{ batches: BatchStatus[]; next?: string }>('refunds.batchList', {
        profileId,
        limit: 2,
        ...(before ? { before } : {}),
      });
      expect(page.batches.length).toBeLessThanOrEqual(2);
      all.push(...page.batches);
      if (!page.next) break;
      before = page.next;
    }
    // Every batch of the earlier tests and this one, once each, newest first.
    expect(all.length).toBeGreaterThanOrEqual(6);
    expect(new Set(all.map((b) => b.batchId)).size).toBe(all.length);
    const keys = all.map((b) => `${b.createdAt}|${b.batchId}`);
    expect(keys).toEqual([...keys].sort().reverse());
    expect(all[0]).toMatchObject({
      batchId: done.batchId,
      state: 'finished',
      dataRows: 3,
      refunded: 3,
      operator: 'ipc clerk',
    });
    // Totals per currency, never summed across them (the seed's payments are of several currencies).
    const perCurrency = new Map<string, number>();
    for (const p of ps) perCurrency.set(p.currency, (perCurrency.get(p.currency) ?? 0) + 1);
    expect(new Map(all[0]!.totals.map((t) => [t.currency, t.rows]))).toEqual(perCurrency);
    for (const t of all[0]!.totals) expect(t.amountMinor).toBe(150 * t.rows);
    expect(all.map((b) => b.state)).toEqual(expect.arrayContaining(['finished', 'cancelled']));
    const report = await call<{ status: BatchStatus; rows: unknown[] }>('refunds.batchReport', {
      profileId,
      batchId: all[0]!.batchId,
    });
    expect(report.rows).toHaveLength(3);
    // No batch waits for a second person on a single desk: listing them answers none, rejecting is refused.
    expect(
      (await call<{ batches: BatchStatus[] }>('refunds.batchList', { profileId, awaitingApproval: true }))
        .batches,
    ).toEqual([]);
    await expect(
      call('refunds.batchReject', { profileId, batchId: done.batchId, comment: 'wrong file' }),
    ).rejects.toMatchObject({
      code: 'invalid_input',
      message: expect.stringMatching(/need a team database/),
    });
  });
});
