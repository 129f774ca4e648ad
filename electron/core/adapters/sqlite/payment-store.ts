import { AppError } from '../../../../shared/domain/errors';
import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import type { PaymentIntent, PaymentPatch, PaymentState } from '../../services/payments/intent';
import type { CustomerRecord, PaymentStore, StoredMethod } from '../../services/payments/store';
import type { Database, Row, SqlValue } from './database';
import { scrubAudit, scrubDraft, scrubIntent, scrubNote, scrubPatch } from './payment-scrub';
import { type OnUnusable, readUsable, storedCurrency, storedEnvironment } from './stored';

/**
 * Field ↔ column maps. Optional fields are NULL when absent; a map drives reading, inserting and
 * patching alike, so a new column is added in one place.
 */
type Kind = 'text' | 'int' | 'bool' | 'json';
type ColumnMap<T> = ReadonlyArray<readonly [keyof T & string, string, Kind, 'optional'?]>;

const ACCOUNT = [
  ['profileId', 'profile_id', 'text'],
  ['environment', 'environment', 'text'],
  ['baseUrl', 'base_url', 'text'],
  ['merchantNo', 'merchant_no', 'text'],
  ['storeNo', 'store_no', 'text'],
] as const;

const INTENT_COLUMNS: ColumnMap<PaymentIntent> = [
  ['id', 'id', 'text'],
  ['kind', 'kind', 'text'],
  ['state', 'state', 'text'],
  ...ACCOUNT,
  ['profileName', 'profile_name', 'text'],
  ['operator', 'operator', 'text'],
  ['reference', 'reference', 'text'],
  ['amountMinor', 'amount_minor', 'int'],
  ['currency', 'currency', 'text'],
  ['settleCurrency', 'settle_currency', 'text'],
  ['vendor', 'vendor', 'text'],
  ['terminal', 'terminal', 'text'],
  ['description', 'description', 'text', 'optional'],
  ['note', 'note', 'text', 'optional'],
  ['goods', 'goods', 'json'],
  ['timeoutMin', 'timeout_min', 'int', 'optional'],
  ['customerId', 'customer_id', 'text', 'optional'],
  ['customerNo', 'customer_no', 'text', 'optional'],
  ['methodId', 'method_id', 'text', 'optional'],
  ['saveCard', 'save_card', 'bool'],
  ['cardLast4', 'card_last4', 'text', 'optional'],
  ['sender', 'sender', 'text', 'optional'],
  ['transactionNo', 'transaction_no', 'text', 'optional'],
  ['paymentStatus', 'payment_status', 'text', 'optional'],
  ['cashierUrl', 'cashier_url', 'text', 'optional'],
  ['authUrl', 'auth_url', 'text', 'optional'],
  ['savedMethodId', 'saved_method_id', 'text', 'optional'],
  ['retCode', 'ret_code', 'text', 'optional'],
  ['retMsg', 'ret_msg', 'text', 'optional'],
  ['detail', 'detail', 'text', 'optional'],
  ['checks', 'checks', 'int'],
  ['createdAt', 'created_at', 'text'],
  ['updatedAt', 'updated_at', 'text'],
  ['paidAt', 'paid_at', 'text', 'optional'],
];

const CUSTOMER_COLUMNS: ColumnMap<CustomerRecord> = [
  ['id', 'id', 'text'],
  ...ACCOUNT,
  ['customerNo', 'customer_no', 'text'],
  ['customerCode', 'customer_code', 'text', 'optional'],
  ['firstName', 'first_name', 'text'],
  ['lastName', 'last_name', 'text'],
  ['email', 'email', 'text'],
  ['countryCode', 'country_code', 'text'],
  ['state', 'state', 'text', 'optional'],
  ['operator', 'operator', 'text'],
  ['createdAt', 'created_at', 'text'],
];

