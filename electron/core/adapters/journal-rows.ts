import type { AuditRecord, IntentKind, IntentRecord } from '../services/engine/port';
import { storedCurrency, storedEnvironment, storedSettleCurrency } from './sqlite/stored';

/**
 * The journal's rows (intents, audit entries) as the engine's records, for every database that keeps
 * them: SQLite and the team's PostgreSQL have the same columns under the same names. What differs is how
 * each driver hands a value over, which the database's `RowValues` says; what only one of them keeps
 * (the team database's people, desks and approvals) its own reader adds to the record.
 */
export interface RowValues {
  /** The `data` column as an object (SQLite: JSON text; pg: jsonb, already parsed). */
  data(v: unknown): Record<string, unknown>;
  /** A whole number column: an amount, a lease's end (pg hands int8 over as text, and checks it). */
  int(v: unknown, column: string): number;
  /** The last check's `found` (SQLite: 0/1; pg: a boolean). */
  found(v: unknown): boolean;
  /** The column holding the lease's end in the store's clock, in ms. */
  leaseColumn: string;
}

export type JournalRow = Readonly<Record<string, unknown>>;

/** A JSON null member of `data` means absent (SQLite's migration wrote json_object of NULL columns). */
export function withoutNulls(o: Record<string, unknown>): Record<string, unknown> {
  for (const k of Object.keys(o)) if (o[k] === null) delete o[k];
  return o;
}

/** A text column, or undefined where it is NULL. */
export const text = (r: JournalRow, col: string): string | undefined =>
  r[col] === null || r[col] === undefined ? undefined : String(r[col]);

const TEXTS: readonly [keyof IntentRecord, string][] = [
  ['transactionNo', 'transaction_no'],
  ['reference', 'reference'],
  ['sender', 'sender'],
  ['retCode', 'ret_code'],
  ['retMsg', 'ret_msg'],
  ['detail', 'detail'],
  ['cardLast4', 'card_last4'],
];

export function intentRecordOf(r: JournalRow, v: RowValues): IntentRecord {
  const rec: IntentRecord = {
    id: String(r['id']),
    kind: r['kind'] as IntentKind,
    state: String(r['state']),
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    environment: storedEnvironment(r['environment']),
    baseUrl: String(r['base_url']),
    merchantNo: String(r['merchant_no']),
    storeNo: String(r['store_no']),
    amountMinor: v.int(r['amount_minor'], 'amount_minor'),
    currency: storedCurrency(r['currency']),
    operator: String(r['operator']),
    createdAt: String(r['created_at']),
    updatedAt: String(r['updated_at']),
    checks: Number(r['checks']),
    attempts: Number(r['attempts']),
    data: v.data(r['data']),
  };
  for (const [k, col] of TEXTS) {
    const t = text(r, col);
    if (t !== undefined) (rec as unknown as Record<string, string>)[k] = t;
  }
  // A refund's settle currency is no amount's unit: an unknown or empty one is left out, the refund still
  // read, listed, blocking and counted. A payment is created in it: one this app does not handle makes
  // the row unusable (left out of lists, named by health), as before the engine.
  const settle =
    rec.kind === 'payment'
      ? storedCurrency(r['settle_currency'], 'settle_currency')
      : storedSettleCurrency(r['settle_currency']);
  if (settle) rec.settleCurrency = settle;
  const lease = r[v.leaseColumn];
  if (lease !== null && lease !== undefined) rec.leaseUntil = v.int(lease, 'lease_until');
  if (r['last_check_at'] !== null && r['last_check_at'] !== undefined)
    rec.lastCheck = {
      at: String(r['last_check_at']),
      found: v.found(r['last_check_found']),
      note: String(r['last_check_note'] ?? ''),
    };
  return rec;
}

export function auditRecordOf(r: JournalRow, v: RowValues): AuditRecord {
  const a: AuditRecord = {
    kind: r['kind'] as IntentKind,
    at: String(r['at']),
    outcome: String(r['outcome']),
    operator: String(r['operator']),
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    environment: storedEnvironment(r['environment']),
    subjectId: String(r['subject_id']),
    data: v.data(r['data']),
  };
  if (r['transaction_no'] != null) a.transactionNo = String(r['transaction_no']);
  if (r['amount_minor'] != null) a.amountMinor = v.int(r['amount_minor'], 'amount_minor');
  if (r['currency'] != null) a.currency = storedCurrency(r['currency']);
  if (r['ret_code'] != null) a.retCode = String(r['ret_code']);
  if (r['ret_msg'] != null) a.retMsg = String(r['ret_msg']);
  if (r['detail'] != null) a.detail = String(r['detail']);
  return a;
}
