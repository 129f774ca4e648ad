/**
 * Month-end close in team mode (issue 28 item 7): two desks, each with its own SQLite for run records and
 * the team's real PostgreSQL (a throw-away cluster) for exceptions, notes and sign-offs, each person on
 * their own login. alice (a maker) runs June's reconciliation on her desk and works its exceptions; bob
 * (a checker, the controller) on another desk that never held the run lists it as awaiting sign-off,
 * reads what she worked and signs; her desk then sees the signature, the same content hash, and refuses
 * any change. The service is a fake at the gateway's edge.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPostgresCloseStore } from '../../../electron/core/adapters/postgres/close-store';
import { createPgPool } from '../../../electron/core/adapters/postgres/connection';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import type { QueryKey } from '../../../electron/core/services/gateway/client';
import { createReconciliationService } from '../../../electron/core/services/reconciliation/service';
import { AppError } from '../../../shared/domain/errors';
import type { Transaction } from '../../../shared/domain/transaction';
import type { LedgerRow } from '../../../shared/recon/ledger';
import { startPostgres, type TestCluster } from '../../support/postgres';
import { tx } from '../../unit/recon/fixtures';

const log = { info() {}, warn() {}, error() {} };
const PW = { alice: 'alice-team-close', bob: 'bob-team-close' } as const;
type Person = keyof typeof PW;
let cluster: TestCluster;
let db: string;
const pools: pg.Pool[] = [];
const dirs: string[] = [];
const clock = { now: () => Date.parse('2025-07-02T04:00:00Z') };

beforeAll(async () => {
  cluster = await startPostgres();
  db = `team_close_${process.pid}`;
  await cluster.createDatabase(db);
  const owner = { connectionString: cluster.url(db) };
  await migratePostgres(owner);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(owner, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(owner, { login: 'bob', role: 'checker', limits: [] });
}, 60_000);
afterAll(async () => {
  for (const p of pools) await p.end();
  cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

const at = (day: string) => `${day}T04:00:00.000Z`;
const paid = (no: string, amountMinor: number, day: string): Transaction =>
  tx(no, amountMinor, 'USD', { createdAt: at(day), paidAt: at(day) });
const payments = [
  paid('100001', 100, '2025-06-10'),
  paid('100002', 250, '2025-06-12'),
  paid('100003', 300, '2025-06-30'),
];
const ledger: LedgerRow[] = [
  {
    line: 2,
    transactionNo: '100001',
    amountMinor: 100,
    currency: 'USD',
    status: 'paid',
    date: '2025-06-10',
    day: '2025-06-10',
  },
  {
    line: 3,
    transactionNo: '100002',
    amountMinor: 200,
    currency: 'USD',
    status: 'paid',
    date: '2025-06-12',
    day: '2025-06-12',
  },
  {
    line: 4,
    transactionNo: '100009',
    amountMinor: 900,
    currency: 'USD',
    status: 'paid',
    date: '2025-06-29',
    day: '2025-06-29',
  },
];
const gateway = {
  async queryTransaction(key: QueryKey) {
    const k = 'transactionNo' in key ? key.transactionNo : '';
    const p = payments.find((x) => x.transactionNo === k);
    if (!p) throw new AppError('not_found', 'no such payment');
    return { transaction: p };
  },
  async listTransactions(range: { startMs: number; endMs: number }) {
    return payments.filter((p) => {
      const ms = Date.parse(p.createdAt ?? '');
      return ms >= range.startMs && ms < range.endMs + 86_400_000;
    });
  },
};

/** A person's desk: its own data folder (SQLite) and the team database on their own login. */
function desk(who: Person) {
  const dataDir = mkdtempSync(join(tmpdir(), `rd-team-close-${who}-`));
  dirs.push(dataDir);
  const storage = openAppStorage({ dataDir, now: clock.now, log });
  const pool = createPgPool({ connectionString: cluster.loginUrl(who, PW[who], db), deskId: `desk-${who}` });
  pools.push(pool);
  const service = createReconciliationService({
    runs: storage.runs,
    closing: createPostgresCloseStore(pool),
    jobs: storage.jobs,
    clock,
    log,
    gatewayFor: () => gateway,
    profile: (id) => ({ id, name: 'Main' }),
    onProgress: () => undefined,
    concurrency: 2,
  });
  return { service, storage };
}