const METHOD_COLUMNS: ColumnMap<StoredMethod> = [
  ['id', 'id', 'text'],
  ['customerId', 'customer_id', 'text'],
  ['vendor', 'vendor', 'text'],
  ['vaultId', 'vault_id', 'text'],
  ['cardLast4', 'card_last4', 'text', 'optional'],
  ['paymentId', 'payment_id', 'text', 'optional'],
  ['createdAt', 'created_at', 'text'],
];

const AUDIT_COLUMNS: ColumnMap<PaymentAuditEntry> = [
  ['at', 'at', 'text'],
  ['operator', 'operator', 'text'],
  ['profileId', 'profile_id', 'text'],
  ['profileName', 'profile_name', 'text'],
  ['environment', 'environment', 'text'],
  ['action', 'action', 'text'],
  ['outcome', 'outcome', 'text'],
  ['subjectId', 'subject_id', 'text'],
  ['reference', 'reference', 'text', 'optional'],
  ['transactionNo', 'transaction_no', 'text', 'optional'],
  ['customerNo', 'customer_no', 'text', 'optional'],
  ['amountMinor', 'amount_minor', 'int', 'optional'],
  ['currency', 'currency', 'text', 'optional'],
  ['vendor', 'vendor', 'text', 'optional'],
  ['retCode', 'ret_code', 'text', 'optional'],
  ['retMsg', 'ret_msg', 'text', 'optional'],
  ['detail', 'detail', 'text', 'optional'],
];

function fromRow<T>(map: ColumnMap<T>, r: Row): T {
  const out: Record<string, unknown> = {};
  for (const [key, col, kind] of map) {
    const v = r[col];
    if (v === null || v === undefined) continue;
    out[key] =
      kind === 'int'
        ? Number(v)
        : kind === 'bool'
          ? Number(v) === 1
          : kind === 'json'
            ? JSON.parse(String(v))
            : String(v);
  }
  return out as T;
}

function toSql(kind: Kind, v: unknown): SqlValue {
  if (v === undefined || v === null) return null;
  if (kind === 'bool') return v ? 1 : 0;
  if (kind === 'json') return JSON.stringify(v);
  return v as SqlValue;
}

function insertRow<T>(db: Database, table: string, map: ColumnMap<T>, value: T, or = ''): number {
  const cols = map.map(([, col]) => col);
  return db.run(
    `INSERT ${or} INTO ${table} (${cols.join(', ')}) VALUES (${cols.map(() => '?').join(', ')})`,
    ...map.map(([key, , kind]) => toSql(kind, (value as Record<string, unknown>)[key])),
  ).changes;
}

/** SQLite error for a UNIQUE / constraint violation (extended codes carry 19 in the low byte). */
const isConstraint = (e: unknown) =>
  ((e as { errcode?: number }).errcode ?? 0) % 256 === 19 ||
  /UNIQUE constraint/.test(String((e as Error).message ?? ''));

const PATCH_COLUMNS = INTENT_COLUMNS.filter(([key]) =>
  [
    'transactionNo',
    'paymentStatus',
    'cashierUrl',
    'authUrl',
    'retCode',
    'retMsg',
    'detail',
    'paidAt',
  ].includes(key),
);

