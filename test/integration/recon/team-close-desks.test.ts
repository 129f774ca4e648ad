/**
 * Month-end close on the controller's desk, end to end through IPC (issue 28 item 7 on issue 26's desks):
 * two app cores with two data folders on one real PostgreSQL (a throw-away cluster), each person on
 * their own login, each desk with its own embedded Demo sandbox over real HTTP (same seed, same
 * account). alice (maker) runs a reconciliation on desk 1 and works its exceptions; bob (checker) on
 * desk 2, which never held the run, lists it as awaiting sign-off for his profile of the same account,
 * opens it — the same figures, the exceptions with alice's notes, the audit — and signs. Desk 1 then
 * shows the signature and the same content hash and refuses changes; alice's own sign attempt is
 * refused by the database, in its words. A profile of another account on desk 2 is refused the run.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresCloseStore } from '../../../electron/core/adapters/postgres/close-store';
import { createPgPool } from '../../../electron/core/adapters/postgres/connection';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { DEMO_MERCHANT } from '../../../electron/sandbox';
import type { Output } from '../../../shared/ipc/contract';
import type { InvokeChannel } from '../../../shared/ipc/channels';
import { createFakeLogger } from '../../fakes/logger';
import { startPostgres, type TestCluster } from '../../support/postgres';

const PW = { alice: 'alice-close-desks', bob: 'bob-close-desks' } as const;
type Person = keyof typeof PW;
let cluster: TestCluster;
let db: string;
const cores: AppCore[] = [];
const dirs: string[] = [];

beforeAll(async () => {
  cluster = await startPostgres();
  db = `close_desks_${process.pid}`;
  const owner = { connectionString: await cluster.createDatabase(db) };
  await migratePostgres(owner);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(owner, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(owner, { login: 'bob', role: 'checker', limits: [] });
}, 90_000);
afterAll(async () => {
  for (const c of cores) await c.close();
  cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

/** A person's desk: its own data folder, its own Demo sandbox, the team database on their login. */
async function desk(who: Person, deskId: string) {
  const dataDir = mkdtempSync(join(tmpdir(), `rd-close-desk-${who}-`));
  dirs.push(dataDir);
  const core = await createNodeCore({
    host: 'browser',
    dataDir,
    log: createFakeLogger(),
    demo: { transactions: 60, refundSettleMs: 20, ipnSchedule: [10] },
    gateway: { timeoutMs: 2_000, retry: { retries: 0 } },
    team: { url: cluster.loginUrl(who, PW[who], db), deskId },
  });
  cores.push(core);
  const profileId = core.profiles.profiles.active()!.id;
  const call = async <C extends InvokeChannel>(channel: C, input: unknown): Promise<Output<C>> => {
    const r = await core.dispatch(channel, input);
    if (!r.ok) throw Object.assign(new Error(`${channel}: ${r.error.code} ${r.error.message}`), r.error);
    return r.value as Output<C>;
  };
  return { core, profileId, call };
}

/** Asks again until `f` gives a value (publishing follows a run's end in the background). */
async function until<T>(f: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 400; i++) {
    const v = await f();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('gave up waiting');
}

