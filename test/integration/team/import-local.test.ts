import { mkdtempSync } from 'node:fs';
import { hostname, tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { openTeamStorage } from '../../../electron/core/adapters/team-storage';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { runCli } from '../../../electron/hosts/cli/main';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox/index';
import { createFakeLogger } from '../../fakes/logger';
import { freshPayment, startRefundSandbox } from '../refunds/harness';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * Issue 26 item 7: a desk that kept refunds in its own file switches to team mode and imports them once
 * (`cli team import-local`), with their history and audit, marked as imported from that desk; a second
 * run imports nothing; while one of them is unresolved nothing is imported and the message lists it.
 * A real PostgreSQL, the CLI, the sandbox over real HTTP.
 */
const PW = 'Al1ce-import-pw!';
let cluster: TestCluster;
let db: string;
let owner: string;
let sb: RunningSandbox;
const used = new Set<string>();
const url = () => cluster.loginUrl('alice', PW, db);
const dir = () => mkdtempSync(join(tmpdir(), 'rd-import-'));

beforeAll(async () => {
  cluster = await startPostgres();
  db = `import_${process.pid}`;
  owner = await cluster.createDatabase(db);
  await migratePostgres({ connectionString: owner });
  await cluster.createLogin('alice', PW);
  await addPerson({ connectionString: owner }, { login: 'alice', role: 'maker', limits: [] });
  sb = await startRefundSandbox();
}, 90_000);
afterAll(async () => {
  await sb?.close();
  cluster?.stop();
});
afterEach(() => void sb.setFaults({}));

function io(): CliIo & { stdout: string[]; stderr: string[]; all(): string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    all: () => [...stdout, ...stderr].join('\n'),
    out: (l) => void stdout.push(l),
    err: (l) => void stderr.push(l),
    env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
  };
}
const account = () => [
  '--base-url',
  sb.baseUrl,
  '--merchant',
  DEMO_MERCHANT.merchantNo,
  '--store',
  DEMO_MERCHANT.storeNo,
];
/** A refund made by the desk on its own (no --database-url): kept in its SQLite file. */
async function localRefund(dataDir: string, tx: string, extra: string[] = []) {
  const o = io();
  const code = await runCli(
    [
      'refund',
      ...account(),
      '--transaction-no',
      tx,
      '--amount',
      '1.00',
      '--currency',
      'USD',
      '--reason',
      'local',
      '--yes',
      '--json',
      '--data-dir',
      dataDir,
      ...extra,
    ],
    o,
  );
  return { code, out: o.stdout.join('\n'), all: o.all() };
}
const importLocal = async (dataDir: string) => {
  const o = io();
  const code = await runCli(['team', 'import-local', '--data-dir', dataDir, '--database-url', url()], o);
  return { code, out: o.all() };
};

async function asOwner<T>(fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: owner });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}
const count = (sql: string, params: unknown[]) =>
  asOwner(async (c) => Number((await c.query<{ n: string }>(sql, params)).rows[0]!.n));

/** What the desk's own file holds: its refunds (with their events) and its refunds' audit. */
async function localJournal(dataDir: string) {
  const s = openAppStorage({ dataDir, now: Date.now, log: createFakeLogger() });
  try {
    const refunds = refundStoreOn(s.intents);
    return { intents: await refunds.list(), audit: await refunds.audit.list() };
  } finally {
    s.close();
  }
}

