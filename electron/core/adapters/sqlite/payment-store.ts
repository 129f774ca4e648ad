import type { CustomerRecord, CustomerStore, StoredMethod } from '../../services/payments/store';
import type { Database, Row, SqlValue } from './database';
import { insertEventRow } from './intent-store';

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

/**
 * Customers and stored methods (payments keep them beside their intents, which are the engine's:
 * ./intent-store.ts). Linking a saved method writes the payment intent's `data` in the same transaction.
 */
export function createSqliteCustomerStore(db: Database): CustomerStore {
  const method = (id: string) =>
    db.all('SELECT * FROM payment_methods WHERE id = ?', id).map((r) => fromRow(METHOD_COLUMNS, r))[0];

  return {
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
          `UPDATE intents SET data = json_set(data, '$.savedMethodId', ?), updated_at = ?,
             seq = (SELECT seq + 1 FROM change_counter WHERE id = 1)
           WHERE id = ? AND kind = 'payment' AND json_extract(data, '$.savedMethodId') IS NULL`,
          kept.id,
          at,
          paymentId,
        );
        if (linked.changes === 1) {
          db.run('UPDATE change_counter SET seq = seq + 1 WHERE id = 1');
          const cur = db.get<{ state: string }>('SELECT state FROM intents WHERE id = ?', paymentId)!;
          insertEventRow(db, paymentId, {
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
  };
}
