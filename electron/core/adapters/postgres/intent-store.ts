import { createHash } from 'node:crypto';
import pg from 'pg';
import { AppError } from '../../../../shared/domain/errors';
import type { AccountKey } from '../../../../shared/domain/account';
import type {
  ApprovalPolicy,
  AuditRecord,
  DecideTx,
  IntentCheck,
  IntentEvent,
  IntentRecord,
  IntentStore,
  LeaseGrant,
  Owner,
  Page,
  ScopeKey,
  Transition,
} from '../../services/engine/port';
import { InvariantViolation, UnreadableRecords, type UnreadableRow } from '../../services/engine/port';
import { UnusableRowError } from '../sqlite/stored';
import { approversFor, cancelRequest, openRequests, rejectRequest, requestRefund, whoAmI } from './approvals';
import { type ChangeFeed, startChangeFeed } from './change-feed';
import {
  createPgPool,
  int8,
  mapPgError,
  PG_DEFAULTS,
  type PgConnectOptions,
  pgClientConfig,
  safeAmount,
} from './connection';
import { readSchemaVersion } from './migrate';
import { DESK_SCHEMA_VERSION } from './migrations';
import { INTENT_COLUMNS, type PgRow, toAudit, toRecord } from './rows';

/**
 * The intent engine's store on the team's PostgreSQL database (schema in migrations.ts).
 *
 * - Each decision is ONE short transaction on one pooled connection: BEGIN, `SET LOCAL lock_timeout`, one
 *   transaction-level advisory lock per scope key (sorted, so two decisions never deadlock) in the same
 *   round trip, the decision's reads and writes, COMMIT. The engine sends only after `decide` resolved,
 *   i.e. after `sending` committed; no transaction is ever held across a network call. A desk that stalls
 *   inside one is cut by `idle_in_transaction_session_timeout` and its locks go with it.
 * - The invariants (one open refund per payment, one live payment reference) are unique indexes: a second
 *   desk that skipped the lock, or a raw connection, is refused all the same.
 * - Leases are the server's clock (`clock_timestamp()`), so desks with wrong clocks agree on expiry.
 * - `watch` is LISTEN/NOTIFY with a reconnecting supervisor (change-feed.ts).
 */
export interface PostgresIntentStoreOptions extends PgConnectOptions {
  onBadRow?: (table: string, id: string, reason: string) => void;
  onUnusable?: (table: string, id: string, reason: string) => void;
  /** Errors of the pool's idle connections and of the change feed (logged; never fatal). */
  onConnectionError?: (where: string, e: unknown) => void;
  /** The change feed listens (again): the database is reachable. */
  onConnected?: () => void;
  /** How often the change feed checks its LISTEN connection and re-reads (it also re-reads on NOTIFY). */
  heartbeatMs?: number;
  /**
   * Tests only: milliseconds added to the server's clock for leases (the contract suite moves the store's
   * clock). The server's clock is still the one every desk shares.
   */
  clockOffsetMs?: () => number;
}

export interface OpenPostgresStore {
  store: IntentStore;
  pool: pg.Pool;
  schema: { database: number; desk: number };
  close(): Promise<void>;
}

/** Arbitrary, fixed: the first half of every desk's advisory lock key (the second is the scope's hash). */
export const LOCK_CLASS = 0x52440001;

/**
 * The text a scope key is locked by: the same text on every desk for the same payment or daily total.
 * Fields are joined by U+001F (a character no field holds, and one PostgreSQL text may hold, unlike NUL).
 */
export function scopeText(k: ScopeKey): string {
  if ('payment' in k) {
    const p = k.payment;
    return `payment\u001f${p.environment}\u001f${p.merchantNo}\u001f${p.storeNo}\u001f${p.transactionNo}`;
  }
  if ('daily' in k) {
    const d = k.daily;
    return `daily\u001f${d.account.environment}\u001f${d.account.merchantNo}\u001f${d.account.storeNo}\u001f${d.currency}`;
  }
  return `reference\u001f${k.reference.merchantNo}\u001f${k.reference.reference}`;
}

/**
 * A scope key's 32-bit lock id: the first 4 bytes of SHA-256 of its text, signed. Distinct keys that
 * collide only wait for each other (never wrong). SQL can take the same lock (a later SECURITY DEFINER
 * function): ('x' || left(encode(sha256(convert_to(text, 'UTF8')), 'hex'), 8))::bit(32)::int4.
 */
