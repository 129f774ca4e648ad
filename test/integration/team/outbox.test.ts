import { type ChildProcess, spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../../electron/core/adapters/postgres/team-admin';
import { DATABASE_FILE } from '../../../electron/core/adapters/sqlite/app-storage';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { openTeamStorage } from '../../../electron/core/adapters/team-storage';
import type { IntentRecord } from '../../../electron/core/services/engine/port';
import { cliAccount, invoke, openCliCore } from '../../../electron/hosts/cli/core';
import { databaseFrom } from '../../../electron/hosts/cli/database';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox/index';
import { newSortableId } from '../../../shared/domain/ids';
import { contract } from '../../../shared/ipc/contract';
import { createFakeLogger } from '../../fakes/logger';
import { freshPayment, startRefundSandbox } from '../refunds/harness';
import { startPostgres, type TestCluster } from '../../support/postgres';

/**
 * Issue 26 item 6: the outcome of a refund already committed as `sending` in the team database, when the
 * database goes away before it is recorded, is kept in the desk's own file (the outbox) and written once
 * the database is back — exactly once, also after the desk was killed, and never over what another desk
 * recorded meanwhile. A real PostgreSQL (paused and resumed with pg_ctl), the sandbox over real HTTP.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const PW = { alice: 'Al1ce-outbox-pw!', bob: 'B0b-outbox-pw%' } as const;

let cluster: TestCluster;
let db: string;
let owner: string;
let sb: RunningSandbox;
const used = new Set<string>();
const url = (who: keyof typeof PW) => cluster.loginUrl(who, PW[who], db);
const dir = () => mkdtempSync(join(tmpdir(), 'rd-outbox-'));

beforeAll(async () => {
  cluster = await startPostgres();
  db = `outbox_${process.pid}`;
  owner = await cluster.createDatabase(db);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) {
    await cluster.createLogin(login, pw);
    await addPerson({ connectionString: owner }, { login, role: 'maker', limits: [] });
  }
  sb = await startRefundSandbox();
}, 90_000);
afterAll(async () => {
  await sb?.close();
  cluster?.stop();
});

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

const until = async (what: () => Promise<boolean> | boolean, ms: number, step = 50) => {
  const end = Date.now() + ms;
  while (!(await what()) && Date.now() < end) await new Promise((r) => setTimeout(r, step));
  return what();
};

/** The team database's record of the refund of `tx` (owner's view), if any. */
const intentOf = (tx: string) =>
  asOwner(
    async (c) =>
      (
        await c.query<{ id: string; state: string; rtn: string | null; lease_expired: boolean }>(
          `SELECT id, state, data ->> 'refundTransactionNo' AS rtn, coalesce(lease_until <= clock_timestamp(), true) AS lease_expired
             FROM refund_desk.intents WHERE kind = 'refund' AND transaction_no = $1`,
          [tx],
        )
      ).rows[0],
  );
const countAudit = (id: string, outcome: string) =>
  asOwner(async (c) =>
    Number(
      (
        await c.query<{ n: string }>(
          'SELECT count(*) AS n FROM refund_desk.audit WHERE subject_id = $1 AND outcome = $2',
          [id, outcome],
        )
      ).rows[0]!.n,
    ),
  );
const countEvents = (id: string, types: string[]) =>
  asOwner(async (c) =>
    Number(
      (
        await c.query<{ n: string }>(
          'SELECT count(*) AS n FROM refund_desk.intent_events WHERE intent_id = $1 AND type = ANY($2::text[])',
          [id, types],
        )
      ).rows[0]!.n,
    ),
  );
/** What waits in a data folder's outbox (read straight from its file). */
function outboxOf(
  dataDir: string,
): Array<{ database: string; op: string; intent_id: string; once_key: string; body: string }> {
  const d = openDatabase(join(dataDir, DATABASE_FILE), MIGRATIONS);
  try {
    return d.all('SELECT database, op, intent_id, once_key, body FROM team_outbox ORDER BY seq');
  } finally {
    d.close();
  }
}

function io(): CliIo {
  return { out: () => undefined, err: () => undefined, env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token } };
}

