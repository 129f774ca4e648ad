import { type ChildProcess, spawn } from 'node:child_process';
import { resolve } from 'node:path';
import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { migratePostgres } from '../../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION, PG_MIGRATIONS } from '../../../electron/core/adapters/postgres/migrations';
import { addPerson, setPolicy } from '../../../electron/core/adapters/postgres/team-admin';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox/index';
import type { IntentView } from '../../../shared/domain/refund-intent';
import { startPostgres, type TestCluster } from '../../support/postgres';
import { openTeamDesk, type TeamDesk } from '../../support/team-desk';

/**
 * The approver's send holds a normal sender's lease (issue 26 items 2 and 4; schema 4's approve_and_claim):
 * the approver's desk is a separate PROCESS that approves and sends while the sandbox holds the refund on
 * the way. While it is alive it renews its lease on the server's clock and no other desk takes the refund
 * over; once it is killed (SIGKILL), another desk resolves it by query after that lease — and finds the
 * refund that left, so nothing is sent twice.
 */
let cluster: TestCluster;
let owner: string;
let dbName: string;
let sandbox: RunningSandbox;
let maker: TeamDesk;
let other: TeamDesk;
let child: ChildProcess | undefined;
const sandboxLog: string[] = [];
const PW = { alice: 'Al1ce-lease', bob: 'B0b-lease', carol: 'Car0l-lease' } as const;
const LEASE_MS = 3_000;

const refundPosts = () => sandboxLog.filter((l) => l.startsWith('POST /app-data-search/v3/refund ')).length;

beforeAll(async () => {
  cluster = await startPostgres();
  dbName = `team_lease_${process.pid}`;
  owner = await cluster.createDatabase(dbName);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  const o = { connectionString: owner };
  await addPerson(o, { login: 'alice', role: 'maker', limits: [] });
  for (const login of ['bob', 'carol'])
    await addPerson(o, { login, role: 'checker', limits: [{ currency: 'USD', upToMinor: 100_000 }] });
  await setPolicy(o, {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    currency: 'USD',
    approvalAboveMinor: 200,
    expireHours: 24,
  });
  sandbox = await startSandbox({
    seed: 264,
    transactions: 60,
    refundSettleMs: 20,
    ipnSchedule: [],
    log: (line) => void sandboxLog.push(line),
  });
  const url = (who: keyof typeof PW) => cluster.loginUrl(who, PW[who], dbName);
  maker = await openTeamDesk({ url: url('alice'), deskId: 'desk-1', sandbox });
  other = await openTeamDesk({ url: url('carol'), deskId: 'desk-3', sandbox, leaseMs: LEASE_MS });
}, 120_000);

afterAll(async () => {
  child?.kill('SIGKILL');
  await maker?.close().catch(() => undefined);
  await other?.close().catch(() => undefined);
  await sandbox?.close();
  cluster?.stop();
});

/** The row as the database keeps it: sender, lease (server clock, ms) and the server's clock now. */
async function leaseOf(
  id: string,
): Promise<{ state: string; sender: string | null; leaseUntil: number | null }> {
  const c = new pg.Client({ connectionString: owner });
  c.on('error', () => undefined);
  await c.connect();
  try {
    const r = await c.query<{ state: string; sender: string | null; lease: string | null }>(
      `SELECT state, sender, (extract(epoch FROM lease_until) * 1000)::int8::text AS lease
         FROM refund_desk.intents WHERE id = $1`,
      [id],
    );
    const row = r.rows[0]!;
    return {
      state: row.state,
      sender: row.sender,
      leaseUntil: row.lease === null ? null : Number(row.lease),
    };
  } finally {
    await c.end();
  }
}

/** Waits until the SERVER's clock (every desk's lease clock) is past `ms` (epoch ms). */
async function serverPast(ms: number): Promise<void> {
  const c = new pg.Client({ connectionString: owner });
  c.on('error', () => undefined);
  await c.connect();
  try {
    for (;;) {
      const r = await c.query<{ past: boolean }>(
        `SELECT clock_timestamp() > to_timestamp($1::float8 / 1000) AS past`,
        [ms],
      );
      if (r.rows[0]!.past) return;
      await new Promise((res) => setTimeout(res, 100));
    }
  } finally {
    await c.end();
  }
}

const checkAgain = (id: string) =>
  other.call<IntentView>('refunds.checkAgain', { profileId: other.profileId, id });

