import type { ApprovalFacts, AuditRecord, IntentKind, IntentRecord } from '../../services/engine/port';
import { storedCurrency, storedEnvironment, storedSettleCurrency } from '../sqlite/stored';
import { int8 } from './connection';

/** A row as pg hands it over: int8 as text, jsonb parsed, booleans as booleans. */
export type PgRow = Record<string, unknown>;

/** Every intent read selects this: the row, and its lease as the store's clock in ms. */
export const INTENT_COLUMNS = `i.*, (extract(epoch FROM i.lease_until) * 1000)::int8 AS lease_ms`;

const text = (r: PgRow, col: string) =>
  r[col] === null || r[col] === undefined ? undefined : String(r[col]);

/** jsonb `data`: a JSON null member means absent (as SQLite's reader has it). */
function data(v: unknown): Record<string, unknown> {
  const o = (v && typeof v === 'object' ? { ...(v as Record<string, unknown>) } : {}) as Record<
    string,
    unknown
  >;
  for (const k of Object.keys(o)) if (o[k] === null) delete o[k];
  return o;
}

export function toRecord(r: PgRow): IntentRecord {
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
    amountMinor: int8(r['amount_minor'], 'amount_minor'),
    currency: storedCurrency(r['currency']),
    operator: String(r['operator']),
    createdAt: String(r['created_at']),
    updatedAt: String(r['updated_at']),
    checks: Number(r['checks']),
    attempts: Number(r['attempts']),
    data: data(r['data']),
  };
  const texts: [keyof IntentRecord, string][] = [
    ['transactionNo', 'transaction_no'],
    ['reference', 'reference'],
    ['sender', 'sender'],
    ['retCode', 'ret_code'],
    ['retMsg', 'ret_msg'],
    ['detail', 'detail'],
    ['cardLast4', 'card_last4'],
  ];
  for (const [k, col] of texts) {
    const v = text(r, col);
    if (v !== undefined) (rec as unknown as Record<string, string>)[k] = v;
  }
  // As SQLite's reader (../sqlite/intent-store.ts): a refund's settle currency is no amount's unit, an
  // unknown or empty one is left out; a payment is created in it, so an unknown one makes the row unusable.
  const settle =
    rec.kind === 'payment'
      ? storedCurrency(r['settle_currency'], 'settle_currency')
      : storedSettleCurrency(r['settle_currency']);
  if (settle) rec.settleCurrency = settle;
  if (r['lease_ms'] !== null && r['lease_ms'] !== undefined)
    rec.leaseUntil = int8(r['lease_ms'], 'lease_until');
  const person = text(r, 'created_by');
  if (person !== undefined) rec.author = { person, desk: text(r, 'created_desk') ?? '' };
  const approval = approvalOf(r);
  if (approval) rec.approval = approval;
  if (r['last_check_at'] !== null && r['last_check_at'] !== undefined)
    rec.lastCheck = {
      at: String(r['last_check_at']),
      found: r['last_check_found'] === true,
      note: String(r['last_check_note'] ?? ''),
    };
  return rec;
}

/** The server's times (timestamptz) as the desks write theirs: ISO, UTC. */
const serverTime = (r: PgRow, col: string) => {
  const v = r[col];
  if (v === null || v === undefined) return undefined;
  return v instanceof Date ? v.toISOString() : String(v);
};

/** A request for approval's columns (migration-team.ts), or undefined for a refund that never was one. */
function approvalOf(r: PgRow): ApprovalFacts | undefined {
  const requestedBy = text(r, 'requested_by');
  if (requestedBy === undefined) return undefined;
  const a: ApprovalFacts = {
    reason: text(r, 'reason') ?? '',
    requestedBy,
    requestedDesk: text(r, 'requested_desk') ?? '',
    requestedAt: serverTime(r, 'requested_on_server') ?? '',
    expiresAt: serverTime(r, 'expires_at') ?? '',
  };
  const optional: [keyof ApprovalFacts, string | undefined][] = [
    ['approvedBy', text(r, 'approved_by')],
    ['approvedDesk', text(r, 'approved_desk')],
    ['approvedAt', serverTime(r, 'approved_on_server')],
    ['closedBy', text(r, 'closed_by')],
    ['closedDesk', text(r, 'closed_desk')],
    ['closedAt', serverTime(r, 'closed_on_server')],
    ['comment', text(r, 'close_comment')],
  ];
  for (const [k, v] of optional) if (v !== undefined) a[k] = v;
  return a;
}

export function toAudit(r: PgRow): AuditRecord {
  const a: AuditRecord = {
    kind: r['kind'] as IntentKind,
    at: String(r['at']),
    outcome: String(r['outcome']),
    operator: String(r['operator']),
    profileId: String(r['profile_id']),
    profileName: String(r['profile_name']),
    environment: storedEnvironment(r['environment']),
    subjectId: String(r['subject_id']),
    data: data(r['data']),
  };
  if (r['transaction_no'] != null) a.transactionNo = String(r['transaction_no']);
  if (r['amount_minor'] != null) a.amountMinor = int8(r['amount_minor'], 'amount_minor');
  if (r['currency'] != null) a.currency = storedCurrency(r['currency']);
  if (r['ret_code'] != null) a.retCode = String(r['ret_code']);
  if (r['ret_msg'] != null) a.retMsg = String(r['ret_msg']);
  if (r['detail'] != null) a.detail = String(r['detail']);
  // Stamped by the database (session_user and the desk's announced id), never by the desk's own text.
  if (r['by_login'] != null) a.person = String(r['by_login']);
  if (r['desk_id'] != null) a.desk = String(r['desk_id']);
  return a;
}
