import pg from 'pg';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import {
  lockId,
  LOCK_CLASS,
  openPostgresIntentStore,
  scopeText,
} from '../../electron/core/adapters/postgres/intent-store';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION } from '../../electron/core/adapters/postgres/migrations';
import { type IntentRecord, UnreadableRecords } from '../../electron/core/services/engine/port';
import { INSTALL_POSTGRES, postgresBinDir, startPostgres, type TestCluster } from '../support/postgres';
import { ADMIN_URL_ENV, postgresFactory } from './postgres-factory';
import { payment, record } from './records';

/**
 * What the team database holds by itself, whatever a desk does: the invariants as unique indexes (also
 * against raw connections that skip the app), a frozen desk cut by the server, the desk-version guard,
 * exact int8, and a change feed that survives a server crash. A real server, started for this file.
 */
let cluster: TestCluster;
beforeAll(async () => {
  cluster = await startPostgres();
  process.env[ADMIN_URL_ENV] = cluster.url();
}, 60_000);
afterAll(() => cluster?.stop());

const closers: Array<() => Promise<void>> = [];
afterEach(async () => {
  for (const c of closers.splice(0).reverse()) await c().catch(() => undefined);
});

async function raw(url: string): Promise<pg.Client> {
  const c = new pg.Client({ connectionString: url });
  // A raw connection may be cut by the server (that is what some tests do): never an unhandled error.
  c.on('error', () => undefined);
  await c.connect();
  closers.push(() => c.end());
  return c;
}

async function desk(
  url: string,
  over: Parameters<typeof openPostgresIntentStore>[0] extends infer O ? Partial<O> : never = {},
) {
  const o = await openPostgresIntentStore({ connectionString: url, ...over });
  closers.push(o.close);
  return o;
}

const INSERT = `INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url,
  merchant_no, store_no, transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at,
  updated_at) VALUES ($1, $2, $3, 'p', 'P', 'demo', '', '200043', '300014', $4, $5, $6, 'USD', 'USD', 'raw', 'x', 'x')`;
const at = () => new Date().toISOString();

describe('the throw-away cluster', () => {
  it('fails, with the command that installs them, when the server binaries are missing (never skips)', () => {
    expect(() => postgresBinDir('/nonexistent/postgresql', '/nonexistent/pg_config')).toThrow(
      INSTALL_POSTGRES,
    );
    expect(postgresBinDir()).toMatch(/bin$/);
  });
});

