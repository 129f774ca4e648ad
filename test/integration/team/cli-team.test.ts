import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { approveRequest, requestRefund, whoAmI } from '../../../electron/core/adapters/postgres/approvals';
import { DESK_SCHEMA_VERSION } from '../../../electron/core/adapters/postgres/migrations';
import { runCli } from '../../../electron/hosts/cli/main';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { record } from '../../contract/records';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * The team commands of the CLI against a real throw-away PostgreSQL: the administrator's (team migrate,
 * add-person, policy — with the owner's login) and the people's (approvals, reject — each with their own
 * login and password). Passwords are never printed, whatever fails.
 */
let cluster: TestCluster;
let db: string;
let owner: string;
const PW = { alice: 'Al1ce-s3cret!', bob: 'B0b-s3cret%', carol: 'Car0l-s3cret' } as const;
type Person = keyof typeof PW;
const url = (who: Person, password: string = PW[who]) => cluster.loginUrl(who, password, db);

beforeAll(async () => {
  cluster = await startPostgres();
  db = `team_cli_${process.pid}`;
  owner = await cluster.createDatabase(db);
  // The DBA creates the login roles (Refund Desk never sets a person's password).
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
}, 60_000);
afterAll(() => cluster?.stop());

function io(env: Record<string, string> = {}): CliIo & { stdout: string[]; stderr: string[]; all(): string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    all: () => [...stdout, ...stderr].join('\n'),
    out: (l) => void stdout.push(l),
    err: (l) => void stderr.push(l),
    env,
  };
}

async function asLogin<T>(who: Person, fn: (c: pg.Client) => Promise<T>): Promise<T> {
  const c = new pg.Client({ connectionString: url(who) });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return await fn(c);
  } finally {
    await c.end();
  }
}

const ROOT = resolve(import.meta.dirname, '../../..');

describe('cli team (administrator, owner login)', () => {
  it('team migrate creates the schema, functions and groups, and is safe to run twice (spawned CLI, URL from REFUND_DESK_DATABASE_URL)', () => {
    const run = () =>
      spawnSync(process.execPath, ['--import', 'tsx', 'electron/hosts/cli/index.ts', 'team', 'migrate'], {
        cwd: ROOT,
        encoding: 'utf8',
        env: { ...process.env, REFUND_DESK_DATABASE_URL: owner },
      });
    const first = run();
    expect(first.status, first.stderr).toBe(0);
    expect(first.stdout).toMatch(new RegExp(`is now at schema ${DESK_SCHEMA_VERSION} \\(was 0\\)`));
    const second = run();
    expect(second.status, second.stderr).toBe(0);
    expect(second.stdout).toMatch(new RegExp(`is at schema ${DESK_SCHEMA_VERSION}: nothing to migrate`));
  }, 60_000);

  it('team add-person grants the group of an existing login and sets a checker’s limits; usage and missing logins are refused', async () => {
    const o = io();
    expect(await runCli(['team', 'add-person', 'alice', '--role', 'maker', '--database-url', owner], o)).toBe(
      0,
    );
    expect(o.stdout.join('\n')).toMatch(/alice is now a maker/);
    expect(
      await runCli(
        [
          'team',
          'add-person',
          'bob',
          '--role',
          'checker',
          '--approve-up-to',
          '1000.00:USD',
          '--database-url',
          owner,
        ],
        io(),
      ),
    ).toBe(0);
    expect(
      await runCli(
        [
          'team',
          'add-person',
          'carol',
          '--role',
          'checker',
          '--approve-up-to',
          '50.00:USD',
          '--approve-up-to',
          '20000:JPY',
          '--database-url',
          owner,
        ],
        io(),
      ),
    ).toBe(0);
    expect(await asLogin('alice', whoAmI)).toEqual({ login: 'alice', groups: ['refund_maker'], limits: [] });
    expect(await asLogin('bob', whoAmI)).toEqual({
      login: 'bob',
      groups: ['refund_checker'],
      limits: [{ currency: 'USD', upToMinor: 100_000 }],
    });
    expect((await asLogin('carol', whoAmI)).limits).toEqual([
      { currency: 'JPY', upToMinor: 20_000 },
      { currency: 'USD', upToMinor: 5_000 },
    ]);
    // A role change is one answer: viewer, then maker again (the other group is revoked).
    expect(
      await runCli(['team', 'add-person', 'alice', '--role', 'viewer', '--database-url', owner], io()),
    ).toBe(0);
    expect((await asLogin('alice', whoAmI)).groups).toEqual(['refund_viewer']);
    expect(
      await runCli(['team', 'add-person', 'alice', '--role', 'maker', '--database-url', owner], io()),
    ).toBe(0);
    expect((await asLogin('alice', whoAmI)).groups).toEqual(['refund_maker']);

    const missing = io();
    expect(
      await runCli(['team', 'add-person', 'zed', '--role', 'maker', '--database-url', owner], missing),
    ).toBe(3);
    expect(missing.stderr.join('\n')).toMatch(/no login role "zed": the DBA creates it first/);
    const bad = io();
    expect(await runCli(['team', 'add-person', 'bob', '--role', 'boss', '--database-url', owner], bad)).toBe(
      2,
    );
    expect(bad.stderr.join('\n')).toMatch(/--role must be one of viewer, maker, checker/);
    expect(
      await runCli(
        [
          'team',
          'add-person',
          'alice',
          '--role',
          'maker',
          '--approve-up-to',
          '5.00:USD',
          '--database-url',
          owner,
        ],
        io(),
      ),
    ).toBe(2);
    expect(
      await runCli(
        [
          'team',
          'add-person',
          'bob',
          '--role',
          'checker',
          '--approve-up-to',
          '5.001:USD',
          '--database-url',
          owner,
        ],
        io(),
      ),
    ).toBe(2);
    expect(
      await runCli(['team', 'add-person', 'bob', '--role', 'checker', '--database-url', owner], io()),
    ).toBe(2);
  });

  it('team policy stores the account’s threshold in the database: above it a refund cannot be sent, only requested', async () => {
    const o = io();
    expect(
      await runCli(
        [
          'team',
          'policy',
          '--merchant',
          '200043',
          '--store',
          '300014',
          '--approval-above',
          '100.00:USD',
          '--database-url',
          owner,
        ],
        o,
      ),
    ).toBe(0);
    expect(o.stdout.join('\n')).toMatch(/Refunds above 100.00 USD .* requests expire after 24 hours/);
    expect(
      await runCli(
        [
          'team',
          'policy',
          '--merchant',
          '200043',
          '--store',
          '300014',
          '--approval-above',
          '100:USD',
          '--expire-hours',
          '0',
          '--database-url',
          owner,
        ],
        io(),
      ),
    ).toBe(2);
    const rows = await asLogin(
      'alice',
      async (c) =>
        (
          await c.query(
            'SELECT environment, approval_above_minor, expire_hours, set_by FROM refund_desk.approval_policies',
          )
        ).rows,
    );
    expect(rows).toEqual([
      { environment: '*', approval_above_minor: '10000', expire_hours: 24, set_by: 'postgres' },
    ]);
    // The database applies it to a desk's write (the maker's own connection).
    await asLogin('alice', async (c) => {
      await expect(
        c.query(`SELECT * FROM refund_desk.insert_intent($1::jsonb, 60000, '{"at":"t","type":"d"}')`, [
          JSON.stringify({ ...snake(record('RPOL', '7001', { amountMinor: 10_001 })) }),
        ]),
      ).rejects.toMatchObject({ code: 'RD010' });
    });
  });
});

