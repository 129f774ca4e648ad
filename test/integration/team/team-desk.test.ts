import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { hostname, tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import pg from 'pg';
import Papa from 'papaparse';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION } from '../../../electron/core/adapters/postgres/migrations';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { openTeamStorage } from '../../../electron/core/adapters/team-storage';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { cliAccount, invoke, openCliCore } from '../../../electron/hosts/cli/core';
import { databaseFrom } from '../../../electron/hosts/cli/database';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { runCli } from '../../../electron/hosts/cli/main';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox/index';
import { filterRecord, mergeRefundRecord } from '../../../shared/domain/refund-record';
import type { IntentView } from '../../../shared/domain/refund-intent';
import { contract } from '../../../shared/ipc/contract';
import { createFakeLogger } from '../../fakes/logger';
import { freshPayment, startRefundSandbox } from '../refunds/harness';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * A desk whose journal is the team database: the CLI and the browser host with --database-url against a
 * real throw-away PostgreSQL and the sandbox over real HTTP (through a proxy that counts the refund
 * requests that reach it). The desk's own SQLite file stays in --data-dir and holds no refund.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const run = promisify(execFile);
const PW = { alice: 'Al1ce-team-pw!', bob: 'B0b-team-pw%' } as const;

let cluster: TestCluster;
let db: string;
let owner: string;
let sb: RunningSandbox;
let proxy: { server: Server; base: string; refundsOf: (tx: string) => number };
const used = new Set<string>();
const url = (who: keyof typeof PW, pw: string = PW[who]) => cluster.loginUrl(who, pw, db);

/** Forwards to the sandbox and counts, per payment, the refund requests that reached the service. */
async function countingProxy(target: string) {
  const counts = new Map<string, number>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      if (req.url?.endsWith('/refund')) {
        let tx = 'unparsed';
        try {
          tx = String((JSON.parse(body.toString('utf8')) as { transactionNo?: unknown }).transactionNo);
        } catch {
          // counted as unparsed
        }
        counts.set(tx, (counts.get(tx) ?? 0) + 1);
      }
      const up = request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
        res.writeHead(r.statusCode ?? 502, r.headers);
        r.pipe(res);
      });
      up.on('error', () => res.destroy());
      up.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  const base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return { server, base, refundsOf: (tx: string) => counts.get(tx) ?? 0 };
}

beforeAll(async () => {
  cluster = await startPostgres();
  db = `team_desk_${process.pid}`;
  owner = await cluster.createDatabase(db);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) {
    await cluster.createLogin(login, pw);
    await addPerson({ connectionString: owner }, { login, role: 'maker', limits: [] });
  }
  sb = await startRefundSandbox();
  proxy = await countingProxy(sb.baseUrl);
}, 90_000);
afterAll(async () => {
  await new Promise((r) => proxy?.server.close(r));
  await sb?.close();
  cluster?.stop();
});

function io(env: Record<string, string> = {}): CliIo & { stdout: string[]; stderr: string[]; all(): string } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    all: () => [...stdout, ...stderr].join('\n'),
    out: (l) => void stdout.push(l),
    err: (l) => void stderr.push(l),
    env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token, ...env },
  };
}
const account = ['--base-url', '', '--merchant', DEMO_MERCHANT.merchantNo, '--store', DEMO_MERCHANT.storeNo];
const refundArgs = (tx: string, amount: string, dataDir: string, extra: string[] = []) => [
  'refund',
  ...account.map((a) => (a === '' ? proxy.base : a)),
  '--transaction-no',
  tx,
  '--amount',
  amount,
  '--currency',
  'USD',
  '--reason',
  'team test',
  '--yes',
  '--json',
  '--data-dir',
  dataDir,
  ...extra,
];
const dir = () => mkdtempSync(join(tmpdir(), 'rd-team-desk-'));

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