describe('PostgreSQL team database: what the database holds by itself', () => {
  it('two raw connections cannot both hold an open refund of one payment, nor reuse a live payment reference', async () => {
    const url = await postgresFactory.fresh();
    const a = await raw(url);
    const b = await raw(url);
    await a.query('BEGIN');
    await a.query(INSERT, ['RAW1', 'refund', 'awaiting_approval', '500', null, 100]);
    // B waits on A's uncommitted row (the index's uniqueness check), then is refused once A commits.
    const second = b.query(INSERT, ['RAW2', 'refund', 'sending', '500', null, 100]).then(
      () => 'inserted',
      (e: unknown) => e,
    );
    await a.query('COMMIT');
    expect(await second).toMatchObject({ code: '23505', constraint: 'intents_one_open_refund' });
    // Every open state counts; a final one does not block, and another payment is independent.
    for (const state of ['approved', 'sending', 'outcome_unknown'])
      await expect(b.query(INSERT, [`RAW-${state}`, 'refund', state, '500', null, 1])).rejects.toMatchObject({
        constraint: 'intents_one_open_refund',
      });
    await b.query(INSERT, ['RAW3', 'refund', 'succeeded', '500', null, 100]);
    await b.query(INSERT, ['RAW4', 'refund', 'sending', '501', null, 100]);
    // Payment references: unique per merchant among creates the service did not reject.
    await a.query(INSERT, ['PAY1', 'payment', 'sending', null, 'ORDER-9', 100]);
    await expect(b.query(INSERT, ['PAY2', 'payment', 'open', null, 'ORDER-9', 100])).rejects.toMatchObject({
      constraint: 'intents_payment_reference',
    });
    await a.query(`UPDATE refund_desk.intents SET state = 'rejected' WHERE id = 'PAY1'`);
    await b.query(INSERT, ['PAY2', 'payment', 'open', null, 'ORDER-9', 100]);
  });

  it("a decision holds its payment's lock until it commits: another desk's decision on that payment starts after and sees it; another payment is not held up", async () => {
    const url = await postgresFactory.fresh();
    const a = await desk(url);
    const b = await desk(url);
    const key = payment('650');
    const order: string[] = [];
    let release!: () => void;
    const gate = new Promise<void>((r) => (release = r));
    let entered!: () => void;
    const aIn = new Promise<void>((r) => (entered = r));
    const first = a.store.decide([{ payment: key }], async (tx) => {
      order.push('a:start');
      entered();
      await gate;
      await tx.insert(record('RLK', key.transactionNo), undefined, { at: at(), type: 'decided' });
      order.push('a:end');
    });
    await aIn;
    const second = b.store.decide([{ payment: key }], async (tx) => {
      order.push('b:start');
      order.push(`b:sees ${(await tx.forPayment('refund', key)).length}`);
    });
    await b.store.decide([{ payment: payment('651') }], async () => {
      order.push('other payment');
    });
    release();
    await Promise.all([first, second]);
    expect(order).toEqual(['a:start', 'other payment', 'a:end', 'b:start', 'b:sees 1']);
  });

  it('amounts are exact: the database refuses what a number cannot hold, and so does the store', async () => {
    const url = await postgresFactory.fresh();
    const c = await raw(url);
    await expect(
      c.query(INSERT, ['BIG', 'refund', 'sending', '600', null, '9007199254740992']),
    ).rejects.toMatchObject({
      code: '23514',
    });
    await c.query(INSERT, ['MAX', 'refund', 'succeeded', '600', null, '9007199254740991']);
    const { store } = await desk(url);
    expect((await store.get('MAX'))!.amountMinor).toBe(Number.MAX_SAFE_INTEGER);
    const key = payment('601');
    await expect(
      store.decide([{ payment: key }], (tx) =>
        tx.insert(record('BIG2', key.transactionNo, { amountMinor: 2 ** 53 }), undefined, {
          at: at(),
          type: 'd',
        }),
      ),
    ).rejects.toThrow(/minor units below 2\^53/);
    expect(await store.get('BIG2')).toBeUndefined();
  });

  it("rows the desk cannot read never vanish from a payment's decision: forPayment refuses (UnreadableRecords); a settle currency is no amount's unit; codes read in any case", async () => {
    const url = await postgresFactory.fresh();
    const c = await raw(url);
    const put = (id: string, txn: string, state: string, currency: string, settle: string) =>
      c.query(
        `INSERT INTO refund_desk.intents (id, kind, state, profile_id, profile_name, environment, base_url,
           merchant_no, store_no, transaction_no, amount_minor, currency, settle_currency, operator, created_at,
           updated_at) VALUES ($1, 'refund', $2, 'p', 'P', 'demo', '', '200043', '300014', $3, 100, $4, $5, 'raw',
           $6, $6)`,
        [id, state, txn, currency, settle, at()],
      );
    await put('UNK', '700', 'succeeded', 'ZZZ', 'USD');
    await put('OK1', '700', 'failed', 'USD', 'USD');
    await put('NOSETTLE', '701', 'succeeded', 'usd', '');
    const unusable: string[] = [];
    const { store } = await desk(url, { onUnusable: (_t, id) => unusable.push(id) });
    const err = await store
      .decide([{ payment: payment('700') }], (tx) => tx.forPayment('refund', payment('700')))
      .catch((e: unknown) => e);
    expect(err).toBeInstanceOf(UnreadableRecords);
    expect((err as UnreadableRecords).readable.map((r) => r.id)).toEqual(['OK1']);
    expect((err as UnreadableRecords).unreadable).toEqual([
      { id: 'UNK', state: 'succeeded', reason: expect.stringMatching(/ZZZ/) as unknown },
    ]);
    expect(unusable).toContain('UNK');
    // A list leaves it out (health names it); a lower-case code is USD; no settle currency is left out.
    const rec = await store.get('NOSETTLE');
    expect(rec).toMatchObject({ currency: 'USD' });
    expect(rec!.settleCurrency).toBeUndefined();
    const [mine] = await store.decide([{ payment: payment('701') }], (tx) =>
      tx.byTransaction('refund', '200043', '701'),
    );
    expect(mine!.id).toBe('NOSETTLE');
    const total = await store.decide([], (tx) =>
      tx.sum({
        kind: 'refund',
        account: { merchantNo: '200043', storeNo: '300014' },
        currency: 'USD',
        states: ['succeeded'],
        fromIso: '2000-01-01T00:00:00.000Z',
        toIso: '2999-01-01T00:00:00.000Z',
      }),
    );
    expect(total).toBe(100);
  });

  it('a frozen desk holding the payment lock is cut by idle_in_transaction_session_timeout; the next decision proceeds', async () => {
    const url = await postgresFactory.fresh();
    // The administrator's migration sets the server default every session gets (here 1 s).
    await migratePostgres({ connectionString: url, idleInTransactionMs: 1_000 });
    const key = payment('700');
    // The frozen desk: a plain connection (no client-side timeout of its own) that takes the lock and stalls.
    const frozen = await raw(url);
    const cut = new Promise<{ code?: string }>((r) => frozen.on('error', (e) => r(e as { code?: string })));
    await frozen.query('BEGIN');
    // The lock id computed in SQL (as a later SECURITY DEFINER function will) is the desks' own.
    const sqlId = `('x' || left(encode(sha256(convert_to($2, 'UTF8')), 'hex'), 8))::bit(32)::int4`;
    const taken = await frozen.query<{ id: number }>(
      `SELECT ${sqlId} AS id, pg_advisory_xact_lock($1, ${sqlId})`,
      [LOCK_CLASS, scopeText({ payment: key })],
    );
    expect(taken.rows[0]!.id).toBe(lockId({ payment: key }));
    // The next desk waits for the lock longer than the server lets the frozen one idle.
    const { store } = await desk(url, { lockTimeoutMs: 20_000 });
    const decided = await store.decide([{ payment: key }], (tx) =>
      tx.insert(
        record('RF', key.transactionNo),
        { holder: 'desk-b:1', ms: 15_000 },
        { at: at(), type: 'decided' },
      ),
    );
    expect(decided.state).toBe('sending');
    expect((await cut).code).toBe('25P03');
  }, 30_000);

  it('a desk of another schema version than the database refuses to write and says what to do', async () => {
    const url = await postgresFactory.fresh();
    expect(await migratePostgres({ connectionString: url })).toEqual({
      from: DESK_SCHEMA_VERSION,
      to: DESK_SCHEMA_VERSION,
    });
    const key = payment('800');
    const write = (store: Awaited<ReturnType<typeof desk>>['store']) =>
      store.decide([{ payment: key }], (tx) =>
        tx.insert(record(`RV${Math.random()}`, key.transactionNo), undefined, { at: at(), type: 'decided' }),
      );
    const older = await desk(url, { deskSchemaVersion: DESK_SCHEMA_VERSION - 1 });
    await expect(write(older.store)).rejects.toThrow(/update Refund Desk/);
    await expect(
      older.store.audit.record({
        kind: 'refund',
        at: at(),
        outcome: 'x',
        operator: 'o',
        profileId: 'p',
        profileName: 'P',
        environment: 'demo',
        subjectId: '',
        data: {},
      }),
    ).rejects.toThrow(/update Refund Desk/);
    // Reading still works (browse, search, export).
    expect((await older.store.list({ kind: 'refund' })).items).toEqual([]);
    const newer = await desk(url, { deskSchemaVersion: DESK_SCHEMA_VERSION + 1 });
    await expect(write(newer.store)).rejects.toThrow(/cli team migrate/);
    const current = await desk(url);
    expect((await write(current.store)).state).toBe('sending');
    // A database nobody migrated: the desk says so instead of failing on a missing table.
    const bare = await cluster.createDatabase(`rd_bare_${process.pid}`);
    await expect(openPostgresIntentStore({ connectionString: bare })).rejects.toThrow(/cli team migrate/);
  });

  it('watch survives an immediate server restart: the supervisor re-listens and re-reads, and a later change arrives', async () => {
    const url = await postgresFactory.fresh();
    // A heartbeat far longer than the test: only reconnecting and re-listening can deliver in time.
    const a = await desk(url, { applicationName: 'desk-a', heartbeatMs: 120_000 });
    const seen: string[] = [];
    const stop = a.store.watch((changed: IntentRecord[]) =>
      seen.push(...changed.map((r) => `${r.id}:${r.state}`)),
    );
    closers.push(async () => stop());
    const admin = async (sql: string) => {
      const c = new pg.Client({ connectionString: cluster.url() });
      c.on('error', () => undefined);
      await c.connect();
      try {
        return (await c.query(sql)).rows;
      } finally {
        await c.end();
      }
    };
    const listening = async () =>
      Number(
        (
          await admin(
            `SELECT count(*) AS n FROM pg_stat_activity WHERE application_name = 'desk-a' AND query = 'LISTEN refund_desk_intents'`,
          )
        )[0]!['n'],
      ) === 1;
    const until = async (what: () => boolean | Promise<boolean>, ms: number) => {
      const end = Date.now() + ms;
      while (
        !(await Promise.resolve()
          .then(what)
          .catch(() => false)) &&
        Date.now() < end
      )
        await new Promise((r) => setTimeout(r, 25));
      return what();
    };
    expect(await until(listening, 10_000)).toBe(true);
    const b = await desk(url, { heartbeatMs: 120_000 });
    const k1 = payment('900');
    await b.store.decide([{ payment: k1 }], (tx) =>
      tx.insert(record('RS1', k1.transactionNo), undefined, { at: at(), type: 'decided' }),
    );
    expect(await until(() => seen.includes('RS1:sending'), 10_000)).toBe(true);

    cluster.restart('immediate');
    // Every connection died; a desk's next decision retries on a fresh one (its pool dropped the dead).
    const k2 = payment('901');
    const retry = async <T>(fn: () => Promise<T>): Promise<T> => {
      for (let i = 0; ; i += 1)
        try {
          return await fn();
        } catch (e) {
          if (i >= 20) throw e;
          await new Promise((r) => setTimeout(r, 100));
        }
    };
    await retry(() =>
      b.store.decide([{ payment: k2 }], (tx) =>
        tx.insert(record('RS2', k2.transactionNo), undefined, { at: at(), type: 'decided' }),
      ),
    );
    // Made during the gap (or just after): the re-read after re-listening delivers it.
    expect(await until(() => seen.includes('RS2:sending'), 15_000)).toBe(true);
    expect(await until(listening, 15_000)).toBe(true);
    // Made after the supervisor listens again: NOTIFY on the new connection delivers it.
    await retry(() =>
      b.store.transition({
        id: 'RS2',
        from: ['sending'],
        to: 'accepted',
        patch: {},
        event: { at: at(), type: 'accepted' },
      }),
    );
    expect(await until(() => seen.includes('RS2:accepted'), 10_000)).toBe(true);
    // Nothing reported twice for the same write.
    expect(seen.filter((s) => s === 'RS1:sending')).toHaveLength(1);
  }, 90_000);
});
