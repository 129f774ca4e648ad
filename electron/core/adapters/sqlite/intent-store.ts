import type {
  AuditRecord,
  DecideTx,
  IntentCheck,
  IntentEvent,
  IntentKind,
  IntentRecord,
  IntentStore,
  LeaseGrant,
  Owner,
  Page,
  RecordPatch,
  Transition,
} from '../../services/engine/port';
import { InvariantViolation, UnreadableRecords, type UnreadableRow } from '../../services/engine/port';
import { exclusiveOn } from './write-queue';
import type { Database, Row, SqlValue } from './database';
import { auditRecordOf, intentRecordOf, type RowValues, withoutNulls } from '../journal-rows';
import { type OnUnusable, UnusableRowError } from './stored';

/**
 * The intent engine's store on the app's SQLite file (schema v5: one `intents` table with a kind).
 *
 * - Exclusivity: every write is one BEGIN IMMEDIATE transaction, and SQLite's write lock is
 *   database-wide, so any decision scope is covered (the scope matters to network stores). In this
 *   process, writes queue on one promise chain, because a connection has one transaction at a time.
 * - Leases are in the store's clock (`now`, injected): every process on this file shares the machine's.
 * - `watch` polls `PRAGMA data_version` (changes when another connection commits) and then reads the
 *   rows whose `seq` moved: an adapter detail, not the engine's.
 */
export interface SqliteIntentStoreOptions {
  now: () => number;
  /** A row that cannot be read (health reports it; refunds are then refused as untrusted). */
  onBadRow?: (table: string, id: string, reason: string) => void;
  onUnusable?: OnUnusable;
  /** How often other processes' commits are looked for while someone watches. */
  watchMs?: number;
}

/** What SQLite hands over: `data` as JSON text, integers as numbers, the last check's `found` as 0/1. */
const SQLITE_VALUES: RowValues = {
  data: (v) => withoutNulls(JSON.parse(String(v ?? '{}')) as Record<string, unknown>),
  int: (v) => Number(v),
  found: (v) => Number(v) === 1,
  leaseColumn: 'lease_until',
};
const toRecord = (r: Row): IntentRecord => intentRecordOf(r, SQLITE_VALUES);
const toAudit = (r: Row): AuditRecord => auditRecordOf(r, SQLITE_VALUES);

const isConstraint = (e: unknown) =>
  ((e as { errcode?: number }).errcode ?? 0) % 256 === 19 ||
  /UNIQUE constraint/.test(String((e as Error).message ?? ''));

/** Which invariant a UNIQUE failure names (SQLite's message lists the index's columns). */
function violation(e: unknown): InvariantViolation {
  const m = String((e as Error).message ?? '');
  if (/intents\.reference/.test(m)) return new InvariantViolation('reference');
  if (/intents\.id/.test(m)) return new InvariantViolation('id');
  return new InvariantViolation('open_refund');
}

/**
 * Inserts an intent row as given (a decision, a migration test, or the one-time import). `duplicateOf`:
 * only the import of an old journal that holds two open refunds of one payment sets it (schema.ts, v5).
 */