async function openDesk(dataDir: string, who: keyof typeof PW) {
  const cliIo = io();
  const account = cliAccount(
    { 'base-url': sb.baseUrl, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
    cliIo,
    dataDir,
  );
  const core = await openCliCore({
    dataDir,
    io: cliIo,
    account,
    database: databaseFrom({ 'database-url': url(who) }, cliIo),
  });
  const health = async () =>
    (await invoke(core, 'app.health', undefined, contract['app.health'].output)).checks;
  return { core, account, health };
}

/** Pauses the database as soon as the refund of `tx` is committed as `sending` (the request is out). */
async function pauseOnceSending(tx: string) {
  expect(await until(async () => (await intentOf(tx))?.state === 'sending', 20_000, 20)).toBe(true);
  cluster.pause();
}

afterEach(() => {
  sb.setFaults({});
});

describe('the database goes away after `sending` committed', () => {
  it('the service’s answer lands in the outbox; once the database is back it is written with its refundTransactionNo, once', async () => {
    const data = dir();
    const desk = await openDesk(data, 'alice');
    try {
      const p = freshPayment(sb, used);
      // The request stays at the service long enough for the database to be stopped meanwhile.
      sb.setFaults({ endpoints: { refund: { latencyMs: 3_000 } } });
      const submitted = invoke(
        desk.core,
        'refunds.submit',
        {
          profileId: desk.account.profile.id,
          transactionNo: p.transactionNo,
          amountMinor: 100,
          currency: 'USD',
          reasonCode: 'other',
          reasonNote: 'outbox test',
          confirmation: { typedAmount: '1.00' },
        },
        contract['refunds.submit'].output,
      );
      let intent: Awaited<typeof submitted>;
      try {
        await pauseOnceSending(p.transactionNo);
        // The service answered while the database was down: the person sees the answer.
        intent = await submitted;
        expect(intent).toMatchObject({ state: 'accepted', refundTransactionNo: expect.any(String) });
        const waiting = outboxOf(data);
        expect(waiting.length).toBeGreaterThan(0);
        expect(waiting[0]).toMatchObject({ op: 'transition', intent_id: intent.id });
        const check = (await desk.health()).find((c) => c.name === 'team-outbox');
        expect(check).toMatchObject({
          ok: false,
          detail: expect.stringMatching(/^\d+ outcomes? waiting to be written to the team database/),
        });
        // Nothing new is decided while it is down.
        const q = freshPayment(sb, used);
        await expect(
          invoke(
            desk.core,
            'refunds.submit',
            {
              profileId: desk.account.profile.id,
              transactionNo: q.transactionNo,
              amountMinor: 100,
              currency: 'USD',
              reasonCode: 'other',
              reasonNote: 'offline',
              confirmation: { typedAmount: '1.00' },
            },
            contract['refunds.submit'].output,
          ),
        ).rejects.toMatchObject({ code: 'unavailable' });
      } finally {
        cluster.resume();
      }
      // Back: the supervisor listens again and the outbox is written by itself.
      expect(
        await until(
          async () => (await intentOf(p.transactionNo))?.rtn === intent.refundTransactionNo,
          30_000,
        ),
      ).toBe(true);
      expect(await until(() => outboxOf(data).length === 0, 10_000)).toBe(true);
      expect(['accepted', 'succeeded']).toContain((await intentOf(p.transactionNo))!.state);
      expect(await countAudit(intent.id, 'accepted')).toBe(1);
      expect(await countEvents(intent.id, ['accepted', 'found_by_query'])).toBe(1);
      expect(
        await until(async () => !(await desk.health()).some((c) => c.name === 'team-outbox'), 10_000),
      ).toBe(true);
    } finally {
      await desk.core.close();
    }
  }, 120_000);
});

describe('a desk killed with outcomes waiting', () => {
  let child: ChildProcess | undefined;
  afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
    child = undefined;
  });

  /** A desk process that refunds `tx` while the database is stopped under it, then is killed (SIGKILL). */
  async function killedWithWaiting(data: string, tx: string) {
    sb.setFaults({ endpoints: { refund: { latencyMs: 3_000 } } });
    const proc = spawn(process.execPath, ['--import', 'tsx', 'test/integration/team/outbox-desk.child.ts'], {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: {
        ...process.env,
        OUTBOX_DATA_DIR: data,
        OUTBOX_BASE_URL: sb.baseUrl,
        OUTBOX_TX: tx,
        REFUND_DESK_DATABASE_URL: url('alice'),
      },
    });
    child = proc;
    let stderr = '';
    proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    const line = new Promise<string>((done, fail) => {
      let out = '';
      proc.stdout.on('data', (d: Buffer) => {
        out += d.toString();
        const nl = out.indexOf('\n');
        if (nl >= 0) done(out.slice(0, nl));
      });
      proc.on('exit', (code) => fail(new Error(`the desk exited with ${code}: ${stderr}`)));
    });
    let said: {
      result: { ok: boolean; intent?: { id: string; state: string; refundTransactionNo?: string } };
      health: Array<{ name: string; ok: boolean; detail?: string }>;
    };
    try {
      await pauseOnceSending(tx);
      said = JSON.parse(await line) as typeof said;
      expect(said.result.ok, JSON.stringify(said)).toBe(true);
      expect(said.result.intent).toMatchObject({
        state: 'accepted',
        refundTransactionNo: expect.any(String),
      });
      expect(said.health.find((c) => c.name === 'team-outbox')?.detail).toMatch(/waiting to be written/);
      const exited = new Promise((r) => proc.once('exit', r));
      proc.kill('SIGKILL');
      await exited;
    } finally {
      cluster.resume();
      sb.setFaults({});
    }
    // Still there after the kill: the answer is on this desk's disk, and only there.
    expect(outboxOf(data).length).toBeGreaterThan(0);
    expect((await intentOf(tx))!.state).toBe('sending');
    return said.result.intent!;
  }

  it('the desk’s next start writes what waited, once', async () => {
    const data = dir();
    const p = freshPayment(sb, used);
    const intent = await killedWithWaiting(data, p.transactionNo);
    const log = createFakeLogger();
    const desk = await openTeamStorage({
      dataDir: data,
      now: Date.now,
      log,
      database: { connectionString: url('alice'), deskId: 'restarted' },
    });
    try {
      // Written at start, before the storage is handed over.
      expect(outboxOf(data)).toEqual([]);
      expect(await intentOf(p.transactionNo)).toMatchObject({
        state: 'accepted',
        rtn: intent.refundTransactionNo,
      });
      expect(await countAudit(intent.id, 'accepted')).toBe(1);
      expect(log.lines.some((l) => l.event === 'team.outbox_at_start')).toBe(true);
      expect(desk.problems().some((c) => c.name === 'team-outbox')).toBe(false);
    } finally {
      await desk.close();
    }
    // Opening again writes nothing more.
    const again = await openTeamStorage({
      dataDir: data,
      now: Date.now,
      log: createFakeLogger(),
      database: { connectionString: url('alice'), deskId: 'restarted' },
    });
    await again.close();
    expect(await countAudit(intent.id, 'accepted')).toBe(1);
    expect(await countEvents(intent.id, ['accepted'])).toBe(1);
  }, 120_000);

  it('another desk resolved the refund by query meanwhile: the waiting answer is dropped, not written twice', async () => {
    const data = dir();
    const p = freshPayment(sb, used);
    const intent = await killedWithWaiting(data, p.transactionNo);
    // Another desk (another data folder, another person) takes the refund over once its sender's lease
    // has run out, and finds it at the service by its reference.
    expect(await until(async () => (await intentOf(p.transactionNo))!.lease_expired, 30_000, 200)).toBe(true);
    const other = await openDesk(dir(), 'bob');
    try {
      const checked = await invoke(
        other.core,
        'refunds.checkAgain',
        { profileId: other.account.profile.id, id: intent.id },
        contract['refunds.checkAgain'].output,
      );
      expect(checked).toMatchObject({ refundTransactionNo: intent.refundTransactionNo });
    } finally {
      await other.core.close();
    }
    expect(await countEvents(intent.id, ['found_by_query'])).toBe(1);
    const log = createFakeLogger();
    const desk = await openTeamStorage({
      dataDir: data,
      now: Date.now,
      log,
      database: { connectionString: url('alice'), deskId: 'restarted' },
    });
    await desk.close();
    expect(outboxOf(data)).toEqual([]);
    expect(log.lines).toContainEqual(
      expect.objectContaining({
        event: 'team.outbox_dropped',
        fields: expect.objectContaining({ intentId: intent.id, disagrees: false }),
      }),
    );
    // One acceptance (the other desk's, by query); the same refund number; no disagreement to report.
    expect(await countAudit(intent.id, 'accepted')).toBe(1);
    expect(await countEvents(intent.id, ['accepted', 'found_by_query'])).toBe(1);
    expect(await countAudit(intent.id, 'conflicting_answer')).toBe(0);
    expect((await intentOf(p.transactionNo))!.rtn).toBe(intent.refundTransactionNo);
  }, 120_000);
});