describe('the controller’s desk: a run another desk ran, through IPC', () => {
  it('lists, opens (same figures, notes, audit) and signs it; the clerk’s desk then shows it signed and cannot edit', async () => {
    const d1 = await desk('alice', 'desk-1');
    const d2 = await desk('bob', 'desk-2');
    // Desk 2 also has a profile of another account: it must not see nor open desk 1's run.
    const other = await d2.call('profiles.save', {
      name: 'Second store',
      merchantNo: '200101',
      storeNo: '300101',
      environment: 'custom',
      baseUrl: 'http://127.0.0.1:1',
    });

    // A ledger of three rows: one matches, one has another amount, one the service does not know.
    const paid = d1.core
      .demoSandbox()!
      .state.snapshot()
      .payments.filter(
        (p) =>
          p.status === 'success' &&
          p.currency === 'USD' &&
          p.refunds.length === 0 &&
          p.merchantNo === DEMO_MERCHANT.merchantNo &&
          p.storeNo === DEMO_MERCHANT.storeNo,
      );
    const [a, b] = paid;
    const rows = [
      {
        line: 2,
        transactionNo: a!.transactionNo,
        amountMinor: a!.amountMinor,
        currency: 'USD',
        status: 'paid',
      },
      {
        line: 3,
        transactionNo: b!.transactionNo,
        amountMinor: b!.amountMinor + 150,
        currency: 'USD',
        status: 'paid',
      },
      { line: 4, transactionNo: '299999999999999999', amountMinor: 900, currency: 'USD', status: 'paid' },
    ];
    const { runId } = await d1.call('reconciliation.create', {
      profileId: d1.profileId,
      label: 'june.csv',
      file: {
        name: 'june.csv',
        encoding: 'utf-8',
        delimiter: ',',
        dataRows: rows.length,
        decimal: '.',
        decimalSource: 'detected',
        dateOrder: 'ymd',
        dateOrderSource: 'default',
      },
      mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Currency' },
      options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
    });
    await d1.call('reconciliation.addInput', { profileId: d1.profileId, runId, rows });
    await d1.call('reconciliation.start', { profileId: d1.profileId, runId });
    await until(async () => {
      const v = await d1.call('reconciliation.get', { profileId: d1.profileId, runId });
      return v.progress.phase === 'done' ? v : undefined;
    });

    // The clerk works an exception on desk 1.
    const mine = await d1.call('reconciliation.exceptions', { profileId: d1.profileId, runId });
    expect(mine.exceptions.map((e) => e.item.outcome).sort()).toEqual([
      'amount_mismatch',
      'missing_at_service',
    ]);
    const fee = mine.exceptions.find((e) => e.item.outcome === 'amount_mismatch')!;
    await d1.call('reconciliation.updateException', {
      profileId: d1.profileId,
      runId,
      exceptionId: fee.id,
      version: fee.version,
      state: 'explained',
      owner: 'Alice',
      note: 'Shipping fee of 1.50 booked on its own line.',
    });

    // Desk 2 lists it for its Demo profile (the same account), not for the profile of another account.
    const waiting = await until(async () => {
      const r = await d2.call('reconciliation.awaitingSignOff', { profileId: d2.profileId });
      return r.runs.length > 0 ? r.runs : undefined;
    });
    expect(waiting).toEqual([
      expect.objectContaining({
        runId,
        label: 'june.csv',
        publishedBy: 'alice',
        publishedDesk: 'desk-1',
        items: 3,
        exceptionItems: 2,
        local: false,
      }),
    ]);
    expect(await d2.call('reconciliation.awaitingSignOff', { profileId: other.id })).toEqual({ runs: [] });
    expect(
      (await d1.call('reconciliation.awaitingSignOff', { profileId: d1.profileId })).runs.map((r) => [
        r.runId,
        r.local,
      ]),
    ).toEqual([[runId, true]]);

    // Opened with the profile of another account: refused in words, on every channel, nothing read.
    for (const channel of [
      'reconciliation.get',
      'reconciliation.report',
      'reconciliation.exceptions',
      'reconciliation.audit',
    ] as const)
      expect(await d2.core.dispatch(channel, { profileId: other.id, runId })).toMatchObject({
        ok: false,
        error: { code: 'conflict', message: expect.stringMatching(/is of another account \(merchant /) },
      });
    expect(
      await d2.core.dispatch('reconciliation.signOff', {
        profileId: other.id,
        runId,
        comment: 'June closed.',
        open: [],
      }),
    ).toMatchObject({ ok: false, error: { code: 'conflict' } });

    // Opened on desk 2 like a local run: ended, with the figures desk 1 shows, read from the published copy.
    const view = await d2.call('reconciliation.get', { profileId: d2.profileId, runId });
    expect(view).toMatchObject({
      runId,
      profileId: d2.profileId,
      progress: { state: 'completed', phase: 'done' },
      published: { by: 'alice', desk: 'desk-1', heldItems: 2 },
    });
    const theirs = await d1.call('reconciliation.report', { profileId: d1.profileId, runId });
    const ours = await d2.call('reconciliation.report', { profileId: d2.profileId, runId });
    expect(ours.summary).toEqual(theirs.summary);
    expect(ours.facts).toEqual(theirs.facts);
    expect(ours.statement).toEqual(theirs.statement);
    expect(ours.items).toBe(3);
    expect(ours.run.counts).toEqual(theirs.run.counts);
    const held = await d2.call('reconciliation.items', {
      profileId: d2.profileId,
      runId,
      offset: 0,
      limit: 10,
    });
    const all = await d1.call('reconciliation.items', {
      profileId: d1.profileId,
      runId,
      offset: 0,
      limit: 10,
    });
    expect(held).toEqual({
      items: all.items.filter((i) => i.outcome !== 'matched'),
      total: 2,
      nextOffset: null,
    });

    // The clerk's note and owner, and the audit with her login and desk.
    const seen = await d2.call('reconciliation.exceptions', { profileId: d2.profileId, runId });
    expect(seen.exceptions.find((e) => e.id === fee.id)).toMatchObject({
      state: 'explained',
      owner: 'Alice',
      notes: [{ text: 'Shipping fee of 1.50 booked on its own line.' }],
    });
    const audit = await d2.call('reconciliation.audit', { profileId: d2.profileId, runId });
    expect(audit.entries).toEqual([
      expect.objectContaining({
        action: 'update',
        exceptionId: fee.id,
        login: 'alice',
        desk: 'desk-1',
        from: 'open',
        to: 'explained',
        note: 'Shipping fee of 1.50 booked on its own line.',
      }),
    ]);

    // A manual match with a service payment needs the run's matched rows: refused on desk 2, in words.
    const unknown = seen.exceptions.find((e) => e.item.outcome === 'missing_at_service')!;
    expect(
      await d2.core.dispatch('reconciliation.matchException', {
        profileId: d2.profileId,
        runId,
        exceptionId: unknown.id,
        version: unknown.version,
        kind: 'payment',
        id: paid[2]!.transactionNo,
        reason: 'Same order.',
      }),
    ).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/does not hold run .* matched rows/) },
    });

    // alice is a maker: the database refuses her sign-off, and the app passes its words on.
    const refused = await d1.core.dispatch('reconciliation.signOff', {
      profileId: d1.profileId,
      runId,
      comment: 'June closed.',
      open: seen.outstanding,
    });
    expect(refused).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    if (!refused.ok)
      expect(refused.error.message).toMatch(/permission denied for function sign_recon_run|not a checker/);

    // bob signs on desk 2, with the open ones listed.
    const signed = await d2.call('reconciliation.signOff', {
      profileId: d2.profileId,
      runId,
      comment: 'June closed; the unknown payment is carried.',
      open: seen.outstanding,
    });
    expect(signed).toMatchObject({ by: expect.any(String), openAtSignOff: seen.outstanding });
    expect((await d2.call('reconciliation.awaitingSignOff', { profileId: d2.profileId })).runs).toEqual([]);

    // Both desks show the signature and the same content hash, intact.
    const there = await d1.call('reconciliation.exceptions', { profileId: d1.profileId, runId });
    const here = await d2.call('reconciliation.exceptions', { profileId: d2.profileId, runId });
    expect(there.signOff).toEqual(signed);
    expect(there).toMatchObject({ contentHash: signed.contentHash, intact: true });
    expect(here).toMatchObject({ contentHash: signed.contentHash, intact: true });

    // Desk 1 can no longer change it; the audit ends with bob's sign-off from desk 2.
    const late = await d1.core.dispatch('reconciliation.updateException', {
      profileId: d1.profileId,
      runId,
      exceptionId: unknown.id,
      version: unknown.version,
      note: 'late',
    });
    expect(late).toMatchObject({ ok: false, error: { code: 'conflict' } });
    if (!late.ok) expect(late.error.message).toMatch(/signed by .*a signed run cannot change/);
    const after = await d1.call('reconciliation.audit', { profileId: d1.profileId, runId });
    expect(after.entries.map((e) => [e.action, e.login, e.desk])).toEqual([
      ['update', 'alice', 'desk-1'],
      ['sign_off', 'bob', 'desk-2'],
    ]);
  }, 120_000);

  it('hostile payloads: another account’s run, a run published without its account, malformed ids and extra fields are refused; the same account under another profile id opens', async () => {
    const d1 = await desk('alice', 'desk-3');
    const d2 = await desk('bob', 'desk-4');
    const second = {
      name: 'Second store',
      merchantNo: '200101',
      storeNo: '300101',
      environment: 'custom',
      baseUrl: 'http://127.0.0.1:1',
    };
    // The same account on both desks, under each desk's own profile id.
    const s1 = await d1.call('profiles.save', second);
    const s2 = await d2.call('profiles.save', { ...second, name: 'Store two (controller)' });
    await d1.call('profiles.setToken', { id: s1.id, token: 'tok-second-0001' });
    expect(s1.id).not.toBe(s2.id);
    // A run of that account on desk 1 (nothing answers there: it ends with its rows not checked).
    const { runId } = await d1.call('reconciliation.create', {
      profileId: s1.id,
      label: 'second.csv',
      file: {
        name: 'second.csv',
        encoding: 'utf-8',
        delimiter: ',',
        dataRows: 1,
        decimal: '.',
        decimalSource: 'detected',
        dateOrder: 'ymd',
        dateOrderSource: 'default',
      },
      mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Currency' },
      options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
    });
    await d1.call('reconciliation.addInput', {
      profileId: s1.id,
      runId,
      rows: [
        { line: 2, transactionNo: '297553638300708562', amountMinor: 100, currency: 'USD', status: 'paid' },
      ],
    });
    await d1.call('reconciliation.start', { profileId: s1.id, runId });
    const listed = await until(async () => {
      const r = await d2.call('reconciliation.awaitingSignOff', { profileId: s2.id });
      return r.runs.find((x) => x.runId === runId);
    });
    expect(listed).toMatchObject({ publishedDesk: 'desk-3', local: false });

    // Desk 2's Demo profile is another account: not listed, not opened, not signed.
    expect(
      (await d2.call('reconciliation.awaitingSignOff', { profileId: d2.profileId })).runs.map((r) => r.runId),
    ).not.toContain(runId);
    for (const [channel, extra] of [
      ['reconciliation.get', {}],
      ['reconciliation.items', { offset: 0, limit: 10 }],
      ['reconciliation.exceptions', {}],
      ['reconciliation.updateException', { exceptionId: 'i0', version: 0, note: 'x' }],
      ['reconciliation.signOff', { comment: 'closed', open: ['i0'] }],
    ] as const)
      expect(await d2.core.dispatch(channel, { profileId: d2.profileId, runId, ...extra })).toMatchObject({
        ok: false,
        error: { code: 'conflict', message: expect.stringContaining('merchant 200101, store 300101') },
      });
    // …while its profile for that account opens it.
    expect(await d2.call('reconciliation.get', { profileId: s2.id, runId })).toMatchObject({
      runId,
      profileId: s2.id,
      published: { desk: 'desk-3' },
    });

    // A run published without its account (as desks did before it was recorded): no desk but its own opens it.
    const theirs = await d1.call('reconciliation.report', { profileId: s1.id, runId });
    const { account: _gone, ...oldFacts } = theirs.facts;
    const pool = createPgPool({
      connectionString: cluster.loginUrl('alice', PW.alice, db),
      deskId: 'desk-old',
    });
    try {
      await createPostgresCloseStore(pool).team!.publish({
        facts: { ...oldFacts, runId: 'RC-OLD-1' },
        summary: theirs.summary,
        statement: theirs.statement,
        items: 0,
        exceptionItems: [],
        recordHash: '0'.repeat(64),
      });
    } finally {
      await pool.end();
    }
    expect(
      await d2.core.dispatch('reconciliation.get', { profileId: s2.id, runId: 'RC-OLD-1' }),
    ).toMatchObject({
      ok: false,
      error: { code: 'conflict', message: expect.stringMatching(/published without its account.*desk-old/) },
    });
    expect(
      (await d2.call('reconciliation.awaitingSignOff', { profileId: s2.id })).runs.map((r) => r.runId),
    ).not.toContain('RC-OLD-1');

    // Unknown runs and profiles, malformed ids, extra fields: refused before anything is read.
    const refusedAs = async (channel: InvokeChannel, input: unknown, code: string) =>
      expect(await d2.core.dispatch(channel, input)).toMatchObject({ ok: false, error: { code } });
    await refusedAs('reconciliation.get', { profileId: s2.id, runId: 'RC-NOT-THERE' }, 'not_found');
    await refusedAs('reconciliation.get', { profileId: 'P-gone', runId }, 'not_found');
    await refusedAs('reconciliation.awaitingSignOff', { profileId: 'P-gone' }, 'not_found');
    await refusedAs('reconciliation.awaitingSignOff', { allProfiles: true }, 'invalid_input');
    await refusedAs(
      'reconciliation.awaitingSignOff',
      { profileId: s2.id, account: { merchantNo: '200101' } },
      'invalid_input',
    );
    await refusedAs('reconciliation.audit', { profileId: s2.id, runId: "x' OR '1'='1" }, 'invalid_input');
    await refusedAs('reconciliation.audit', { profileId: s2.id, runId: 'R'.repeat(65) }, 'invalid_input');
    await refusedAs('reconciliation.audit', { profileId: s2.id, runId, by: 'bob' }, 'invalid_input');
    await refusedAs('reconciliation.get', { profileId: s2.id, runId: ['RC'] }, 'invalid_input');
    // Steering a run is for the desk that holds it: desk 2 cannot re-check or cancel desk 1's run.
    await refusedAs('reconciliation.recheck', { profileId: s2.id, runId }, 'not_found');
    await refusedAs('reconciliation.cancel', { profileId: s2.id, runId }, 'not_found');
  }, 120_000);
});