/** The fields insert_intent reads (the table's column names) of a port record. */
function snake(r: ReturnType<typeof record>) {
  return {
    id: r.id,
    kind: r.kind,
    state: r.state,
    profile_id: r.profileId,
    profile_name: r.profileName,
    environment: r.environment,
    base_url: r.baseUrl,
    merchant_no: r.merchantNo,
    store_no: r.storeNo,
    transaction_no: r.transactionNo,
    amount_minor: r.amountMinor,
    currency: r.currency,
    settle_currency: r.settleCurrency,
    operator: r.operator,
    created_at: r.createdAt,
    updated_at: r.updatedAt,
    data: r.data,
  };
}

describe('cli approvals and reject (people, their own logins)', () => {
  it('approvals lists open requests with who asked, where, how much and why; reject declines with a comment', async () => {
    await asLogin('alice', (c) =>
      requestRefund(c, record('RQC1', '8001', { amountMinor: 15_000, operator: 'alice' }), 'double charge'),
    );
    const list = io();
    expect(await runCli(['approvals', '--json', '--database-url', url('bob')], list)).toBe(0);
    const open = JSON.parse(list.stdout.join('\n')) as Array<Record<string, unknown>>;
    expect(open).toHaveLength(1);
    expect(open[0]).toMatchObject({
      id: 'RQC1',
      state: 'awaiting_approval',
      transactionNo: '8001',
      amountMinor: 15_000,
      amount: '150.00',
      currency: 'USD',
      reason: 'double charge',
      requestedBy: 'alice',
      // The desk id the maker's connection announced (pg's default application name here).
      requestedDesk: expect.any(String),
    });
    const text = io({ REFUND_DESK_DATABASE_URL: url('carol') });
    expect(await runCli(['approvals'], text)).toBe(0);
    expect(text.stdout.join('\n')).toMatch(
      /RQC1 {2}awaiting_approval {2}150\.00 USD {2}payment 8001 .* by alice/,
    );

    // A maker may not reject; a request that does not exist is exit 3; a checker rejects with a reason.
    const maker = io();
    expect(await runCli(['reject', 'RQC1', '--reason', 'no', '--database-url', url('alice')], maker)).toBe(4);
    expect(maker.stderr.join('\n')).toMatch(
      /may not do this .*permission denied for function reject_request/,
    );
    expect(await runCli(['reject', 'NOPE', '--reason', 'no', '--database-url', url('carol')], io())).toBe(3);
    expect(await runCli(['reject', 'RQC1', '--database-url', url('carol')], io())).toBe(2);
    const ok = io();
    expect(
      await runCli(['reject', 'RQC1', '--reason', 'duplicate', '--database-url', url('carol')], ok),
    ).toBe(0);
    expect(ok.stdout.join('\n')).toMatch(
      /Rejected RQC1 \(150\.00 USD, requested by alice\): nothing was sent/,
    );
    const again = io();
    expect(
      await runCli(['reject', 'RQC1', '--reason', 'duplicate', '--database-url', url('bob')], again),
    ).toBe(4);
    expect(again.stderr.join('\n')).toMatch(/is declined, not awaiting approval \(by carol\)/);
    const audit = await asLogin(
      'bob',
      async (c) =>
        (
          await c.query(
            `SELECT outcome, by_login, desk_id, detail FROM refund_desk.audit WHERE subject_id = 'RQC1' ORDER BY id`,
          )
        ).rows,
    );
    expect(audit.map((a) => `${a['outcome']}:${a['by_login']}`)).toEqual([
      'approval_requested:alice',
      'approval_declined:carol',
    ]);
    expect(audit[1]).toMatchObject({ desk_id: expect.stringMatching(/^cli@/), detail: 'duplicate' });
    const none = io();
    expect(await runCli(['approvals', '--database-url', url('bob')], none)).toBe(0);
    expect(none.stdout).toEqual(['No open requests for approval.']);

    // Approved (the database part of approve-and-send): still open until the approver's desk sends it.
    await asLogin('alice', (c) =>
      requestRefund(c, record('RQC2', '8002', { amountMinor: 20_000 }), 'goodwill'),
    );
    await expect(asLogin('carol', (c) => approveRequest(c, 'RQC2'))).rejects.toMatchObject({
      code: 'forbidden',
      message: expect.stringMatching(/above your approval limit/),
    });
    const approved = await asLogin('bob', (c) => approveRequest(c, 'RQC2'));
    expect(approved).toMatchObject({
      approvedBy: 'bob',
      requestedBy: 'alice',
      intent: { state: 'approved' },
    });
    const still = io();
    expect(await runCli(['approvals', '--json', '--database-url', url('carol')], still)).toBe(0);
    expect(JSON.parse(still.stdout.join('\n'))).toMatchObject([
      { id: 'RQC2', state: 'approved', approvedBy: 'bob' },
    ]);
  });
});

