import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { addPerson, setPolicy } from '../../../electron/core/adapters/postgres/team-admin';
import {
  DEMO_MERCHANT,
  type PaymentRecord,
  type RunningSandbox,
  startSandbox,
} from '../../../electron/sandbox/index';
import type { BatchReport, BatchStatus } from '../../../shared/batch/execution';
import { formatMinor } from '../../../shared/domain/money';
import { startPostgres, type TestCluster } from '../../support/postgres';
import { openTeamDesk, type TeamDesk } from '../../support/team-desk';

/**
 * A team batch awaiting approval that does NOT run (issue 27, four-eyes for a batch as a whole): rejected
 * by a checker with a comment, or expired on the server's clock; and the account's past batches listed.
 * Desks are the app's core (real dispatcher) on a real throw-away PostgreSQL, each person their own
 * login; the sandbox is reached over real HTTP and its request log says what was sent.
 *
 * People: alice (maker), bob (checker up to 1000.00 USD), dave (maker AND checker: tries to reject his own).
 * Policy: above 5.00 USD (a refund, or a batch's total) needs approval, expiring after 24 h.
 */
let cluster: TestCluster;
let dbName: string;
let owner: string;
let sandbox: RunningSandbox;
const sandboxLog: string[] = [];
const used = new Set<string>();
const PW = { alice: 'Al1ce-close!', bob: 'B0b-close%pw', dave: 'Dav3-close' } as const;
type Person = keyof typeof PW;
const desks = new Map<Person, TeamDesk>();
const at = (who: Person) => desks.get(who)!;
const url = (who: Person) => cluster.loginUrl(who, PW[who], dbName);
const ROOT = resolve(import.meta.dirname, '../../..');

const refundPosts = () => sandboxLog.filter((l) => l.startsWith('POST /app-data-search/v3/refund ')).length;