describe('cli team import-local', () => {
  it('imports the desk’s refunds once, with their history and audit, marked as imported from the desk; a second run imports nothing', async () => {
    const data = dir();
    const a = freshPayment(sb, used);
    const b = freshPayment(sb, used);
    expect((await localRefund(data, a.transactionNo)).code).toBe(0);
    expect((await localRefund(data, b.transactionNo)).code).toBe(0);
    // A refusal is in the audit only (nothing sent): more than the payment has.
    expect((await localRefund(data, b.transactionNo, ['--amount', '999999.00'])).code).not.toBe(0);
    const local = await localJournal(data);
    expect(local.intents).toHaveLength(2);
    const ids = local.intents.map((i) => i.id).sort();

    // Opening the team storage on this folder says what is still to do.
    const before = await openTeamStorage({
      dataDir: data,
      now: Date.now,
      log: createFakeLogger(),
      database: { connectionString: url(), deskId: 'desk-x' },
    });
    try {
      expect(before.problems()).toContainEqual({
        name: 'team-import',
        detail: expect.stringMatching(
          /holds 2 refunds made before team mode .*cli team import-local --data-dir/,
        ),
      });
    } finally {
      await before.close();
    }

    const first = await importLocal(data);
    expect(first, first.out).toMatchObject({ code: 0 });
    expect(first.out).toMatch(/^2 refunds of .* imported into postgres:\/\/alice@/m);
    expect(first.out).not.toContain(PW);
    const rows = await asOwner(
      async (c) =>
        (
          await c.query<{
            id: string;
            state: string;
            amount_minor: string;
            desk: string;
            file: string;
            created_by: string;
          }>(
            `SELECT id, state, amount_minor, data -> 'importedFrom' ->> 'desk' AS desk, data -> 'importedFrom' ->> 'file' AS file,
                    created_by FROM refund_desk.intents WHERE id = ANY($1::text[]) ORDER BY id`,
            [ids],
          )
        ).rows,
    );
    expect(rows.map((r) => r.id)).toEqual(ids);
    for (const r of rows) {
      const mine = local.intents.find((i) => i.id === r.id)!;
      expect(r).toMatchObject({
        state: mine.state,
        amount_minor: '100',
        desk: `cli@${hostname()}`,
        created_by: 'alice',
      });
      expect(r.file).toMatch(/^[0-9a-f]{32}$/);
    }
    // The history came along (each event of the file, then `imported`), and the audit: every entry of the
    // file (the refusal too), plus one `imported` entry per refund.
    const eventsHere = await count(
      `SELECT count(*) AS n FROM refund_desk.intent_events WHERE intent_id = ANY($1::text[])`,
      [ids],
    );
    expect(eventsHere).toBeGreaterThanOrEqual(2 * 2 + 2);
    expect(
      await count(
        `SELECT count(*) AS n FROM refund_desk.intent_events WHERE intent_id = ANY($1::text[]) AND type = 'imported'`,
        [ids],
      ),
    ).toBe(2);
    const copied = await count(
      `SELECT count(*) AS n FROM refund_desk.audit WHERE data ? 'importedFrom' AND outcome <> 'imported'`,
      [],
    );
    expect(copied).toBe(local.audit.length);
    expect(
      await count(
        `SELECT count(*) AS n FROM refund_desk.audit WHERE outcome = 'refused' AND data ? 'importedFrom'`,
        [],
      ),
    ).toBe(1);
    expect(
      await count(
        `SELECT count(*) AS n FROM refund_desk.audit WHERE outcome = 'imported' AND subject_id = ANY($1::text[])`,
        [ids],
      ),
    ).toBe(2);

    // Again: nothing is imported twice.
    const auditBefore = await count('SELECT count(*) AS n FROM refund_desk.audit', []);
    const second = await importLocal(data);
    expect(second, second.out).toMatchObject({ code: 0 });
    expect(second.out).toMatch(/^0 refunds of .* imported .*; 2 had been imported before/m);
    expect(await count('SELECT count(*) AS n FROM refund_desk.audit', [])).toBe(auditBefore);
    expect(
      await count(`SELECT count(*) AS n FROM refund_desk.intent_events WHERE intent_id = ANY($1::text[])`, [
        ids,
      ]),
    ).toBe(eventsHere);
    expect(
      await count(`SELECT count(*) AS n FROM refund_desk.intents WHERE id = ANY($1::text[])`, [ids]),
    ).toBe(2);

    // The desk stops asking, and the team's list has them.
    const after = await openTeamStorage({
      dataDir: data,
      now: Date.now,
      log: createFakeLogger(),
      database: { connectionString: url(), deskId: 'desk-x' },
    });
    try {
      expect(after.problems().some((p) => p.name === 'team-import')).toBe(false);
      const team = (await refundStoreOn(after.intents).list()).map((i) => i.id);
      expect(team).toEqual(expect.arrayContaining(ids));
    } finally {
      await after.close();
    }
  }, 120_000);

  it('refused while a local refund is unresolved: nothing is imported, the message lists it and says what to do; once resolved it imports', async () => {
    const data = dir();
    const done = freshPayment(sb, used);
    expect((await localRefund(data, done.transactionNo)).code).toBe(0);
    // The request outlives the desk's patience: whether it was applied is not known (exit 6).
    const p = freshPayment(sb, used);
    sb.setFaults({ endpoints: { refund: { latencyMs: 1_500 } } });
    const unknown = await localRefund(data, p.transactionNo, ['--timeout-ms', '300']);
    sb.setFaults({});
    expect(unknown.code, unknown.all).toBe(6);
    const open = (await localJournal(data)).intents.find((i) => i.transactionNo === p.transactionNo)!;
    expect(open.state).toBe('outcome_unknown');

    const refused = await importLocal(data);
    expect(refused.code).toBe(4);
    expect(refused.out).toContain(open.id);
    expect(refused.out).toMatch(
      new RegExp(`${open.id}: payment ${p.transactionNo}, 1\\.00 USD, outcome unknown`),
    );
    expect(refused.out).toMatch(/nothing was imported/);
    expect(refused.out).toMatch(
      /cli check-refund <id> --data-dir .* until it is accepted, rejected or closed as not sent; then run the import again/,
    );
    expect(refused.out).not.toContain(PW);
    const ids = (await localJournal(data)).intents.map((i) => i.id);
    expect(
      await count(`SELECT count(*) AS n FROM refund_desk.intents WHERE id = ANY($1::text[])`, [ids]),
    ).toBe(0);

    // Resolved on the desk itself (by query, never resent), the import goes through.
    const until = Date.now() + 20_000;
    let state = open.state as string;
    while (state === 'outcome_unknown' && Date.now() < until) {
      await new Promise((r) => setTimeout(r, 300));
      await runCli(['check-refund', open.id, ...account(), '--data-dir', data], io());
      state = (await localJournal(data)).intents.find((i) => i.id === open.id)!.state;
    }
    expect(['accepted', 'succeeded']).toContain(state);
    const ok = await importLocal(data);
    expect(ok, ok.out).toMatchObject({ code: 0 });
    expect(
      await count(`SELECT count(*) AS n FROM refund_desk.intents WHERE id = ANY($1::text[])`, [ids]),
    ).toBe(2);
  }, 120_000);
});