export function lockId(k: ScopeKey): number {
  return createHash('sha256').update(scopeText(k)).digest().readInt32BE(0);
}

/** An intent as refund_desk.insert_intent reads it (jsonb_populate_record: the table's column names). */
function intentJson(i: IntentRecord, lease: LeaseGrant | undefined): Record<string, unknown> {
  return {
    id: i.id,
    kind: i.kind,
    state: i.state,
    profile_id: i.profileId,
    profile_name: i.profileName,
    environment: i.environment,
    base_url: i.baseUrl,
    merchant_no: i.merchantNo,
    store_no: i.storeNo,
    transaction_no: i.transactionNo ?? null,
    reference: i.reference ?? null,
    amount_minor: i.amountMinor,
    currency: i.currency,
    // NOT NULL: a record read back without a settle currency is stored with none.
    settle_currency: i.settleCurrency ?? '',
    operator: i.operator,
    created_at: i.createdAt,
    updated_at: i.updatedAt,
    sender: lease ? lease.holder : (i.sender ?? null),
    ret_code: i.retCode ?? null,
    ret_msg: i.retMsg ?? null,
    detail: i.detail ?? null,
    card_last4: i.cardLast4 ?? null,
    last_check_at: i.lastCheck?.at ?? null,
    last_check_found: i.lastCheck ? i.lastCheck.found : null,
    last_check_note: i.lastCheck?.note ?? null,
    checks: i.checks,
    attempts: i.attempts,
    data: i.data,
  };
}

type Q = pg.Pool | pg.PoolClient;

export async function openPostgresIntentStore(o: PostgresIntentStoreOptions): Promise<OpenPostgresStore> {
  const pool = createPgPool(o, (e) => o.onConnectionError?.('pool', e));
  try {
    const database = await readSchemaVersion(pool);
    if (database === 0)
      throw new AppError(
        'unavailable',
        'the team database has no Refund Desk schema yet: the administrator runs the migration (cli team migrate)',
        { retryable: false, details: { todo: 'the administrator runs: cli team migrate' } },
      );
    const xmin = await pool.query<{ x: string }>('SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x');
    const { store, stopWatching } = createPostgresIntentStore(pool, o, BigInt(xmin.rows[0]!.x));
    return {
      store,
      pool,
      schema: { database, desk: o.deskSchemaVersion ?? DESK_SCHEMA_VERSION },
      close: async () => {
        await stopWatching();
        await pool.end();
      },
    };
  } catch (e) {
    await pool.end().catch(() => undefined);
    throw mapPgError(e);
  }
}

