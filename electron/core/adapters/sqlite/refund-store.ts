import type { AuditEntry } from '../../services/refunds/audit';
import type { Intent, IntentDraft, IntentState } from '../../services/refunds/intent';
import {
  type DecisionTx,
  type IntentCheck,
  type RefundStore,
  type SendingIntent,
  UnreadableIntentError,
} from '../../services/refunds/store';
import type { Database, Row, SqlValue } from './database';
import {
  type OnUnusable,
  readUsable,
  storedCurrency,
  storedEnvironment,
  storedSettleCurrency,
  UnusableRowError,
} from './stored';

/** Row ↔ Intent. Columns are snake_case; optional fields are NULL when absent. */
function toIntent(r: Row): Intent {
  const opt = (k: string) => (r[k] === null || r[k] === undefined ? undefined : String(r[k]));
  const i: Intent = {
    id: String(r['id']),
    state: r['state'] as IntentState,
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    environment: storedEnvironment(r['environment']),
    baseUrl: String(r['base_url']),
    merchantNo: String(r['merchant_no']),
    storeNo: String(r['store_no']),
    transactionNo: String(r['transaction_no']),
    amountMinor: Number(r['amount_minor']),
    currency: storedCurrency(r['currency']),
    reasonCode: String(r['reason_code']),
    reasonNote: String(r['reason_note']),
    operator: String(r['operator']),
    createdAt: String(r['created_at']),
    updatedAt: String(r['updated_at']),
    checks: Number(r['checks']),
    attempts: Number(r['attempts']),
  };
  const settle = storedSettleCurrency(r['settle_currency']);
  if (settle) i.settleCurrency = settle;
  const optional: [keyof Intent, string][] = [
    ['reference', 'reference'],
    ['sender', 'sender'],
    ['refundTransactionNo', 'refund_transaction_no'],
    ['refundStatus', 'refund_status'],
    ['retCode', 'ret_code'],
    ['retMsg', 'ret_msg'],
    ['detail', 'detail'],
    ['closedNotSentAt', 'closed_not_sent_at'],
  ];
  for (const [key, col] of optional) {
    const v = opt(col);
    if (v !== undefined) (i as unknown as Record<string, string>)[key] = v;
  }
  if (r['last_check_at'] !== null && r['last_check_at'] !== undefined) {
    i.lastCheck = {
      at: String(r['last_check_at']),
      found: Number(r['last_check_found']) === 1,
      note: String(r['last_check_note'] ?? ''),
    };
  }
  return i;
}

function toAudit(r: Row): AuditEntry {
  const e: AuditEntry = {
    at: String(r['at']),
    outcome: r['outcome'] as AuditEntry['outcome'],
    operator: String(r['operator']),
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    environment: storedEnvironment(r['environment']),
    intentId: String(r['intent_id']),
    transactionNo: String(r['transaction_no']),
    amountMinor: Number(r['amount_minor']),
    currency: storedCurrency(r['currency']),
    reasonCode: String(r['reason_code']),
    reasonNote: String(r['reason_note']),
  };
  if (r['ret_code'] != null) e.retCode = String(r['ret_code']);
  if (r['ret_msg'] != null) e.retMsg = String(r['ret_msg']);
  if (r['refund_transaction_no'] != null) e.refundTransactionNo = String(r['refund_transaction_no']);
  if (r['detail'] != null) e.detail = String(r['detail']);
  return e;
}

const COUNTED = `('sending', 'outcome_unknown', 'accepted', 'succeeded')`;
/** States in which an intent is final and moved no money: the only ones a decision may do without. */
const NO_MONEY: ReadonlySet<string> = new Set(['rejected', 'refused', 'failed']);
const FINAL = `('rejected', 'refused', 'succeeded', 'failed')`;