/** Payment intents, customers, stored methods and the payments audit log in the app database. */
export function createSqlitePaymentStore(db: Database, opts: { onUnusable?: OnUnusable } = {}): PaymentStore {
  const intents = (sql: string, ...params: SqlValue[]) =>
    readUsable(
      'payment_intents',
      db.all(sql, ...params),
      (r) => scrubIntent(withCheck(journalRow(fromRow(INTENT_COLUMNS, r), r), r)),
      opts.onUnusable,
    );
  const one = (id: string) => intents('SELECT * FROM payment_intents WHERE id = ?', id)[0];
  const event = (
    id: string,
    e: { at: string; type: string; from: string | null; to: string; data: object },
  ) =>
    db.run(
      'INSERT INTO payment_events (intent_id, at, type, from_state, to_state, data) VALUES (?, ?, ?, ?, ?, ?)',
      id,
      e.at,
      e.type,
      e.from,
      e.to,
      JSON.stringify(e.data),
    );
  const method = (id: string) =>
    db.all('SELECT * FROM payment_methods WHERE id = ?', id).map((r) => fromRow(METHOD_COLUMNS, r))[0];

  return {
    insertSending(draft, sender, at) {
      return db.immediate(() => {
        const taken = `SELECT * FROM payment_intents WHERE merchant_no = ? AND reference = ? AND state <> 'rejected'`;
        const existing = intents(taken, draft.merchantNo, draft.reference)[0];
        if (existing) return { ok: false as const, reason: 'reference_in_use' as const, existing };
        const intent: PaymentIntent = {
          ...scrubDraft(draft),
          state: 'sending',
          sender,
          updatedAt: at,
          checks: 0,
        };
        try {
          insertRow(db, 'payment_intents', INTENT_COLUMNS, intent);
        } catch (e) {
          if (!isConstraint(e)) throw e;
          const raced = intents(taken, draft.merchantNo, draft.reference)[0];
          if (raced) return { ok: false as const, reason: 'reference_in_use' as const, existing: raced };
          throw e;
        }
        event(intent.id, { at, type: 'decided', from: null, to: 'sending', data: { sender } });
        return { ok: true as const, intent: one(intent.id)! };
      });
    },
    get: one,
    list: (profileId) =>
      profileId === undefined
        ? intents('SELECT * FROM payment_intents ORDER BY created_at DESC, id DESC')
        : intents(
            'SELECT * FROM payment_intents WHERE profile_id = ? ORDER BY created_at DESC, id DESC',
            profileId,
          ),
    unfinished: () =>
      intents(
        `SELECT * FROM payment_intents WHERE state IN ('sending', 'open', 'outcome_unknown') ORDER BY created_at`,
      ),
    byTransaction: (merchantNo, transactionNo) =>
      intents(
        'SELECT * FROM payment_intents WHERE merchant_no = ? AND transaction_no = ?',
        merchantNo,
        transactionNo,
      )[0],
    transition(id, from, to, given, ev) {
      return db.immediate(() => {
        const cur = db.get<{ state: string } & Row>(
          'SELECT state, transaction_no, reference, customer_no, merchant_no, store_no FROM payment_intents WHERE id = ?',
          id,
        );
        if (!cur || !from.includes(cur.state as PaymentState)) return undefined;
        // Belt and braces: no card data into the row or its event, whoever wrote the patch.
        const patch = scrubPatch(given, fromRow(INTENT_COLUMNS, cur));
        // A transaction number is one payment's: never recorded for a second intent of the merchant,
        // decided inside the write lock so two processes given the same number cannot both keep it.
        if (typeof patch.transactionNo === 'string') {
          const other = db.get<{ id: string }>(
            'SELECT id FROM payment_intents WHERE merchant_no = ? AND transaction_no = ? AND id <> ?',
            cur['merchant_no'] as string,
            patch.transactionNo,
            id,
          );
          if (other)
            throw new AppError(
              'conflict',
              `Transaction ${patch.transactionNo} is already recorded for payment ${other.id}.`,
              { details: { transactionNoTakenBy: other.id } },
            );
        }
        const sets = ['state = ?', 'updated_at = ?'];
        const params: SqlValue[] = [to, ev.at];
        for (const [key, col] of PATCH_COLUMNS) {
          if (key in patch) {
            sets.push(`${col} = ?`);
            params.push(patch[key as keyof PaymentPatch] ?? null);
          }
        }
        const r = db.run(
          `UPDATE payment_intents SET ${sets.join(', ')} WHERE id = ? AND state = ?`,
          ...params,
          id,
          cur.state,
        );
        if (r.changes !== 1) return undefined;
        event(id, { at: ev.at, type: ev.type, from: cur.state, to, data: { ...patch, ...ev.data } });
        return one(id);
      });
    },
    noteCheck(id, given) {
      return db.immediate(() => {
        const row = db.get<Row>(
          'SELECT transaction_no, reference, customer_no, merchant_no, store_no FROM payment_intents WHERE id = ?',
          id,
        );
        const check = { ...given, note: scrubNote(given.note, row ? fromRow(INTENT_COLUMNS, row) : {}) };
        const r = db.run(
          `UPDATE payment_intents SET last_check_at = ?, last_check_found = ?, last_check_note = ?,
             checks = checks + 1, updated_at = ? WHERE id = ?`,
          check.at,
          check.found ? 1 : 0,
          check.note,
          check.at,
          id,
        );
        if (r.changes !== 1) return undefined;
        const cur = one(id)!;
        event(id, { at: check.at, type: 'checked', from: cur.state, to: cur.state, data: check });
        return cur;
      });
    },
    saveMethod(paymentId, m, at) {
      return db.immediate(() => {
        insertRow(db, 'payment_methods', METHOD_COLUMNS, m, 'OR IGNORE');
        const kept = db
          .all(
            'SELECT * FROM payment_methods WHERE customer_id = ? AND vault_id = ?',
            m.customerId,
            m.vaultId,
          )
          .map((r) => fromRow(METHOD_COLUMNS, r))[0]!;
        const linked = db.run(
          'UPDATE payment_intents SET saved_method_id = ?, updated_at = ? WHERE id = ? AND saved_method_id IS NULL',
          kept.id,
          at,
          paymentId,
        );
        if (linked.changes === 1) {
          const cur = one(paymentId)!;
          event(paymentId, {
            at,
            type: 'method_saved',
            from: cur.state,
            to: cur.state,
            data: { methodId: kept.id },
          });
        }
        return kept;
      });
    },
    customers: {
      insert(c) {
        db.immediate(() => insertRow(db, 'customers', CUSTOMER_COLUMNS, c));
        return c;
      },
      get: (id) =>
        db.all('SELECT * FROM customers WHERE id = ?', id).map((r) => fromRow(CUSTOMER_COLUMNS, r))[0],
      list: (profileId) =>
        (profileId === undefined
          ? db.all('SELECT * FROM customers ORDER BY created_at DESC, id DESC')
          : db.all(
              'SELECT * FROM customers WHERE profile_id = ? ORDER BY created_at DESC, id DESC',
              profileId,
            )
        ).map((r) => fromRow(CUSTOMER_COLUMNS, r)),
    },
    methods: {
      get: method,
      forCustomer: (customerId) =>
        db
          .all('SELECT * FROM payment_methods WHERE customer_id = ? ORDER BY created_at', customerId)
          .map((r) => fromRow(METHOD_COLUMNS, r)),
    },
    audit: {
      record: (e) => void db.immediate(() => insertRow(db, 'payment_audit', AUDIT_COLUMNS, scrubAudit(e))),
      list: () =>
        readUsable(
          'payment_audit',
          db.all('SELECT * FROM payment_audit ORDER BY id DESC'),
          (r) => scrubAudit(journalRow(fromRow(AUDIT_COLUMNS, r), r)),
          opts.onUnusable,
        ),
    },
  };
}

/** A journal row's environment and currencies in the closed types (./stored.ts). */
function journalRow<T extends { environment: unknown; currency?: unknown; settleCurrency?: unknown }>(
  value: T,
  r: Row,
): T {
  return {
    ...value,
    environment: storedEnvironment(r['environment']),
    ...(r['currency'] != null ? { currency: storedCurrency(r['currency']) } : {}),
    ...(r['settle_currency'] != null
      ? { settleCurrency: storedCurrency(r['settle_currency'], 'settle_currency') }
      : {}),
  };
}

function withCheck(i: PaymentIntent, r: Row): PaymentIntent {
  if (r['last_check_at'] === null || r['last_check_at'] === undefined) return i;
  return {
    ...i,
    lastCheck: {
      at: String(r['last_check_at']),
      found: Number(r['last_check_found']) === 1,
      note: String(r['last_check_note'] ?? ''),
    },
  };
}