describe('the outbox on the store port', () => {
  const record = (tx: string): IntentRecord => {
    const at = new Date().toISOString();
    return {
      id: newSortableId('RD'),
      kind: 'refund',
      state: 'sending',
      profileId: 'p',
      profileName: 'P',
      environment: 'demo',
      baseUrl: sb.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      transactionNo: tx,
      amountMinor: 100,
      currency: 'USD',
      settleCurrency: 'USD',
      operator: 'alice',
      createdAt: at,
      updatedAt: at,
      checks: 0,
      attempts: 1,
      data: { reasonCode: 'other', reasonNote: 'port test' },
    };
  };
  const open = (dataDir: string, who: keyof typeof PW, log = createFakeLogger()) =>
    openTeamStorage({
      dataDir,
      now: Date.now,
      log,
      database: { connectionString: url(who), deskId: `desk-${who}` },
    });

  it('an answer that disagrees with what another desk recorded is not applied, and one audit entry says so', async () => {
    const dataA = dir();
    const a = await open(dataA, 'alice');
    const r = record(freshPayment(sb, used).transactionNo);
    await a.intents.decide([], (tx) =>
      tx.insert(r, { holder: 'a', ms: 60_000 }, { at: r.createdAt, type: 'decided' }),
    );
    cluster.pause();
    let queued: IntentRecord | undefined;
    try {
      queued = await a.intents.transition({
        id: r.id,
        from: ['sending', 'outcome_unknown'],
        to: 'accepted',
        patch: { data: { refundTransactionNo: 'R-FROM-A' } },
        event: { at: new Date().toISOString(), type: 'accepted' },
        audit: (next) => ({
          kind: 'refund',
          at: next.updatedAt,
          outcome: 'accepted',
          operator: next.operator,
          profileId: next.profileId,
          profileName: next.profileName,
          environment: next.environment,
          subjectId: next.id,
          data: { refundTransactionNo: String(next.data['refundTransactionNo']) },
        }),
      });
      // Kept here, read back as it will be written.
      expect(queued).toMatchObject({ state: 'accepted', data: { refundTransactionNo: 'R-FROM-A' } });
      expect(await a.intents.get(r.id)).toMatchObject({ state: 'accepted' });
      await a.close();
    } finally {
      cluster.resume();
    }
    expect(outboxOf(dataA)).toHaveLength(1);
    // Meanwhile another desk records a different outcome.
    const b = await open(dir(), 'bob');
    try {
      expect(
        await b.intents.transition({
          id: r.id,
          from: ['sending'],
          to: 'rejected',
          patch: { retCode: 'X1', retMsg: 'refused' },
          event: { at: new Date().toISOString(), type: 'rejected' },
        }),
      ).toMatchObject({ state: 'rejected' });
    } finally {
      await b.close();
    }
    for (let i = 0; i < 2; i += 1) {
      const again = await open(dataA, 'alice');
      await again.close();
    }
    expect(outboxOf(dataA)).toEqual([]);
    const rows = await asOwner(
      async (c) =>
        (
          await c.query<{ outcome: string; detail: string; person: string }>(
            `SELECT outcome, detail, by_login AS person FROM refund_desk.audit WHERE subject_id = $1 ORDER BY id`,
            [r.id],
          )
        ).rows,
    );
    expect(rows).toEqual([
      {
        outcome: 'conflicting_answer',
        person: 'alice',
        detail: expect.stringMatching(/accepted \(refundTransactionNo R-FROM-A\).*already rejected/),
      },
    ]);
    expect(await intentOf(r.transactionNo!)).toMatchObject({ state: 'rejected', rtn: null });
  }, 60_000);

  it('an entry written before its desk could delete it (killed in between) is not written again', async () => {
    const dataA = dir();
    const a = await open(dataA, 'alice');
    const r = record(freshPayment(sb, used).transactionNo);
    await a.intents.decide([], (tx) =>
      tx.insert(r, { holder: 'a', ms: 60_000 }, { at: r.createdAt, type: 'decided' }),
    );
    cluster.pause();
    try {
      await a.intents.noteCheck(r.id, {
        at: new Date().toISOString(),
        found: false,
        reached: true,
        note: 'not listed yet',
      });
      await a.intents.audit.record({
        kind: 'refund',
        at: new Date().toISOString(),
        outcome: 'outcome_unknown',
        operator: 'alice',
        profileId: 'p',
        profileName: 'P',
        environment: 'demo',
        subjectId: r.id,
        data: {},
      });
      await a.close();
    } finally {
      cluster.resume();
    }
    const waiting = outboxOf(dataA);
    expect(waiting.map((w) => w.op)).toEqual(['check', 'audit']);
    await (await open(dataA, 'alice')).close();
    expect(outboxOf(dataA)).toEqual([]);
    // As if the desk had died after writing them and before deleting them here: the same entries again.
    const file = openDatabase(join(dataA, DATABASE_FILE), MIGRATIONS);
    file.immediate(() => {
      for (const w of waiting)
        file.run(
          `INSERT INTO team_outbox (database, once_key, op, intent_id, queued_at, body) VALUES (?, ?, ?, ?, ?, ?)`,
          w.database,
          w.once_key,
          w.op,
          w.intent_id,
          new Date().toISOString(),
          w.body,
        );
    });
    file.close();
    expect(outboxOf(dataA)).toHaveLength(2);
    await (await open(dataA, 'alice')).close();
    expect(outboxOf(dataA)).toEqual([]);
    expect(await countEvents(r.id, ['checked'])).toBe(1);
    expect(await countAudit(r.id, 'outcome_unknown')).toBe(1);
    const checks = await asOwner(
      async (c) =>
        (await c.query<{ checks: number }>('SELECT checks FROM refund_desk.intents WHERE id = $1', [r.id]))
          .rows[0]!.checks,
    );
    expect(checks).toBe(1);
  }, 60_000);
});