export function createPostgresIntentStore(
  pool: pg.Pool,
  o: PostgresIntentStoreOptions,
  startWatermark: bigint,
): { store: IntentStore; stopWatching(): Promise<void> } {
  const offset = () => o.clockOffsetMs?.() ?? 0;
  const lockMs = Math.max(1, Math.round(o.lockTimeoutMs ?? PG_DEFAULTS.lockTimeoutMs));

  /** Rows as records; one that cannot be read is reported (health shows it) and handed to `skipped`. */
  const parse = (raw: PgRow[], skipped?: (row: UnreadableRow) => void): IntentRecord[] => {
    const out: IntentRecord[] = [];
    for (const r of raw) {
      try {
        out.push(toRecord(r));
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        if (e instanceof UnusableRowError) o.onUnusable?.('intents', String(r['id']), reason);
        else o.onBadRow?.('intents', String(r['id']), reason);
        skipped?.({ id: String(r['id']), state: String(r['state']), reason });
      }
    }
    return out;
  };
  const rows = async (q: Q, sql: string, params: unknown[] = [], skipped?: (row: UnreadableRow) => void) => {
    let raw: PgRow[];
    try {
      raw = (await q.query<PgRow>(sql, params)).rows;
    } catch (e) {
      throw mapPgError(e);
    }
    return parse(raw, skipped);
  };
  const one = async (q: Q, id: string) =>
    (await rows(q, `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i WHERE id = $1`, [id]))[0];

  /**
   * A pooled connection for several statements. While checked out, pg-pool listens to none of its errors:
   * a connection that dies then (server restart) would throw from the socket's event; its query rejects
   * anyway, so the event itself is only noted.
   */
  const onCheckedOutError = (e: Error) => o.onConnectionError?.('connection', e);
  async function checkout(): Promise<pg.PoolClient> {
    try {
      const c = await pool.connect();
      c.on('error', onCheckedOutError);
      return c;
    } catch (e) {
      throw mapPgError(e);
    }
  }
  const release = (c: pg.PoolClient, broken?: Error) => {
    c.removeListener('error', onCheckedOutError);
    c.release(broken);
  };

  /**
   * One unit of work on one connection; `lock` names the scope keys to hold until COMMIT. A connection
   * that could not even roll back is destroyed, not returned to the pool.
   */
  async function inTx<T>(lock: readonly ScopeKey[], fn: (c: pg.PoolClient) => Promise<T>): Promise<T> {
    const c = await checkout();
    let broken: Error | undefined;
    try {
      const ids = [...new Set(lock.map(lockId))].sort((a, b) => a - b);
      // One round trip: the lock ids are integers we computed, never text from outside.
      await c.query(
        `BEGIN; SET LOCAL lock_timeout = ${lockMs}` +
          (ids.length
            ? `; SELECT ${ids.map((id) => `pg_advisory_xact_lock(${LOCK_CLASS}, ${id})`).join(', ')}`
            : ''),
      );
      const r = await fn(c);
      await c.query('COMMIT');
      return r;
    } catch (e) {
      await c.query('ROLLBACK').catch((re: unknown) => {
        broken = re instanceof Error ? re : new Error(String(re));
      });
      throw mapPgError(e);
    } finally {
      release(c, broken);
    }
  }

  /** A payment's intents, oldest first; never without one that cannot be read (UnreadableRecords). */
  const forPayment =
    (q: Q): DecideTx['forPayment'] =>
    async (kind, k) => {
      const unreadable: UnreadableRow[] = [];
      const out = await rows(
        q,
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i
         WHERE kind = $1 AND merchant_no = $2 AND store_no = $3 AND transaction_no = $4
         ORDER BY created_at, id`,
        [kind, k.merchantNo, k.storeNo, k.transactionNo],
        (row) => unreadable.push(row),
      );
      if (unreadable.length > 0) throw new UnreadableRecords(out, unreadable);
      return out;
    };
  const byTransaction =
    (q: Q): DecideTx['byTransaction'] =>
    (kind, merchantNo, transactionNo) =>
      rows(
        q,
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i
           WHERE kind = $1 AND merchant_no = $2 AND transaction_no = $3 ORDER BY created_at, id`,
        [kind, merchantNo, transactionNo],
      );
  const byReference =
    (q: Q): DecideTx['byReference'] =>
    (kind, merchantNo, reference) =>
      rows(
        q,
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i WHERE kind = $1 AND merchant_no = $2 AND reference = $3`,
        [kind, merchantNo, reference],
      );
  const sum =
    (q: Q): DecideTx['sum'] =>
    async (s) => {
      try {
        const r = await q.query<{ total: string }>(
          `SELECT COALESCE(SUM(amount_minor), 0)::int8 AS total FROM refund_desk.intents
           WHERE kind = $1 AND merchant_no = $2 AND store_no = $3 AND upper(btrim(currency)) = $4
             AND created_at >= $5 AND created_at < $6 AND state = ANY($7::text[])`,
          [s.kind, s.account.merchantNo, s.account.storeNo, s.currency, s.fromIso, s.toIso, [...s.states]],
        );
        return int8(r.rows[0]!.total, 'sum(amount_minor)');
      } catch (e) {
        throw mapPgError(e);
      }
    };

  /** Through refund_desk.record_audit: the person, desk and server time are the database's stamps. */
  async function auditNow(q: Q, e: AuditRecord): Promise<void> {
    if (e.amountMinor !== undefined) safeAmount(e.amountMinor, 'the audited amount');
    try {
      await q.query('SELECT refund_desk.record_audit($1::jsonb)', [
        JSON.stringify({
          kind: e.kind,
          at: e.at,
          outcome: e.outcome,
          operator: e.operator,
          profile_id: e.profileId,
          profile_name: e.profileName,
          environment: e.environment,
          subject_id: e.subjectId,
          transaction_no: e.transactionNo ?? null,
          amount_minor: e.amountMinor ?? null,
          currency: e.currency ?? null,
          ret_code: e.retCode ?? null,
          ret_msg: e.retMsg ?? null,
          detail: e.detail ?? null,
          data: e.data,
        }),
      ]);
    } catch (err) {
      throw mapPgError(err);
    }
  }

  /**
   * The intent and its first event in ONE statement, through refund_desk.insert_intent (a desk has no
   * INSERT on the table). Its ON CONFLICT DO NOTHING keeps the transaction usable when a unique index
   * refuses the row (as SQLite's failed statement does: the decision may read again and explain), and
   * still waits for a conflicting insert that is not committed yet.
   */
  async function insertNow(
    q: Q,
    record: IntentRecord,
    lease: LeaseGrant | undefined,
    event: IntentEvent,
  ): Promise<IntentRecord> {
    const i = record;
    safeAmount(i.amountMinor, 'the amount');
    const eventData = { ...(lease ? { sender: lease.holder } : {}), ...event.data };
    let raw: PgRow[];
    try {
      raw = (
        await q.query<PgRow>(
          `SELECT ${INTENT_COLUMNS} FROM refund_desk.insert_intent($1::jsonb, $2::float8, $3::jsonb) i`,
          [
            JSON.stringify(intentJson(i, lease)),
            lease ? lease.ms + offset() : null,
            JSON.stringify({ at: event.at, type: event.type, data: eventData }),
          ],
        )
      ).rows;
    } catch (e) {
      throw mapPgError(e);
    }
    const inserted = parse(raw)[0];
    if (inserted) return inserted;
    // Nothing inserted: which unique index refused it (they are the only conflicts ON CONFLICT skips).
    const same = await q.query('SELECT 1 FROM refund_desk.intents WHERE id = $1', [i.id]);
    if (same.rowCount) throw new InvariantViolation('id');
    throw new InvariantViolation(i.kind === 'payment' ? 'reference' : 'open_refund');
  }

  /**
   * The guarded transition and its event through refund_desk.transition_intent (which locks the row,
   * checks `from`, merges `data` as RFC 7396 and refuses what four-eyes forbids), then its audit entries,
   * inside the caller's transaction.
   */
  async function transitionNow(c: pg.PoolClient, t: Transition): Promise<IntentRecord | undefined> {
    const { data, ...fields } = t.patch;
    const raw = (
      await c.query<PgRow>(
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.transition_intent($1, $2::text[], $3, $4::jsonb, $5::jsonb) i`,
        [
          t.id,
          [...t.from],
          t.to,
          JSON.stringify(t.patch),
          JSON.stringify({
            at: t.event.at,
            type: t.event.type,
            data: { ...fields, ...data, ...t.event.data },
          }),
        ],
      )
    ).rows;
    const next = parse(raw)[0];
    if (!next) return undefined;
    const entries = t.audit?.(next);
    for (const e of entries ? ([] as AuditRecord[]).concat(entries) : []) await auditNow(c, e);
    return next;
  }

  /** The account's approval policy in a currency (an exact environment before '*'), as the database reads it. */
  async function policyNow(q: Q, a: AccountKey, currency: string): Promise<ApprovalPolicy | undefined> {
    try {
      const r = await q.query<{ above: string; hours: number }>(
        `SELECT approval_above_minor AS above, expire_hours AS hours FROM refund_desk.approval_policies
          WHERE environment IN ($1, '*') AND merchant_no = $2 AND store_no = $3 AND currency = $4
          ORDER BY environment = '*' LIMIT 1`,
        [a.environment, a.merchantNo, a.storeNo, currency],
      );
      const row = r.rows[0];
      return row
        ? { aboveMinor: int8(row.above, 'approval_above_minor'), expireHours: row.hours }
        : undefined;
    } catch (e) {
      throw mapPgError(e);
    }
  }

  /**
   * Approve (unless this person approved it already and never sent it) and claim for sending, in the
   * decision's transaction, through refund_desk.approve_and_claim: it refuses in the database's words
   * (own request, above the checker's limit, expired, not awaiting approval) and gives this sender a
   * lease on the server's clock, renewed by renew_lease while the request is out, like any send.
   */
  async function approveAndClaimNow(
    c: pg.PoolClient,
    id: string,
    lease: LeaseGrant,
    event: IntentEvent,
  ): Promise<IntentRecord> {
    const raw = (
      await c.query<PgRow>(
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.approve_and_claim($1, $2, $3::float8, $4::jsonb) i`,
        [id, lease.holder, lease.ms + offset(), JSON.stringify(event)],
      )
    ).rows;
    const next = parse(raw)[0];
    if (!next)
      throw new AppError(
        'conflict',
        `request ${id} could not be read back after its claim: nothing was sent`,
        {
          retryable: false,
          details: { moneyMoved: 'no', intentId: id },
        },
      );
    return next;
  }

  const txOn = (c: pg.PoolClient): DecideTx => ({
    get: (id) => one(c, id),
    forPayment: forPayment(c),
    byTransaction: byTransaction(c),
    byReference: byReference(c),
    sum: sum(c),
    insert: (record, lease, event) => insertNow(c, record, lease, event),
    transition: (t) => transitionNow(c, t),
    audit: (e) => auditNow(c, e),
    approvals: {
      policy: (account, currency) => policyNow(c, account, currency),
      request: async (record, reason) => (await requestRefund(c, record, reason)).intent,
      approveAndClaim: (id, lease, event) => approveAndClaimNow(c, id, lease, event),
    },
  });

  // watch: one change feed for every listener, only while someone listens.
  const listeners = new Set<(changed: IntentRecord[]) => void>();
  let feed: ChangeFeed | undefined;
  let watermark = startWatermark;
  let feedStopped: Promise<void> = Promise.resolve();
  const readChanges = async (since: bigint) => {
    const c = await checkout();
    let broken: Error | undefined;
    try {
      const res = (await c.query(
        'BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY; SELECT pg_snapshot_xmin(pg_current_snapshot())::text AS x',
      )) as unknown as pg.QueryResult<{ x: string }>[];
      const xmin = BigInt(res[1]!.rows[0]!.x);
      const raw = (
        await c.query<PgRow>(
          `SELECT ${INTENT_COLUMNS}, i.changed_xid::text AS xid FROM refund_desk.intents i
             WHERE changed_xid >= $1::xid8 ORDER BY changed_xid, id`,
          [since.toString()],
        )
      ).rows;
      await c.query('COMMIT');
      const out: Array<{ xid: bigint; record: IntentRecord }> = [];
      for (const r of raw) {
        const [record] = parse([r]);
        if (record) out.push({ xid: BigInt(String(r['xid'])), record });
      }
      return { xmin, rows: out };
    } catch (e) {
      broken = e instanceof Error ? e : new Error(String(e));
      throw e;
    } finally {
      release(c, broken);
    }
  };

  const store: IntentStore = {
    decide: (scope, fn) => inTx(scope, (c) => Promise.resolve(fn(txOn(c)))),
    transition: (t) => inTx([], (c) => transitionNow(c, t)),
    noteCheck: async (id, check: IntentCheck) =>
      (
        await rows(
          pool,
          `SELECT ${INTENT_COLUMNS} FROM refund_desk.note_check($1, $2, $3, $4, $5::jsonb) i`,
          [id, check.at, check.found, check.note, JSON.stringify({ ...check })],
        )
      )[0],
    checksOf: async (id) => {
      const r = await pool.query<{ data: Partial<IntentCheck> }>(
        `SELECT data FROM refund_desk.intent_events WHERE intent_id = $1 AND type = 'checked' ORDER BY id`,
        [id],
      );
      return r.rows.map(({ data: d }) => ({
        at: String(d.at),
        found: d.found === true,
        reached: d.reached !== false,
        note: String(d.note ?? ''),
      }));
    },
    renewLease: async (id, holder, ms) => {
      try {
        const r = await pool.query<{ renewed: boolean }>(
          'SELECT refund_desk.renew_lease($1, $2, $3::float8) AS renewed',
          [id, holder, ms + offset()],
        );
        return r.rows[0]?.renewed === true;
      } catch (e) {
        throw mapPgError(e);
      }
    },
    expiredLeases: (kind) =>
      rows(
        pool,
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i
           WHERE kind = $1 AND state = 'sending'
             AND coalesce(lease_until, '-infinity') <= clock_timestamp() + $2::float8 * interval '1 millisecond'
           ORDER BY created_at, id`,
        [kind, offset()],
      ),
    get: (id) => one(pool, id),
    inStates: (kind, states) =>
      rows(
        pool,
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i WHERE kind = $1 AND state = ANY($2::text[])
           ORDER BY created_at, id`,
        [kind, [...states]],
      ),
    forPayment: forPayment(pool),
    byTransaction: byTransaction(pool),
    sum: sum(pool),
    list: async (q) => {
      const where = ['kind = $1'];
      const params: unknown[] = [q.kind];
      if (q.owner) ownerClause(q.owner, where, params);
      if (q.after) {
        const at = q.after.indexOf('|');
        params.push(q.after.slice(0, at), q.after.slice(at + 1));
        where.push(`(created_at, id) < ($${params.length - 1}, $${params.length})`);
      }
      const limit = q.limit;
      if (limit !== undefined) params.push(limit + 1);
      const raw = await rows(
        pool,
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i WHERE ${where.join(' AND ')}
           ORDER BY created_at DESC, id DESC${limit !== undefined ? ` LIMIT $${params.length}` : ''}`,
        params,
      );
      const more = limit !== undefined && raw.length > limit;
      const items = more ? raw.slice(0, limit) : raw;
      return more && items.length > 0
        ? { items, next: `${items.at(-1)!.createdAt}|${items.at(-1)!.id}` }
        : { items };
    },
    audit: {
      record: (e) => auditNow(pool, e),
      list: async (q): Promise<Page<AuditRecord>> => {
        const where = ['kind = $1'];
        const params: unknown[] = [q.kind];
        if (q.profileId !== undefined) {
          params.push(q.profileId);
          where.push(`profile_id = $${params.length}`);
        }
        if (q.after) {
          params.push(q.after);
          where.push(`id < $${params.length}::int8`);
        }
        if (q.limit !== undefined) params.push(q.limit + 1);
        let raw: PgRow[];
        try {
          raw = (
            await pool.query<PgRow>(
              `SELECT * FROM refund_desk.audit WHERE ${where.join(' AND ')} ORDER BY id DESC${
                q.limit !== undefined ? ` LIMIT $${params.length}` : ''
              }`,
              params,
            )
          ).rows;
        } catch (e) {
          throw mapPgError(e);
        }
        const more = q.limit !== undefined && raw.length > q.limit;
        const page = more ? raw.slice(0, q.limit) : raw;
        const items: AuditRecord[] = [];
        for (const r of page) {
          try {
            items.push(toAudit(r));
          } catch (e) {
            if (!(e instanceof UnusableRowError)) throw e;
            o.onUnusable?.('audit', String(r['id']), e.message);
          }
        }
        return more ? { items, next: String(page.at(-1)!['id']) } : { items };
      },
    },
    approvals: {
      reject: async (id, comment) => (await rejectRequest(pool, id, comment)).intent,
      cancel: async (id, comment) => (await cancelRequest(pool, id, comment)).intent,
      open: async () => (await openRequests(pool)).map((r) => r.intent),
      whoAmI: () => whoAmI(pool),
      approvers: (request) => approversFor(pool, request),
    },
    watch(fn) {
      if (listeners.size === 0) {
        const starting = feedStopped;
        const config = pgClientConfig(o);
        feed = startChangeFeed({
          client: async () => {
            await starting;
            return new pg.Client(config);
          },
          read: readChanges,
          watermark,
          heartbeatMs: o.heartbeatMs ?? 2_000,
          onChanged: (changed) => {
            for (const l of listeners) {
              try {
                l(changed);
              } catch (e) {
                o.onConnectionError?.('watcher', e);
              }
            }
          },
          onError: (where, e) => o.onConnectionError?.(`watch.${where}`, e),
          ...(o.onConnected ? { onListening: o.onConnected } : {}),
        });
      }
      listeners.add(fn);
      return () => {
        if (!listeners.delete(fn) || listeners.size > 0 || !feed) return;
        const f = feed;
        feed = undefined;
        feedStopped = f.stop().then((w) => {
          watermark = w;
        });
      };
    },
  };
  return {
    store,
    stopWatching: async () => {
      listeners.clear();
      const f = feed;
      feed = undefined;
      if (f) watermark = await f.stop();
      await feedStopped;
    },
  };
}

/**
 * Whose intents (shared/domain/account.ts sameAccount, in SQL): the profile's own, or any sent to its
 * account — a Demo account is any Demo sandbox for the merchant and store (the sandbox moves port).
 */
function ownerClause(o: Owner, where: string[], params: unknown[]): void {
  params.push(o.profileId);
  const profile = `profile_id = $${params.length}`;
  if (!o.account) {
    where.push(profile);
    return;
  }
  const a = o.account;
  params.push(a.merchantNo, a.storeNo);
  const account = `merchant_no = $${params.length - 1} AND store_no = $${params.length}`;
  let service = `environment = 'demo'`;
  if (a.environment !== 'demo') {
    params.push(a.baseUrl);
    service = `environment <> 'demo' AND base_url <> '' AND base_url = $${params.length}`;
  }
  where.push(`(${profile} OR (${account} AND ${service}))`);
}