describe('month-end close in team mode', () => {
  it('a controller on another desk lists, reads and signs what the clerk worked; her desk then sees it signed', async () => {
    const alice = desk('alice');
    const bob = desk('bob');
    const { runId } = alice.service.create({
      label: 'june.csv',
      profileId: 'p1',
      file: {
        name: 'june.csv',
        encoding: 'utf-8',
        delimiter: ',',
        dataRows: ledger.length,
        decimal: '.',
        decimalSource: 'detected',
        dateOrder: 'ymd',
        dateOrderSource: 'detected',
      },
      mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Ccy', date: 'Date' },
      options: {
        days: 'service',
        timeZone: 'UTC',
        dateToleranceDays: 1,
        refundLookbackDays: 30,
        period: { from: '2025-06-01', to: '2025-06-30' },
      },
    });
    alice.service.addInput(runId, 'row', ledger);
    alice.service.start(runId);
    await alice.service.settled(runId);

    // Published when it ended: bob's desk, which never held the run, lists it as awaiting sign-off.
    expect(bob.storage.runs.get(runId)).toBeUndefined();
    const waiting = await bob.service.awaitingSignOff();
    expect(waiting.map((r) => [r.runId, r.publishedBy, r.publishedDesk, r.period])).toEqual([
      [runId, 'alice', 'desk-alice', { from: '2025-06-01', to: '2025-06-30' }],
    ]);

    // alice works an exception on her desk; bob's desk reads it.
    const mine = await alice.service.exceptions.list(runId);
    expect(mine.exceptions.map((e) => e.item.outcome).sort()).toEqual([
      'amount_mismatch',
      'missing_at_service',
      'missing_in_ledger',
    ]);
    const fee = mine.exceptions.find((e) => e.item.outcome === 'amount_mismatch')!;
    await alice.service.exceptions.update(
      runId,
      fee.id,
      { version: 0, state: 'written_off', note: 'Shipping fee booked separately.' },
      'Alice',
    );
    const seen = await bob.service.exceptions.list(runId);
    expect(seen.exceptions.find((e) => e.id === fee.id)).toMatchObject({
      state: 'written_off',
      notes: [{ by: 'Alice', text: 'Shipping fee booked separately.' }],
      version: 1,
    });

    // Only a checker signs: alice's login is refused by the database.
    await expect(
      alice.service.exceptions.signOff(runId, { comment: 'June closed.', open: seen.outstanding }, 'Alice'),
    ).rejects.toMatchObject({ code: 'forbidden' });
    const signed = await bob.service.exceptions.signOff(
      runId,
      { comment: 'June closed.', open: seen.outstanding },
      'Bob',
    );
    expect(signed.openAtSignOff).toHaveLength(2);
    expect(await bob.service.awaitingSignOff()).toEqual([]);

    // alice's desk sees the signature, computes the same hash (its own record checked against the
    // published one), and the run refuses her changes.
    const hers = await alice.service.exceptions.list(runId);
    expect(hers.signOff).toEqual(signed);
    expect(await alice.service.exceptions.seal(runId)).toEqual({
      signOff: signed,
      contentHash: signed.contentHash,
      intact: true,
    });
    expect(await bob.service.exceptions.seal(runId)).toMatchObject({
      contentHash: signed.contentHash,
      intact: true,
    });
    const open = hers.exceptions.find((e) => e.state === 'open')!;
    await expect(
      alice.service.exceptions.update(runId, open.id, { version: 0, note: 'late' }, 'Alice'),
    ).rejects.toThrow(/signed by Bob on .*a signed run cannot change/);
    const audit = await bob.service.exceptions.audit(runId);
    expect(audit.map((a) => [a.action, a.login, a.desk])).toEqual([
      ['update', 'alice', 'desk-alice'],
      ['sign_off', 'bob', 'desk-bob'],
    ]);
    alice.storage.close();
    bob.storage.close();
  });
});