export function insertIntentRecord(
  db: Database,
  i: IntentRecord,
  duplicateOf?: string,
  data = JSON.stringify(i.data),
): void {
  db.run(
    `INSERT INTO intents (id, kind, seq, state, profile_id, profile_name, environment, base_url, merchant_no,
       store_no, transaction_no, reference, amount_minor, currency, settle_currency, operator, created_at,
       updated_at, sender, lease_until, ret_code, ret_msg, detail, card_last4, last_check_at, last_check_found,
       last_check_note, checks, attempts, data, duplicate_of)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    i.id,
    i.kind,
    nextSeq(db),
    i.state,
    i.profileId,
    i.profileName,
    i.environment,
    i.baseUrl,
    i.merchantNo,
    i.storeNo,
    i.transactionNo ?? null,
    i.reference ?? null,
    i.amountMinor,
    i.currency,
    // NOT NULL: a record read back without a settle currency is stored with none.
    i.settleCurrency ?? '',
    i.operator,
    i.createdAt,
    i.updatedAt,
    i.sender ?? null,
    i.leaseUntil ?? null,
    i.retCode ?? null,
    i.retMsg ?? null,
    i.detail ?? null,
    i.cardLast4 ?? null,
    i.lastCheck?.at ?? null,
    i.lastCheck ? (i.lastCheck.found ? 1 : 0) : null,
    i.lastCheck?.note ?? null,
    i.checks,
    i.attempts,
    data,
    duplicateOf ?? null,
  );
}

export function insertEventRow(
  db: Database,
  intentId: string,
  e: { at: string; type: string; from?: string | null; to: string; data?: Record<string, unknown> },
): void {
  db.run(
    'INSERT INTO intent_events (intent_id, at, type, from_state, to_state, data) VALUES (?, ?, ?, ?, ?, ?)',
    intentId,
    e.at,
    e.type,
    e.from ?? null,
    e.to,
    JSON.stringify(e.data ?? {}),
  );
}

export function insertAuditRecord(db: Database, e: AuditRecord): void {
  db.run(
    `INSERT INTO audit (kind, at, outcome, operator, profile_id, profile_name, environment, subject_id,
       transaction_no, amount_minor, currency, ret_code, ret_msg, detail, data)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    e.kind,
    e.at,
    e.outcome,
    e.operator,
    e.profileId,
    e.profileName,
    e.environment,
    e.subjectId,
    e.transactionNo ?? null,
    e.amountMinor ?? null,
    e.currency ?? null,
    e.retCode ?? null,
    e.retMsg ?? null,
    e.detail ?? null,
    JSON.stringify(e.data),
  );
}

function nextSeq(db: Database): number {
  const r = db.get<{ seq: number }>('UPDATE change_counter SET seq = seq + 1 WHERE id = 1 RETURNING seq');
  return Number(r!.seq);
}

/**
 * Kinds and states go into the SQL text as literals, never as bound parameters. The partial indexes name
 * them (one open refund, a payment's reference), and when a WHERE term compares such a column with a
 * bound parameter, SQLite decides per value whether the partial index applies — so it re-prepares the
 * statement on every run (parse and plan again: 10–15 µs a statement, most of a decision). Both sets are
 * closed; anything else is refused here rather than written into SQL.
 */
const KINDS: ReadonlySet<string> = new Set<IntentKind>(['refund', 'payment']);
function kindSql(kind: IntentKind): string {
  if (!KINDS.has(kind)) throw new Error(`unknown intent kind: ${String(kind)}`);
  return `'${kind}'`;
}
function stateSql(state: string): string {
  if (!/^[a-z_]{1,40}$/.test(state)) throw new Error(`not a state name: ${state}`);
  return `'${state}'`;
}
const statesSql = (states: readonly string[]) => `(${states.map(stateSql).join(', ')})`;

const byAge = (a: IntentRecord, b: IntentRecord) =>
  a.createdAt === b.createdAt ? (a.id < b.id ? -1 : 1) : a.createdAt < b.createdAt ? -1 : 1;

/** `created_at|id` of the last row of a page: the next page starts strictly below it. */
const cursorOf = (r: IntentRecord) => `${r.createdAt}|${r.id}`;