/** Inserts an intent row as given (the service's decision, or the one-time import). */
export function insertIntentRow(db: Database, i: Intent, imported = false): void {
  const seq = nextSeq(db);
  db.run(
    `INSERT INTO intents (id, seq, state, profile_id, profile_name, environment, base_url, merchant_no,
       store_no, transaction_no, reference, amount_minor, currency, settle_currency, reason_code,
       reason_note, operator, created_at, updated_at, sender, refund_transaction_no, refund_status,
       ret_code, ret_msg, detail, last_check_at, last_check_found, last_check_note, checks, attempts, imported)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    i.id,
    seq,
    i.state,
    i.profileId,
    i.profileName,
    i.environment,
    i.baseUrl,
    i.merchantNo,
    i.storeNo,
    i.transactionNo,
    i.reference ?? null,
    i.amountMinor,
    i.currency,
    // NOT NULL: an imported refund keeps what the old journal said (even a code this app does not
    // handle); one read back without a settle currency is stored with none.
    i.settleCurrency ?? '',
    i.reasonCode,
    i.reasonNote,
    i.operator,
    i.createdAt,
    i.updatedAt,
    i.sender ?? null,
    i.refundTransactionNo ?? null,
    i.refundStatus ?? null,
    i.retCode ?? null,
    i.retMsg ?? null,
    i.detail ?? null,
    i.lastCheck?.at ?? null,
    i.lastCheck ? (i.lastCheck.found ? 1 : 0) : null,
    i.lastCheck?.note ?? null,
    i.checks,
    i.attempts,
    imported ? 1 : 0,
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

export function insertAuditRow(db: Database, e: AuditEntry): void {
  db.run(
    `INSERT INTO audit (at, outcome, operator, profile_id, profile_name, environment, intent_id,
       transaction_no, amount_minor, currency, reason_code, reason_note, ret_code, ret_msg,
       refund_transaction_no, detail) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    e.at,
    e.outcome,
    e.operator,
    e.profileId,
    e.profileName,
    e.environment,
    e.intentId,
    e.transactionNo,
    e.amountMinor,
    e.currency,
    e.reasonCode,
    e.reasonNote,
    e.retCode ?? null,
    e.retMsg ?? null,
    e.refundTransactionNo ?? null,
    e.detail ?? null,
  );
}

function nextSeq(db: Database): number {
  const r = db.get<{ seq: number }>('UPDATE change_counter SET seq = seq + 1 WHERE id = 1 RETURNING seq');
  return Number(r!.seq);
}

/**
 * Rows that do not parse are never dropped silently: `onBadRow` hears about each (health reports it),
 * and the rest of the list is still returned. A row in a currency this app does not handle is
 * `onUnusable` instead (./stored.ts): reported, left out of lists, not a sign of damage — but never
 * left out of a payment's refund decision (`forPayment` refuses it, UnreadableIntentError).
 */