describe('the password is never printed', () => {
  const SECRET = 'Zq9-never-show-me';
  it('a wrong password in the URL: refused (exit 4), password not echoed', async () => {
    const o = io();
    expect(await runCli(['approvals', '--database-url', url('bob', SECRET)], o)).toBe(4);
    expect(o.all()).toMatch(/refused this login: check the login and password/);
    expect(o.all()).not.toContain(SECRET);
  });

  it('PGPASSWORD is used when the URL has none; a wrong one is refused without being echoed', async () => {
    const bare = cluster.loginUrl('bob', '', db).replace('bob:@', 'bob@');
    expect(await runCli(['approvals', '--database-url', bare], io({ PGPASSWORD: PW.bob }))).toBe(0);
    const o = io({ PGPASSWORD: SECRET });
    expect(await runCli(['approvals', '--database-url', bare], o)).toBe(4);
    expect(o.all()).not.toContain(SECRET);
  });

  it('an unreachable server (exit 5) and a malformed URL (exit 2) do not echo it either; without any URL: exit 2', async () => {
    const down = io();
    const closed = `postgres://bob:${SECRET}@127.0.0.1:9/${db}`;
    expect(await runCli(['approvals', '--database-url', closed], down)).toBe(5);
    expect(down.all()).toMatch(/cannot reach the team database at postgres:\/\/bob@127\.0\.0\.1:9/);
    expect(down.all()).not.toContain(SECRET);
    const bad = io();
    expect(
      await runCli(['reject', 'X', '--reason', 'r', '--database-url', `postgres://bob:${SECRET}@[::1`], bad),
    ).toBe(2);
    expect(bad.all()).toMatch(/not a valid address/);
    expect(bad.all()).not.toContain(SECRET);
    const missing = io();
    expect(await runCli(['approvals'], missing)).toBe(2);
    expect(missing.all()).toMatch(/REFUND_DESK_DATABASE_URL/);
  });

  it('success output names the database without the password', async () => {
    const o = io();
    expect(
      await runCli(
        ['team', 'migrate', '--database-url', owner.replace('postgres@', `postgres:${SECRET}@`)],
        o,
      ),
    ).toBe(0);
    expect(o.all()).toMatch(/postgres:\/\/postgres@127\.0\.0\.1/);
    expect(o.all()).not.toContain(SECRET);
  });
});