export function createSqliteIntentStore(db: Database, opts: SqliteIntentStoreOptions): IntentStore {
  /** Rows as records; one that cannot be read is reported (health shows it) and handed to `skipped`. */
  const parse = (raw: Row[], skipped?: (row: UnreadableRow) => void): IntentRecord[] => {
    const out: IntentRecord[] = [];
    for (const r of raw) {
      try {
        out.push(toRecord(r));
      } catch (e) {
        const reason = e instanceof Error ? e.message : String(e);
        if (e instanceof UnusableRowError) opts.onUnusable?.('intents', String(r['id']), reason);
        else opts.onBadRow?.('intents', String(r['id']), reason);
        skipped?.({ id: String(r['id']), state: String(r['state']), reason });
      }
    }
    return out;
  };
  const rows = (sql: string, ...params: SqlValue[]) => parse(db.all(sql, ...params));
  /**
   * Few rows, oldest first. Sorted here, not by ORDER BY: with no statistics, SQLite would otherwise walk
   * the (kind, created_at) list index over every intent of the kind to skip a sort of a handful of rows,
   * instead of seeking the index the query pins (payment, state). test/unit/adapters/intent-store-plans.
   */
  const oldestFirst = (sql: string, ...params: SqlValue[]) => rows(sql, ...params).sort(byAge);
  const one = (id: string) => rows('SELECT * FROM intents WHERE id = ?', id)[0];

  // One transaction at a time on this connection: writes queue here, with the other stores' on it.
  const exclusive = exclusiveOn(db);

  /** A payment's intents, oldest first; never without one that cannot be read (UnreadableRecords). */
  const forPayment: DecideTx['forPayment'] = async (kind, k) => {
    const unreadable: UnreadableRow[] = [];
    const out = parse(
      db.all(
        `SELECT * FROM intents WHERE kind = ${kindSql(kind)} AND merchant_no = ? AND store_no = ?
           AND transaction_no = ?`,
        k.merchantNo,
        k.storeNo,
        k.transactionNo,
      ),
      (row) => unreadable.push(row),
    ).sort(byAge);
    if (unreadable.length > 0) throw new UnreadableRecords(out, unreadable);
    return out;
  };
  const byTransaction: DecideTx['byTransaction'] = async (kind, merchantNo, transactionNo) =>
    oldestFirst(
      `SELECT * FROM intents WHERE kind = ${kindSql(kind)} AND merchant_no = ? AND transaction_no = ?`,
      merchantNo,
      transactionNo,
    );
  const byReference: DecideTx['byReference'] = async (kind, merchantNo, reference) =>
    rows(
      `SELECT * FROM intents WHERE kind = ${kindSql(kind)} AND merchant_no = ? AND reference = ?`,
      merchantNo,
      reference,
    );
  const sum: DecideTx['sum'] = async (q) =>
    Number(
      db.get<{ total: number }>(
        `SELECT COALESCE(SUM(amount_minor), 0) AS total FROM intents WHERE kind = ${kindSql(q.kind)}
           AND merchant_no = ? AND store_no = ? AND upper(trim(currency)) = ? AND created_at >= ?
           AND created_at < ?
           AND state IN ${statesSql(q.states)}`,
        q.account.merchantNo,
        q.account.storeNo,
        q.currency,
        q.fromIso,
        q.toIso,
      )!.total,
    );

  /** The transition's statements, inside a transaction the caller holds. */
  function transitionNow(t: Transition): IntentRecord | undefined {
    const cur = db.get<{ state: string }>('SELECT state FROM intents WHERE id = ?', t.id);
    if (!cur || !t.from.includes(cur.state)) return undefined;
    const sets = ['state = ?', 'updated_at = ?', 'seq = ?'];
    const params: SqlValue[] = [t.to, t.event.at, nextSeq(db)];
    // Leaving `sending` ends the sender's lease: nobody is sending it any more.
    if (t.to !== 'sending') sets.push('lease_until = NULL');
    const cols: [keyof RecordPatch, string][] = [
      ['transactionNo', 'transaction_no'],
      ['retCode', 'ret_code'],
      ['retMsg', 'ret_msg'],
      ['detail', 'detail'],
    ];
    for (const [k, col] of cols) {
      if (k in t.patch) {
        sets.push(`${col} = ?`);
        params.push((t.patch[k] as string | null | undefined) ?? null);
      }
    }
    if (t.patch.data && Object.keys(t.patch.data).length > 0) {
      // json_patch: a null member removes the field ("null clears").
      sets.push('data = json_patch(data, ?)');
      params.push(JSON.stringify(t.patch.data));
    }
    const r = db.run(
      `UPDATE intents SET ${sets.join(', ')} WHERE id = ? AND state = ${stateSql(cur.state)}`,
      ...params,
      t.id,
    );
    if (r.changes !== 1) return undefined;
    const { data, ...fields } = t.patch;
    insertEventRow(db, t.id, {
      at: t.event.at,
      type: t.event.type,
      from: cur.state,
      to: t.to,
      data: { ...fields, ...data, ...t.event.data },
    });
    const next = one(t.id);
    const entries = next && t.audit?.(next);
    for (const e of entries ? ([] as AuditRecord[]).concat(entries) : []) insertAuditRecord(db, e);
    return next;
  }

  function insertNow(record: IntentRecord, lease: LeaseGrant | undefined, event: IntentEvent): IntentRecord {
    const row: IntentRecord = {
      ...record,
      ...(lease ? { sender: lease.holder, leaseUntil: opts.now() + lease.ms } : {}),
    };
    const data = JSON.stringify(row.data);
    try {
      insertIntentRecord(db, row, undefined, data);
    } catch (e) {
      if (isConstraint(e)) throw violation(e);
      throw e;
    }
    insertEventRow(db, row.id, {
      at: event.at,
      type: event.type,
      from: null,
      to: row.state,
      data: { ...(lease ? { sender: lease.holder } : {}), ...event.data },
    });
    // What was written, without reading it back: its `data` as stored (no undefined members).
    return { ...row, data: JSON.parse(data) as Record<string, unknown> };
  }

  const tx: DecideTx = {
    get: async (id) => one(id),
    forPayment,
    byTransaction,
    byReference,
    sum,
    insert: async (record, lease, event) => insertNow(record, lease, event),
    transition: async (t) => transitionNow(t),
    audit: async (e) => insertAuditRecord(db, e),
  };

  // watch: one poller for every listener, only while someone listens.
  const listeners = new Set<(changed: IntentRecord[]) => void>();
  let timer: ReturnType<typeof setInterval> | undefined;
  let version = 0;
  let seq = 0;
  const poll = () => {
    try {
      const v = db.dataVersion();
      if (v === version) return;
      version = v;
      const raw = db.all('SELECT * FROM intents WHERE seq > ? ORDER BY seq', seq);
      seq = raw.reduce((m, r) => Math.max(m, Number(r['seq'])), seq);
      const changed = parse(raw);
      if (changed.length > 0) for (const l of listeners) l(changed);
    } catch {
      // A busy or closed database: the next poll tries again.
    }
  };

  return {
    decide: (_scope, fn) => exclusive(() => fn(tx)),
    transition: (t) => exclusive(() => transitionNow(t)),
    noteCheck: (id, check: IntentCheck) =>
      exclusive(() => {
        const r = db.run(
          `UPDATE intents SET last_check_at = ?, last_check_found = ?, last_check_note = ?, checks = checks + 1,
             seq = ?, updated_at = ? WHERE id = ?`,
          check.at,
          check.found ? 1 : 0,
          check.note,
          nextSeq(db),
          check.at,
          id,
        );
        if (r.changes !== 1) return undefined;
        const cur = one(id)!;
        insertEventRow(db, id, {
          at: check.at,
          type: 'checked',
          from: cur.state,
          to: cur.state,
          data: { ...check },
        });
        return cur;
      }),
    checksOf: async (id) =>
      db
        .all<{ data: string }>(
          `SELECT data FROM intent_events WHERE intent_id = ? AND type = 'checked' ORDER BY id`,
          id,
        )
        .map((r) => {
          const d = JSON.parse(r.data) as Partial<IntentCheck>;
          return {
            at: String(d.at),
            found: d.found === true,
            reached: d.reached !== false,
            note: String(d.note ?? ''),
          };
        }),
    renewLease: (id, holder, ms) =>
      exclusive(
        () =>
          db.run(
            `UPDATE intents SET lease_until = ? WHERE id = ? AND state = 'sending' AND sender = ?`,
            opts.now() + ms,
            id,
            holder,
          ).changes === 1,
      ),
    expiredLeases: async (kind) =>
      oldestFirst(
        `SELECT * FROM intents WHERE kind = ${kindSql(kind)} AND state = 'sending'
           AND (lease_until IS NULL OR lease_until <= ?)`,
        opts.now(),
      ),
    get: async (id) => one(id),
    inStates: async (kind, states) =>
      oldestFirst(`SELECT * FROM intents WHERE kind = ${kindSql(kind)} AND state IN ${statesSql(states)}`),
    forPayment,
    byTransaction,
    sum,
    list: async (q) => {
      const where = [`kind = ${kindSql(q.kind)}`];
      const params: SqlValue[] = [];
      if (q.owner) ownerClause(q.owner, where, params);
      if (q.after) {
        const at = q.after.indexOf('|');
        where.push('(created_at < ? OR (created_at = ? AND id < ?))');
        const c = q.after.slice(0, at);
        params.push(c, c, q.after.slice(at + 1));
      }
      const limit = q.limit ?? -1;
      const raw = db.all(
        `SELECT * FROM intents WHERE ${where.join(' AND ')} ORDER BY created_at DESC, id DESC LIMIT ?`,
        ...params,
        limit === -1 ? -1 : limit + 1,
      );
      const more = limit !== -1 && raw.length > limit;
      const items = parse(more ? raw.slice(0, limit) : raw);
      return more && items.length > 0 ? { items, next: cursorOf(items.at(-1)!) } : { items };
    },
    audit: {
      record: (e) => exclusive(() => insertAuditRecord(db, e)),
      list: async (q): Promise<Page<AuditRecord>> => {
        const where = ['kind = ?'];
        const params: SqlValue[] = [q.kind];
        if (q.profileId !== undefined) {
          where.push('profile_id = ?');
          params.push(q.profileId);
        }
        if (q.after) {
          where.push('id < ?');
          params.push(Number(q.after));
        }
        const limit = q.limit ?? -1;
        const raw = db.all(
          `SELECT * FROM audit WHERE ${where.join(' AND ')} ORDER BY id DESC LIMIT ?`,
          ...params,
          limit === -1 ? -1 : limit + 1,
        );
        const more = limit !== -1 && raw.length > limit;
        const page = more ? raw.slice(0, limit) : raw;
        const items: AuditRecord[] = [];
        for (const r of page) {
          try {
            items.push(toAudit(r));
          } catch (e) {
            if (!(e instanceof UnusableRowError)) throw e;
            opts.onUnusable?.('audit', String(r['id']), e.message);
          }
        }
        return more ? { items, next: String(page.at(-1)!['id']) } : { items };
      },
    },
    watch(fn) {
      if (listeners.size === 0) {
        version = db.dataVersion();
        seq = Number(db.get<{ s: number | null }>('SELECT MAX(seq) AS s FROM intents')?.s ?? 0);
        timer = setInterval(poll, opts.watchMs ?? 250);
        timer.unref?.();
      }
      listeners.add(fn);
      return () => {
        listeners.delete(fn);
        if (listeners.size === 0) clearInterval(timer);
      };
    },
  };
}

/**
 * Whose intents (shared/domain/account.ts sameAccount, in SQL): the profile's own, or any sent to its
 * account — a Demo account is any Demo sandbox for the merchant and store (the sandbox moves port).
 */
function ownerClause(o: Owner, where: string[], params: SqlValue[]): void {
  if (!o.account) {
    where.push('profile_id = ?');
    params.push(o.profileId);
    return;
  }
  const a = o.account;
  const service =
    a.environment === 'demo'
      ? `environment = 'demo'`
      : `environment <> 'demo' AND base_url <> '' AND base_url = ?`;
  where.push(`(profile_id = ? OR (merchant_no = ? AND store_no = ? AND ${service}))`);
  params.push(o.profileId, a.merchantNo, a.storeNo, ...(a.environment === 'demo' ? [] : [a.baseUrl]));
}