export function createSqliteRefundStore(
  db: Database,
  opts: {
    onBadRow?: (table: string, id: string, reason: string) => void;
    onUnusable?: OnUnusable;
  } = {},
): RefundStore {
  /** The intent, or why it cannot be read (reported either way: health shows it). */
  const read = (r: Row): Intent | Error => {
    try {
      return toIntent(r);
    } catch (e) {
      if (e instanceof UnusableRowError) opts.onUnusable?.('intents', String(r['id']), e.message);
      else opts.onBadRow?.('intents', String(r['id']), e instanceof Error ? e.message : String(e));
      return e instanceof Error ? e : new Error(String(e));
    }
  };
  const parse = (raw: Row[]): Intent[] => {
    const out: Intent[] = [];
    for (const r of raw) {
      const i = read(r);
      if (!(i instanceof Error)) out.push(i);
    }
    return out;
  };
  const rows = (sql: string, ...params: SqlValue[]) => parse(db.all(sql, ...params));
  const one = (id: string) => rows('SELECT * FROM intents WHERE id = ?', id)[0];
  /**
   * Every intent of one payment, for deciding its refunds. A row that cannot be read is never left out
   * here: unless it ended without moving money, its amount may be refunded and it may still be open, so
   * what remains cannot be worked out without it — the decision is refused with the reason.
   */
  const forPayment = (m: string, s: string, t: string) => {
    const out: Intent[] = [];
    for (const r of db.all(
      'SELECT * FROM intents WHERE merchant_no = ? AND store_no = ? AND transaction_no = ? ORDER BY created_at',
      m,
      s,
      t,
    )) {
      const intent = read(r);
      if (!(intent instanceof Error)) out.push(intent);
      else if (!NO_MONEY.has(String(r['state'])))
        throw new UnreadableIntentError(
          String(r['id']),
          `Refund ${String(r['id'])} of this payment is in the database but cannot be read (${intent.message}); it may have refunded money or still be unresolved, so what remains refundable cannot be worked out. Look the payment up with the payment service: this desk does not refund it.`,
        );
    }
    return out;
  };
  const dayTotal = (m: string, s: string, ccy: string, from: string, to: string) =>
    Number(
      db.get<{ total: number }>(
        `SELECT COALESCE(SUM(amount_minor), 0) AS total FROM intents WHERE merchant_no = ? AND store_no = ?
           AND UPPER(TRIM(currency)) = ? AND created_at >= ? AND created_at < ? AND state IN ${COUNTED}`,
        m,
        s,
        ccy,
        from,
        to,
      )!.total,
    );

  const tx: DecisionTx = {
    forPayment,
    dayTotal,
    insertSending(draft: IntentDraft, sender: string, at: string): SendingIntent {
      const intent: Intent = { ...draft, state: 'sending', updatedAt: at, sender, checks: 0, attempts: 1 };
      insertIntentRow(db, intent);
      insertEventRow(db, intent.id, { at, type: 'decided', from: null, to: 'sending', data: { sender } });
      return { ...one(intent.id)!, settleCurrency: draft.settleCurrency };
    },
  };

  return {
    decide: (fn) => db.immediate(() => fn(tx)),
    get: one,
    list: () => rows('SELECT * FROM intents ORDER BY created_at DESC, id DESC'),
    unfinished: () => rows(`SELECT * FROM intents WHERE state NOT IN ${FINAL} ORDER BY created_at`),
    closedSince: (sinceIso) =>
      rows(
        `SELECT * FROM intents WHERE state = 'refused' AND closed_not_sent_at IS NOT NULL
           AND closed_not_sent_at > ? ORDER BY closed_not_sent_at`,
        sinceIso,
      ),
    forPayment,
    dayTotal,
    transition(id, from, to, patch, event) {
      return db.immediate(() => {
        const cur = db.get<{ state: string }>('SELECT state FROM intents WHERE id = ?', id);
        if (!cur || !from.includes(cur.state as IntentState)) return undefined;
        const sets = ['state = ?', 'updated_at = ?', 'seq = ?'];
        const params: SqlValue[] = [to, event.at, nextSeq(db)];
        const cols: [keyof typeof patch, string][] = [
          ['refundTransactionNo', 'refund_transaction_no'],
          ['refundStatus', 'refund_status'],
          ['retCode', 'ret_code'],
          ['retMsg', 'ret_msg'],
          ['detail', 'detail'],
          ['closedNotSentAt', 'closed_not_sent_at'],
        ];
        for (const [k, col] of cols) {
          if (k in patch) {
            sets.push(`${col} = ?`);
            params.push(patch[k] ?? null);
          }
        }
        const r = db.run(
          `UPDATE intents SET ${sets.join(', ')} WHERE id = ? AND state = ?`,
          ...params,
          id,
          cur.state,
        );
        if (r.changes !== 1) return undefined;
        insertEventRow(db, id, {
          at: event.at,
          type: event.type,
          from: cur.state,
          to,
          data: { ...patch, ...event.data },
        });
        return one(id);
      });
    },
    noteCheck(id, check) {
      return db.immediate(() => {
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
      });
    },
    checksOf(id) {
      return db
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
        });
    },
    changesSince(seq) {
      // One statement, one snapshot: the next sequence comes from the rows read, so nothing committed
      // in between is skipped.
      const raw = db.all('SELECT * FROM intents WHERE seq > ? ORDER BY seq', seq);
      const next = raw.reduce((m, r) => Math.max(m, Number(r['seq'])), seq);
      return { intents: parse(raw), seq: next };
    },
    currentSeq: () => Number(db.get<{ s: number | null }>('SELECT MAX(seq) AS s FROM intents')?.s ?? 0),
    dataVersion: () => db.dataVersion(),
    audit: {
      record: (e) => db.immediate(() => insertAuditRow(db, e)),
      list: () =>
        readUsable('audit', db.all('SELECT * FROM audit ORDER BY id DESC'), toAudit, opts.onUnusable),
    },
  };
}