describe('cli refund --database-url', () => {
  it('below any policy: refunds once, and the intent is in the team database (stamped with the login and desk), not in the SQLite file', async () => {
    const p = freshPayment(sb, used);
    const data = dir();
    const o = io();
    expect(await runCli(refundArgs(p.transactionNo, '1.00', data, ['--database-url', url('alice')]), o)).toBe(
      0,
    );
    const out = JSON.parse(o.stdout.join('\n')) as { intentId: string; outcome: string };
    expect(out.outcome).toBe('accepted');
    expect(proxy.refundsOf(p.transactionNo)).toBe(1);
    const rows = await asOwner(
      async (c) =>
        (
          await c.query(
            'SELECT state, amount_minor, created_by, created_desk FROM refund_desk.intents WHERE id = $1',
            [out.intentId],
          )
        ).rows,
    );
    expect(rows).toEqual([
      { state: 'accepted', amount_minor: '100', created_by: 'alice', created_desk: `cli@${hostname()}` },
    ]);
    const local = openAppStorage({ dataDir: data, now: Date.now, log: createFakeLogger() });
    try {
      expect(await local.intents.get(out.intentId)).toBeUndefined();
      expect((await refundStoreOn(local.intents).audit.list()).length).toBe(0);
    } finally {
      local.close();
    }
    // check-refund finds it through the same database from another data directory.
    const check = io();
    expect(
      await runCli(
        [
          'check-refund',
          out.intentId,
          ...account.map((a) => (a === '' ? proxy.base : a)),
          '--data-dir',
          dir(),
          '--database-url',
          url('bob'),
        ],
        check,
      ),
    ).toBe(0);
    expect(check.stdout.join('\n')).toMatch(new RegExp(`intentId\\s+${out.intentId}`));
  });

  it('two CLI processes with two data directories against one database: a second concurrent refund of one payment is refused, one request reaches the service', async () => {
    const p = freshPayment(sb, used);
    const full = (p.amountMinor / 100).toFixed(2);
    const spawnRefund = (who: keyof typeof PW) =>
      run(
        process.execPath,
        ['--import', 'tsx', 'electron/hosts/cli/index.ts', ...refundArgs(p.transactionNo, full, dir())],
        {
          cwd: ROOT,
          env: {
            ...process.env,
            REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token,
            REFUND_DESK_DATABASE_URL: url(who),
          },
        },
      ).then(
        (r) => ({ code: 0, stdout: r.stdout, stderr: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({
          code: e.code,
          stdout: e.stdout,
          stderr: e.stderr,
        }),
      );
    // Slow refunds: the first request stays at the service while the other process decides.
    sb.setFaults({ endpoints: { refund: { latencyMs: 4_000 } } });
    let results: Array<{ code: number; stdout: string; stderr: string }>;
    try {
      results = await Promise.all([spawnRefund('alice'), spawnRefund('bob')]);
    } finally {
      sb.setFaults({});
    }
    // Refused because the other desk's refund was open (sending) — not because the payment was used up.
    const refused = results.find((r) => r.code === 4);
    expect(refused?.stdout).toMatch(/for this payment is still being sent.*Nothing was sent/);
    const codes = results.map((r) => r.code).sort();
    expect(codes, JSON.stringify(results)).toEqual([0, 4]);
    expect(proxy.refundsOf(p.transactionNo)).toBe(1);
    const rows = await asOwner(
      async (c) =>
        (
          await c.query(
            `SELECT state FROM refund_desk.intents WHERE transaction_no = $1 AND kind = 'refund'`,
            [p.transactionNo],
          )
        ).rows,
    );
    expect(rows).toEqual([{ state: 'accepted' }]);
  }, 120_000);

  it('export audit --database-url has person and desk columns with the login and the desk; the SQLite one with the operator and this machine', async () => {
    const p = freshPayment(sb, used);
    expect(
      await runCli(
        refundArgs(p.transactionNo, '1.00', dir(), ['--database-url', url('bob'), '--operator', 'Bob B.']),
        io(),
      ),
    ).toBe(0);
    const file = join(dir(), 'audit.csv');
    const o = io();
    expect(
      await runCli(
        ['export', 'audit', '--out', file, '--data-dir', dir(), '--database-url', url('alice')],
        o,
      ),
    ).toBe(0);
    const csv = Papa.parse<Record<string, string>>(readFileSync(file, 'utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    });
    expect(csv.meta.fields).toEqual(expect.arrayContaining(['operator', 'person', 'desk']));
    const mine = csv.data.filter((r) => r['transactionNo']?.includes(p.transactionNo));
    expect(mine.length).toBeGreaterThan(0);
    for (const r of mine)
      expect(r).toMatchObject({ operator: 'Bob B.', person: 'bob', desk: `cli@${hostname()}` });

    // One desk's file: the operator it recorded, and this machine.
    const local = dir();
    const q = freshPayment(sb, used);
    expect(await runCli(refundArgs(q.transactionNo, '1.00', local, ['--operator', 'Carol']), io())).toBe(0);
    const localFile = join(local, 'audit.csv');
    expect(await runCli(['export', 'audit', '--out', localFile, '--data-dir', local], io())).toBe(0);
    const rows = Papa.parse<Record<string, string>>(readFileSync(localFile, 'utf8').replace(/^\uFEFF/, ''), {
      header: true,
      skipEmptyLines: true,
    }).data;
    expect(rows.length).toBeGreaterThan(0);
    for (const r of rows) expect(r).toMatchObject({ operator: 'Carol', person: 'Carol', desk: hostname() });
  }, 60_000);

  it('a wrong password or an unreachable address: a message that says what to do, exit 5, no password anywhere', async () => {
    const SECRET = 'Wr0ng-never-print';
    const p = freshPayment(sb, used);
    const wrong = io();
    expect(
      await runCli(
        refundArgs(p.transactionNo, '1.00', dir(), ['--database-url', url('alice', SECRET)]),
        wrong,
      ),
    ).toBe(5);
    expect(wrong.all()).toMatch(/refused this login: check the login and password/);
    expect(wrong.all()).not.toContain(SECRET);
    const down = io({ REFUND_DESK_DATABASE_URL: `postgres://alice:${SECRET}@127.0.0.1:9/${db}` });
    expect(await runCli(refundArgs(p.transactionNo, '1.00', dir()), down)).toBe(5);
    expect(down.all()).toMatch(
      /Cannot reach the team database at postgres:\/\/alice@127\.0\.0\.1:9\/.*check the address/,
    );
    expect(down.all()).not.toContain(SECRET);
    const exportDown = io();
    expect(
      await runCli(
        [
          'export',
          'audit',
          '--out',
          join(dir(), 'x.csv'),
          '--database-url',
          `postgres://alice:${SECRET}@127.0.0.1:9/${db}`,
        ],
        exportDown,
      ),
    ).toBe(5);
    expect(exportDown.all()).not.toContain(SECRET);
    expect(proxy.refundsOf(p.transactionNo)).toBe(0);
    // --database-url stays refused by refund-batch (batches on the team database come later).
    expect(await runCli(['refund-batch', 'x.csv', '--dry-run', '--database-url', url('alice')], io())).toBe(
      2,
    );
  });
});

describe('team storage', () => {
  it('a database nobody migrated is refused with what to do; a desk older than the database opens read-only and says "update Refund Desk"', async () => {
    const bare = await cluster.createDatabase(`team_bare_${process.pid}`);
    await expect(
      openTeamStorage({
        dataDir: dir(),
        now: Date.now,
        log: createFakeLogger(),
        database: { connectionString: bare, deskId: 'test' },
      }),
    ).rejects.toThrow(/cli team migrate/);
    const older = await openTeamStorage({
      dataDir: dir(),
      now: Date.now,
      log: createFakeLogger(),
      database: { connectionString: url('alice'), deskId: 'old-desk' },
      deskSchemaVersion: DESK_SCHEMA_VERSION - 1,
    });
    try {
      expect(older.untrusted()).toMatch(/newer than this Refund Desk .*update Refund Desk/);
      expect(older.problems()[0]).toMatchObject({ name: 'team-database' });
      // Browsing still works.
      expect((await older.intents.list({ kind: 'refund' })).items.length).toBeGreaterThan(0);
    } finally {
      await older.close();
    }
    const current = await openTeamStorage({
      dataDir: dir(),
      now: Date.now,
      log: createFakeLogger(),
      database: {
        connectionString: cluster.loginUrl('alice', '', db).replace('alice:@', 'alice@'),
        password: PW.alice,
        deskId: 'd1',
      },
    });
    try {
      expect(current.untrusted()).toBeUndefined();
      expect(current.notes?.()[0]!.detail).toMatch(
        new RegExp(
          `postgres://alice@127\\.0\\.0\\.1:${cluster.port}/${db} as alice, schema ${DESK_SCHEMA_VERSION}`,
        ),
      );
      expect(JSON.stringify([current.notes?.(), current.problems()])).not.toContain(PW.alice);
    } finally {
      await current.close();
    }
  });
});

describe('the team database becomes unreachable', () => {
  it('refunds are refused with since when, nothing reaches the service; once the server is back the desk writes again by itself', async () => {
    const data = dir();
    const cliIo = io();
    const acct = cliAccount(
      { 'base-url': proxy.base, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
      cliIo,
      data,
    );
    const core = await openCliCore({
      dataDir: data,
      io: cliIo,
      account: acct,
      database: databaseFrom({ 'database-url': url('alice') }, cliIo),
    });
    const health = async () =>
      (await invoke(core, 'app.health', undefined, contract['app.health'].output)).checks.find(
        (c) => c.name === 'team-database',
      );
    const until = async (what: () => Promise<boolean>, ms: number) => {
      const end = Date.now() + ms;
      while (!(await what()) && Date.now() < end) await new Promise((r) => setTimeout(r, 50));
      return what();
    };
    const submit = (tx: string) =>
      invoke(
        core,
        'refunds.submit',
        {
          profileId: acct.profile.id,
          transactionNo: tx,
          amountMinor: 100,
          currency: 'USD',
          reasonCode: 'other',
          reasonNote: 'offline test',
          confirmation: { typedAmount: '1.00' },
        },
        contract['refunds.submit'].output,
      );
    try {
      expect(await health()).toMatchObject({ ok: true });
      cluster.pause();
      try {
        expect(await until(async () => (await health())?.ok === false, 20_000)).toBe(true);
        const p = freshPayment(sb, used);
        const refused = await submit(p.transactionNo).catch((e: unknown) => e);
        expect(refused).toMatchObject({
          code: 'unavailable',
          message: expect.stringMatching(
            /unreachable since \d\d:\d\d — refunds are refused; browse, search and export still work/,
          ),
        });
        expect(proxy.refundsOf(p.transactionNo)).toBe(0);
        expect((await health())!.detail).toMatch(/unreachable since .*postgres:\/\/alice@127\.0\.0\.1/);
        expect((await health())!.detail).not.toContain(PW.alice);
      } finally {
        cluster.resume();
      }
      expect(await until(async () => (await health())?.ok === true, 30_000)).toBe(true);
      const q = freshPayment(sb, used);
      expect((await submit(q.transactionNo)).state).toBe('accepted');
      expect(proxy.refundsOf(q.transactionNo)).toBe(1);
    } finally {
      await core.close();
    }
  }, 90_000);
});

describe('the browser host with --database-url', () => {
  let child: ChildProcess | undefined;
  afterAll(async () => {
    if (child && child.exitCode === null) {
      const exited = new Promise((r) => child!.once('exit', r));
      child.kill('SIGTERM');
      await exited;
    }
  });

  it('serves the team database’s refunds through its HTTP IPC; a wrong password stops it with exit 5 and no password', async () => {
    const SECRET = 'Wr0ng-host-pw';
    const bad = await run(
      process.execPath,
      [
        '--import',
        'tsx',
        'electron/hosts/web/cli.ts',
        '--port',
        '0',
        '--data-dir',
        dir(),
        '--database-url',
        url('bob', SECRET),
      ],
      { cwd: ROOT },
    ).catch((e: { code: number; stderr: string; stdout: string }) => e);
    expect(bad).toMatchObject({ code: 5 });
    expect((bad as { stderr: string }).stderr).toMatch(/refused this login/);
    const printed = bad as { stdout: string; stderr: string };
    expect(printed.stdout + printed.stderr).not.toContain(SECRET);

    // A refund made by another desk (the CLI, another data directory): the host lists it from the database.
    const p = freshPayment(sb, used);
    expect(
      await runCli(refundArgs(p.transactionNo, '1.00', dir(), ['--database-url', url('alice')]), io()),
    ).toBe(0);
    const ids = await asOwner(async (c) =>
      (await c.query<{ id: string }>(`SELECT id FROM refund_desk.intents WHERE kind = 'refund'`)).rows.map(
        (r) => r.id,
      ),
    );
    expect(ids.length).toBeGreaterThan(0);
    const proc = spawn(
      process.execPath,
      ['--import', 'tsx', 'electron/hosts/web/cli.ts', '--port', '0', '--data-dir', dir()],
      {
        cwd: ROOT,
        stdio: ['ignore', 'pipe', 'pipe'],
        env: { ...process.env, REFUND_DESK_DATABASE_URL: url('bob') },
      },
    );
    child = proc;
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const started = await new Promise<string>((done, fail) => {
      let out = '';
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        if (/#secret=\S+\n[\s\S]*\n/.test(out)) done(out);
      });
      proc.on('exit', (code) => fail(new Error(`the host exited with ${code}: ${stderr}`)));
    });
    expect(started).toMatch(/team database: postgres:\/\/bob@127\.0\.0\.1/);
    expect(started).not.toContain(PW.bob);
    const m = /(http:\/\/127\.0\.0\.1:\d+)\/#secret=(\S+)/.exec(started)!;
    const call = async (channel: string, input: unknown) =>
      (await (
        await fetch(`${m[1]}/ipc/${channel}`, {
          method: 'POST',
          headers: { 'content-type': 'application/json', 'x-refund-desk-secret': m[2]! },
          body: JSON.stringify({ input }),
        })
      ).json()) as { ok: boolean; value: unknown };
    const list = await call('refunds.list', { allProfiles: true });
    expect(list.ok).toBe(true);
    expect((list.value as Array<{ id: string }>).map((i) => i.id).sort()).toEqual([...ids].sort());
    const health = (await call('app.health', undefined)) as {
      value: { checks: Array<{ name: string; ok: boolean }> };
    };
    expect(health.value.checks).toContainEqual(expect.objectContaining({ name: 'team-database', ok: true }));
  }, 120_000);
});

describe('the Refunds list of a team desk', () => {
  it('says who made each refund and at which desk (the database stamps), and "made here" only for this desk’s own', async () => {
    // Another desk: bob through the CLI (desk cli@<machine>, operator name "cli": no --operator, no $USER).
    const theirs = freshPayment(sb, used);
    const cliIo = io();
    expect(
      await runCli(refundArgs(theirs.transactionNo, '1.00', dir(), ['--database-url', url('bob')]), cliIo),
    ).toBe(0);
    const theirId = (JSON.parse(cliIo.stdout.join('\n')) as { intentId: string }).intentId;

    // This desk: alice at the desktop's storage (the team storage hosts open), a desk id with spaces.
    const core = await createNodeCore({
      host: 'browser',
      dataDir: dir(),
      log: createFakeLogger(),
      demo: false,
      background: false,
      team: { url: url('alice'), deskId: 'Front desk 1' },
    });
    try {
      const call = async <T>(channel: string, input?: unknown): Promise<T> => {
        const r = await core.dispatch(channel, input);
        if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
        return r.value as T;
      };
      const profile = await call<{ id: string }>('profiles.save', {
        name: 'Front desk',
        environment: 'custom',
        baseUrl: proxy.base,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        ipnEnabled: false,
        loopbackMoneyMode: 'local',
        operatorName: 'Alice A.',
      });
      await call('profiles.setToken', { id: profile.id, token: DEMO_MERCHANT.token });
      const mine = freshPayment(sb, used);
      const made = await call<IntentView>('refunds.submit', {
        profileId: profile.id,
        transactionNo: mine.transactionNo,
        amountMinor: 100,
        currency: 'USD',
        reasonCode: 'customer_request',
        reasonNote: 'made at this desk',
        confirmation: {},
      });
      expect(made.state).toBe('accepted');

      const list = await call<IntentView[]>('refunds.list', { profileId: profile.id });
      const byId = new Map(list.map((i) => [i.id, i]));
      expect(byId.get(theirId)).toMatchObject({
        operator: 'cli',
        author: { person: 'bob', desk: `cli@${hostname()}` },
        madeHere: false,
      });
      expect(byId.get(made.id)).toMatchObject({
        operator: 'Alice A.',
        author: { person: 'alice', desk: 'Front_desk_1' },
        madeHere: true,
      });
      // The list the Refunds screen shows from it: bob's refund is not "made here", this desk's is.
      const rows = mergeRefundRecord(list, [], profile.id, 'Front desk');
      expect(rows.find((r) => r.key === theirId)).toMatchObject({ madeHere: false });
      expect(rows.find((r) => r.key === made.id)).toMatchObject({ madeHere: true });
      const here = filterRecord(
        rows,
        { status: 'all', currency: 'all', origin: 'here', fromIso: '', toIso: '', text: '' },
        { by: 'at', dir: 'desc' },
      );
      expect(here.map((r) => r.key)).toContain(made.id);
      expect(here.map((r) => r.key)).not.toContain(theirId);
    } finally {
      await core.close();
    }
  }, 90_000);
});
