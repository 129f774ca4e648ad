import type { ApprovalFacts, AuditRecord, IntentRecord } from '../../services/engine/port';
import { auditRecordOf, intentRecordOf, type RowValues, text, withoutNulls } from '../journal-rows';
import { int8 } from './connection';

/** A row as pg hands it over: int8 as text, jsonb parsed, booleans as booleans. */
export type PgRow = Record<string, unknown>;

/** Every intent read selects this: the row, and its lease as the store's clock in ms. */
export const INTENT_COLUMNS = `i.*, (extract(epoch FROM i.lease_until) * 1000)::int8 AS lease_ms`;

/** What pg hands over: jsonb parsed, int8 as text (checked to fit a number exactly), booleans. */
const PG_VALUES: RowValues = {
  data: (v) => withoutNulls(v && typeof v === 'object' ? { ...(v as Record<string, unknown>) } : {}),
  int: int8,
  found: (v) => v === true,
  leaseColumn: 'lease_ms',
};

/** An intent row: the journal's columns as SQLite's reader has them, and the team database's own. */
export function toRecord(r: PgRow): IntentRecord {
  const rec = intentRecordOf(r, PG_VALUES);
  const person = text(r, 'created_by');
  if (person !== undefined) rec.author = { person, desk: text(r, 'created_desk') ?? '' };
  const approval = approvalOf(r);
  if (approval) rec.approval = approval;
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
  const a = auditRecordOf(r, PG_VALUES);
  // Stamped by the database (session_user and the desk's announced id), never by the desk's own text.
  if (r['by_login'] != null) a.person = String(r['by_login']);
  if (r['desk_id'] != null) a.desk = String(r['desk_id']);
  return a;
}