beforeAll(async () => {
  cluster = await startPostgres();
  dbName = `team_batch_close_${process.pid}`;
  owner = await cluster.createDatabase(dbName);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  const o = { connectionString: owner };
  await addPerson(o, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(o, { login: 'bob', role: 'checker', limits: [{ currency: 'USD', upToMinor: 100_000 }] });
  await addPerson(o, { login: 'dave', role: 'checker', limits: [{ currency: 'USD', upToMinor: 100_000 }] });
  await sql('GRANT refund_maker TO dave');
  await setPolicy(o, {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    currency: 'USD',
    approvalAboveMinor: 500,
    expireHours: 24,
  });
  sandbox = await startSandbox({
    seed: 2727,
    transactions: 200,
    refundSettleMs: 20,
    ipnSchedule: [],
    log: (line) => void sandboxLog.push(line),
  });
  let n = 0;
  for (const who of Object.keys(PW) as Person[])
    desks.set(who, await openTeamDesk({ url: url(who), deskId: `${who}-desk-${(n += 1)}`, sandbox }));
}, 120_000);

afterAll(async () => {
  for (const d of desks.values()) await d.close().catch(() => undefined);
  await sandbox?.close();
  cluster?.stop();
});

async function sql<T extends pg.QueryResultRow>(text: string, params: unknown[] = []): Promise<T[]> {
  const c = new pg.Client({ connectionString: owner });
  c.on('error', () => undefined);
  await c.connect();
  try {
    return (await c.query<T>(text, params)).rows;
  } finally {
    await c.end();
  }
}

function fresh(n: number): PaymentRecord[] {
  const out = sandbox.state
    .snapshot()
    .payments.filter(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.storeNo === DEMO_MERCHANT.storeNo &&
        x.status === 'success' &&
        x.currency === 'USD' &&
        x.refunds.length === 0 &&
        x.amountMinor >= 1_000 &&
        !used.has(x.transactionNo),
    )
    .slice(0, n);
  if (out.length < n) throw new Error('not enough fresh payments in the seed');
  for (const p of out) used.add(p.transactionNo);
  return out;
}

/** Starts a batch of 3.00 + 4.00 USD (7.00: above the 5.00 policy as a whole) on `who`'s desk. */
async function waitingBatch(who: Person, name: string): Promise<{ status: BatchStatus; nos: string[] }> {
  const ps = fresh(2);
  const csv = [
    'Transaction No,Refund amount,Currency,Reason,Claim ID',
    `${ps[0]!.transactionNo},${formatMinor(300, 'USD')},USD,recall,${name}-1`,
    `${ps[1]!.transactionNo},${formatMinor(400, 'USD')},USD,recall,${name}-2`,
  ].join('\r\n');
  const status = await at(who).call<BatchStatus>('refunds.batchStart', {
    profileId: at(who).profileId,
    file: { name, base64: Buffer.from(csv).toString('base64') },
  });
  expect(status.state).toBe('awaiting_approval');
  return { status, nos: ps.map((p) => p.transactionNo) };
}

const refusal = async (p: Promise<unknown>) => {
  try {
    await p;
  } catch (e) {
    return e as { code: string; message: string };
  }
  throw new Error('expected a refusal');
};

const refundsOn = (nos: readonly string[]) =>
  sandbox.state.snapshot().refunds.filter((r) => nos.includes(r.transactionNo));

/** Moves the server's clock past a batch's expiry: a superuser session with the row triggers off. */
async function expire(batchId: string) {
  const c = new pg.Client({ connectionString: owner });
  c.on('error', () => undefined);
  await c.connect();
  try {
    await c.query("SET session_replication_role = 'replica'");
    await c.query("UPDATE refund_desk.batches SET expires_at = now() - interval '1 second' WHERE id = $1", [
      batchId,
    ]);
  } finally {
    await c.end();
  }
}

function cli(args: string[]): Promise<{ code: number | null; out: string }> {
  const child: ChildProcess = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/hosts/cli/index.ts', ...args],
    { cwd: ROOT, env: { ...process.env }, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  let out = '';
  child.stdout!.on('data', (d: Buffer) => (out += d.toString()));
  child.stderr!.on('data', (d: Buffer) => (out += d.toString()));
  return new Promise((r) => child.on('exit', (code) => r({ code, out })));
}

describe('a team batch awaiting approval: rejected with a comment, or expired (real PostgreSQL, sandbox over HTTP)', () => {
  it('a checker rejects it with a comment: nothing is sent, its rows end declined with the reason, audited; its starter cannot reject it, not even in the database', async () => {
    const posts = refundPosts();
    const { status, nos } = await waitingBatch('dave', 'rejected.csv');
    const batchId = status.batchId;
    const reject = (who: Person, comment: string) =>
      at(who).call<BatchStatus>('refunds.batchReject', { profileId: at(who).profileId, batchId, comment });

    // Its starter (a checker too) is refused — by the desk's call, by the function in psql, and by the
    // table itself when the function is bypassed.
    const own = await refusal(reject('dave', 'changed my mind'));
    expect(own.code).toBe('forbidden');
    expect(own.message).toMatch(/is your own: cancel it instead/);
    const selfSql = cluster.psql(`SELECT refund_desk.reject_batch('${batchId}', 'mine');`, {
      user: 'dave',
      password: PW.dave,
      database: dbName,
    });
    expect(selfSql.status).not.toBe(0);
    expect(selfSql.stderr).toContain('is your own');
    await expect(
      sql(
        `UPDATE refund_desk.batches SET state = 'rejected', closed_by = created_by, close_comment = 'x' WHERE id = $1`,
        [batchId],
      ),
    ).rejects.toThrow(/batches_reject_four_eyes/);
    // A maker is not a checker; a comment is required (refused before anything is asked).
    expect((await refusal(reject('alice', 'no'))).code).toBe('forbidden');
    expect((await refusal(reject('bob', '   '))).code).toBe('invalid_input');
    expect(
      (await at('bob').core.dispatch('refunds.batchReject', { profileId: at('bob').profileId, batchId })).ok,
    ).toBe(false);

    const rejected = await reject('bob', 'Wrong file: these were refunded by hand');
    expect(rejected).toMatchObject({ batchId, state: 'rejected', pending: 0, refunded: 0, refused: 2 });
    expect(rejected.approval).toMatchObject({
      startedBy: 'dave',
      closedBy: 'bob',
      closeComment: 'Wrong file: these were refunded by hand',
    });
    // Its report, from the starter's desk: every row declined, with the checker's reason.
    const report = await at('dave').call<BatchReport>('refunds.batchReport', {
      profileId: at('dave').profileId,
      batchId,
    });
    expect(report.status.state).toBe('rejected');
    for (const row of report.rows) {
      expect(row.outcome).toBe('declined');
      expect(row.message).toMatch(/rejected by bob: Wrong file: these were refunded by hand/);
    }
    const audit = await sql<{ outcome: string; by_login: string; detail: string }>(
      `SELECT outcome, by_login, detail FROM refund_desk.audit WHERE subject_id = $1 AND outcome = 'batch_rejected'`,
      [batchId],
    );
    expect(audit).toEqual([
      { outcome: 'batch_rejected', by_login: 'bob', detail: expect.stringContaining('Wrong file') },
    ]);
    // Final: it cannot be approved, rejected again or resumed; nothing was sent.
    const late = await refusal(
      at('bob').call('refunds.batchApprove', { profileId: at('bob').profileId, batchId }),
    );
    expect(late.code).toBe('conflict');
    expect((await refusal(reject('bob', 'again'))).code).toBe('conflict');
    expect(
      (await refusal(at('dave').call('refunds.batchStart', { profileId: at('dave').profileId, batchId })))
        .code,
    ).toBe('conflict');
    expect(refundsOn(nos)).toEqual([]);
    expect(refundPosts()).toBe(posts);
  }, 120_000);

  it('cli reject RB… rejects a batch as a whole (exit 0); its starter is refused (exit 4); a blank reason is bad usage (exit 2)', async () => {
    const { status, nos } = await waitingBatch('dave', 'cli-rejected.csv');
    const batchId = status.batchId;
    const own = await cli(['reject', batchId, '--reason', 'mine', '--database-url', url('dave')]);
    expect(own.code, own.out).toBe(4);
    expect(own.out).toMatch(/is your own/);
    const blank = await cli(['reject', batchId, '--reason', ' ', '--database-url', url('bob')]);
    expect(blank.code, blank.out).toBe(2);
    const ok = await cli(['reject', batchId, '--reason', 'duplicate file', '--database-url', url('bob')]);
    expect(ok.code, ok.out).toBe(0);
    expect(ok.out).toContain(`Rejected batch ${batchId} (cli-rejected.csv, 7.00 USD, started by dave)`);
    const [b] = await sql<{ state: string; closed_by: string; close_comment: string }>(
      'SELECT state, closed_by, close_comment FROM refund_desk.batches WHERE id = $1',
      [batchId],
    );
    expect(b).toEqual({ state: 'rejected', closed_by: 'bob', close_comment: 'duplicate file' });
    expect(refundsOn(nos)).toEqual([]);
  }, 120_000);

  it('only its starter cancels a batch awaiting approval; a checker is refused and every row stays as it was', async () => {
    const { status } = await waitingBatch('alice', 'cancelled.csv');
    const batchId = status.batchId;
    const notTheirs = await refusal(
      at('bob').call('refunds.batchCancel', { profileId: at('bob').profileId, batchId }),
    );
    expect(notTheirs.message).toMatch(/only its starter cancels it/);
    const still = await at('bob').call<BatchStatus>('refunds.batchStatus', {
      profileId: at('bob').profileId,
      batchId,
    });
    expect(still).toMatchObject({ state: 'awaiting_approval', pending: 2, cancelled: 0 });
    const cancelled = await at('alice').call<BatchStatus>('refunds.batchCancel', {
      profileId: at('alice').profileId,
      batchId,
    });
    expect(cancelled).toMatchObject({ state: 'cancelled', pending: 0, cancelled: 2 });
  }, 120_000);

  it('past its expiry (server clock) a waiting batch is marked expired: approving says so, keeps it expired, sends nothing; listing shows it expired', async () => {
    const posts = refundPosts();
    const first = await waitingBatch('alice', 'expired-approve.csv');
    await expire(first.status.batchId);
    // Approving it directly (nobody listed it first): refused in words, and the batch STAYS expired.
    const approving = await refusal(
      at('bob').call('refunds.batchApprove', {
        profileId: at('bob').profileId,
        batchId: first.status.batchId,
      }),
    );
    expect(approving.code).toBe('conflict');
    expect(approving.message).toMatch(
      new RegExp(
        `Refund batch ${first.status.batchId} expired at .* \\(server time\\) before a checker approved it: nothing was sent`,
      ),
    );
    const [row] = await sql<{ state: string }>('SELECT state FROM refund_desk.batches WHERE id = $1', [
      first.status.batchId,
    ]);
    expect(row!.state).toBe('expired');

    // Another one expires while nobody looks: the next listing marks it and shows it expired.
    const second = await waitingBatch('alice', 'expired-list.csv');
    await expire(second.status.batchId);
    const waiting = await at('bob').call<{ batches: BatchStatus[] }>('refunds.batchList', {
      profileId: at('bob').profileId,
      awaitingApproval: true,
    });
    expect(waiting.batches.map((b) => b.batchId)).not.toContain(second.status.batchId);
    const all = await at('alice').call<{ batches: BatchStatus[] }>('refunds.batchList', {
      profileId: at('alice').profileId,
    });
    const seen = all.batches.find((b) => b.batchId === second.status.batchId);
    expect(seen).toMatchObject({ state: 'expired', pending: 0, refused: 2 });
    const report = await at('alice').call<BatchReport>('refunds.batchReport', {
      profileId: at('alice').profileId,
      batchId: second.status.batchId,
    });
    for (const r of report.rows) {
      expect(r.outcome).toBe('expired');
      expect(r.message).toMatch(
        /expired at .* \(server time\) before a checker approved it: nothing was sent/,
      );
    }
    const audit = await sql<{ n: string }>(
      `SELECT count(*) AS n FROM refund_desk.audit WHERE outcome = 'batch_expired' AND subject_id = ANY($1)`,
      [[first.status.batchId, second.status.batchId]],
    );
    expect(Number(audit[0]!.n)).toBe(2);
    expect(refundsOn([...first.nos, ...second.nos])).toEqual([]);
    expect(refundPosts()).toBe(posts);
  }, 120_000);

  it('lists the account’s batches from every desk, newest first, a page at a time, with who, when, counts and totals', async () => {
    const all: BatchStatus[] = [];
    let before: string | undefined;
    for (let i = 0; i < 10; i += 1) {
      const page: { batches: BatchStatus[]; next?: string } = await at('bob').call('refunds.batchList', {
        profileId: at('bob').profileId,
        limit: 2,
        ...(before ? { before } : {}),
      });
      all.push(...page.batches);
      if (!page.next) break;
      before = page.next;
    }
    const [{ n }] = (await sql<{ n: string }>('SELECT count(*) AS n FROM refund_desk.batches')) as [
      { n: string },
    ];
    expect(all).toHaveLength(Number(n));
    expect(new Set(all.map((b) => b.batchId)).size).toBe(all.length);
    const created = all.map((b) => b.createdAt);
    expect(created).toEqual([...created].sort().reverse());
    for (const b of all) {
      expect(b.totals).toEqual([{ currency: 'USD', amountMinor: 700, rows: 2 }]);
      expect(b.dataRows).toBe(2);
      expect(['alice', 'dave']).toContain(b.approval?.startedBy);
    }
  }, 120_000);
});