describe('the approver’s send holds a lease (schema 4)', () => {
  it('alive and renewing: no other desk takes it over; killed mid-send: another desk resolves it by query after the lease, never resends', async () => {
    const p = sandbox.state
      .snapshot()
      .payments.find(
        (x) =>
          x.merchantNo === DEMO_MERCHANT.merchantNo &&
          x.storeNo === DEMO_MERCHANT.storeNo &&
          x.status === 'success' &&
          x.currency === 'USD' &&
          x.refunds.length === 0 &&
          x.amountMinor >= 1_000,
      )!;
    const request = await maker.call<IntentView>('refunds.submit', {
      profileId: maker.profileId,
      transactionNo: p.transactionNo,
      amountMinor: 500,
      currency: 'USD',
      reasonCode: 'customer_request',
      reasonNote: 'damaged',
      confirmation: {},
    });
    expect(request.state).toBe('awaiting_approval');
    const posts = refundPosts();

    const held = sandbox.hold('refund');
    child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        resolve(import.meta.dirname, 'approve-child.ts'),
        cluster.loginUrl('bob', PW.bob, dbName),
        'desk-2',
        sandbox.baseUrl,
        request.id,
        String(LEASE_MS),
      ],
      { stdio: 'ignore' },
    );
    await held.arrived;

    // Claimed with this process as its sender and a lease on the server's clock.
    const claimed = await leaseOf(request.id);
    expect(claimed.state).toBe('sending');
    expect(claimed.sender).toMatch(new RegExp(`^desk-2:${child.pid}$`));
    expect(claimed.leaseUntil).not.toBeNull();

    // Alive: past the first lease twice over, the approver's desk has renewed it, and another desk that
    // checks it leaves it to its sender.
    let lease = claimed.leaseUntil!;
    for (let round = 0; round < 2; round++) {
      await serverPast(lease);
      const seen = await checkAgain(request.id);
      expect(seen.state).toBe('sending');
      const now = await leaseOf(request.id);
      expect(now.state).toBe('sending');
      expect(now.leaseUntil!).toBeGreaterThan(lease);
      lease = now.leaseUntil!;
    }

    // Killed mid-send: the request already left and reaches the service once released.
    child.kill('SIGKILL');
    await new Promise((res) => child!.once('exit', res));
    await held.release();
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toHaveLength(1);

    // Nobody renews it any more: once its last lease ran out, another desk resolves it by query.
    const last = (await leaseOf(request.id)).leaseUntil!;
    await serverPast(last);
    let resolved = await checkAgain(request.id);
    for (let n = 0; n < 100 && !['accepted', 'succeeded'].includes(resolved.state); n++) {
      await new Promise((res) => setTimeout(res, 50));
      resolved = await checkAgain(request.id);
    }
    expect(resolved.state).toMatch(/^(accepted|succeeded)$/);
    expect(resolved.lastCheck?.found).toBe(true);
    // Resolved, never resent: the one POST the approver's desk made is all the sandbox received.
    expect(refundPosts()).toBe(posts + 1);
    expect(sandbox.state.payment(p.transactionNo)!.refunds).toHaveLength(1);
  }, 120_000);

  it('migrating a schema-3 database gives a claim in flight (no lease, no sender) the 120 s schema 3 promised it', async () => {
    const url = await cluster.createDatabase(`team_lease_v3_${process.pid}`);
    const c = new pg.Client({ connectionString: url });
    c.on('error', () => undefined);
    await c.connect();
    try {
      // The database as schema 3 left it (migrate.ts's bookkeeping, then v1..v3 exactly as released).
      await c.query(`CREATE SCHEMA refund_desk;
        CREATE TABLE refund_desk.schema_migrations (version integer PRIMARY KEY, name text NOT NULL,
          applied_by text NOT NULL DEFAULT session_user, applied_on_server timestamptz NOT NULL DEFAULT now())`);
      for (const m of PG_MIGRATIONS.filter((x) => x.version <= 3)) {
        await c.query(m.sql);
        await c.query('INSERT INTO refund_desk.schema_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
      }
      // An approved request its approver's schema-3 desk moved to sending (transition_intent: no lease).
      await c.query(
        `INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url,
           merchant_no, store_no, transaction_no, amount_minor, currency, settle_currency, operator, created_at,
           updated_at, reason, requested_by, requested_desk, requested_on_server, expires_at, approved_by)
         VALUES ('RQV3', 'refund', 'sending', 'p', 'P', 'demo', '', '200043', '300014', '1', 500, 'USD', 'USD',
           'alice', 'x', 'x', 'why', 'alice', 'desk-1', now(), now() + interval '1 day', 'bob')`,
      );
      expect(await migratePostgres({ connectionString: url })).toEqual({ from: 3, to: DESK_SCHEMA_VERSION });
      const r = await c.query<{ ok: boolean }>(
        `SELECT lease_until = created_on_server + interval '120 seconds' AS ok FROM refund_desk.intents
          WHERE id = 'RQV3'`,
      );
      expect(r.rows[0]!.ok).toBe(true);
    } finally {
      await c.end();
    }
  });
});
