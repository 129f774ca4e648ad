import type pg from 'pg';
import type { IntentRecord } from '../../services/engine/port';
import { int8, mapPgError, safeAmount } from './connection';
import { INTENT_COLUMNS, type PgRow, toRecord } from './rows';

/**
 * Four-eyes from a desk's side: thin calls of the database's functions (migration-team.ts), which decide
 * everything — who may approve, up to what, until when. A refusal arrives as an AppError with the
 * database's own words (connection.ts mapPgError). Sending an approved request is the engine's: the
 * approver's desk approves and claims it in its decision (approve_and_claim, migration-claim.ts: its
 * sender and lease), then sends it as any refund.
 */
export interface ApprovalRequest {
  intent: IntentRecord;
  reason: string;
  requestedBy: string;
  requestedDesk: string;
  requestedOnServer: string;
  expiresAt: string;
  approvedBy?: string;
  approvedDesk?: string;
  closedBy?: string;
  closeComment?: string;
}

type Q = pg.Pool | pg.PoolClient | pg.Client;

const iso = (v: unknown) => (v instanceof Date ? v.toISOString() : String(v));

function toRequest(r: PgRow): ApprovalRequest {
  return {
    intent: toRecord(r),
    reason: String(r['reason'] ?? ''),
    requestedBy: String(r['requested_by']),
    requestedDesk: String(r['requested_desk']),
    requestedOnServer: iso(r['requested_on_server']),
    expiresAt: iso(r['expires_at']),
    ...(r['approved_by'] != null ? { approvedBy: String(r['approved_by']) } : {}),
    ...(r['approved_desk'] != null ? { approvedDesk: String(r['approved_desk']) } : {}),
    ...(r['closed_by'] != null ? { closedBy: String(r['closed_by']) } : {}),
    ...(r['close_comment'] != null ? { closeComment: String(r['close_comment']) } : {}),
  };
}

async function call(q: Q, sql: string, params: unknown[]): Promise<ApprovalRequest> {
  try {
    const rows = (await q.query<PgRow>(sql, params)).rows;
    return toRequest(rows[0]!);
  } catch (e) {
    throw mapPgError(e);
  }
}

/** A maker's request: recorded as awaiting_approval with its exact payment, amount, currency and reason. */
export function requestRefund(q: Q, record: IntentRecord, reason: string): Promise<ApprovalRequest> {
  safeAmount(record.amountMinor, 'the amount');
  return call(q, `SELECT ${INTENT_COLUMNS} FROM refund_desk.request_refund($1::jsonb, $2::jsonb) i`, [
    JSON.stringify({
      id: record.id,
      kind: 'refund',
      profile_id: record.profileId,
      profile_name: record.profileName,
      environment: record.environment,
      base_url: record.baseUrl,
      merchant_no: record.merchantNo,
      store_no: record.storeNo,
      transaction_no: record.transactionNo,
      amount_minor: record.amountMinor,
      currency: record.currency,
      settle_currency: record.settleCurrency ?? '',
      operator: record.operator,
      created_at: record.createdAt,
      updated_at: record.updatedAt,
      data: record.data,
      reason,
    }),
    JSON.stringify({ at: record.createdAt, type: 'approval_requested' }),
  ]);
}

export const approveRequest = (q: Q, id: string) =>
  call(q, `SELECT ${INTENT_COLUMNS} FROM refund_desk.approve_request($1) i`, [id]);

export const rejectRequest = (q: Q, id: string, comment: string) =>
  call(q, `SELECT ${INTENT_COLUMNS} FROM refund_desk.reject_request($1, $2) i`, [id, comment]);

export const cancelRequest = (q: Q, id: string, comment: string) =>
  call(q, `SELECT ${INTENT_COLUMNS} FROM refund_desk.cancel_request($1, $2) i`, [id, comment]);

/**
 * Open requests (awaiting approval, or approved and not yet sent), oldest first. Requests past their time
 * are first marked expired (audited) by the database's own sweep, so what is listed can still be approved.
 */
export async function openRequests(q: Q): Promise<ApprovalRequest[]> {
  try {
    await q.query('SELECT refund_desk.expire_requests()');
    const rows = (
      await q.query<PgRow>(
        `SELECT ${INTENT_COLUMNS} FROM refund_desk.intents i
          WHERE requested_by IS NOT NULL AND state IN ('awaiting_approval', 'approved')
          ORDER BY requested_on_server, id`,
      )
    ).rows;
    return rows.map(toRequest);
  } catch (e) {
    throw mapPgError(e);
  }
}

/**
 * Who may approve a request of this amount: logins in the checker group whose own limit in its currency
 * covers it, other than its requester — what approve_request checks, read (every group may read the
 * limits), so the requester's screen can say whom to ask. The database still decides at approval.
 */
export async function approversFor(
  q: Q,
  request: { currency: string; amountMinor: number; requestedBy: string },
): Promise<string[]> {
  try {
    const rows = await q.query<{ login: string }>(
      `SELECT l.login FROM refund_desk.approval_limits l JOIN pg_roles r ON r.rolname = l.login
        WHERE l.currency = $1 AND l.up_to_minor >= $2 AND l.login <> $3 AND r.rolcanlogin
          AND pg_has_role(r.oid, 'refund_checker', 'MEMBER')
        ORDER BY l.login`,
      [request.currency, request.amountMinor, request.requestedBy],
    );
    return rows.rows.map((r) => r.login);
  } catch (e) {
    throw mapPgError(e);
  }
}

/** Who this connection is, and what the database lets them do (for "who am I" and the CLI). */
export async function whoAmI(
  q: Q,
): Promise<{ login: string; groups: string[]; limits: Array<{ currency: string; upToMinor: number }> }> {
  try {
    // The groups granted to this login (each implies what it needs: a maker and a checker also read).
    const me = await q.query<{ login: string; groups: string[] }>(
      `SELECT session_user AS login, ARRAY(
         SELECT g.rolname::text FROM pg_auth_members m
           JOIN pg_roles g ON g.oid = m.roleid JOIN pg_roles u ON u.oid = m.member
          WHERE u.rolname = session_user AND g.rolname IN ('refund_viewer', 'refund_maker', 'refund_checker')
          ORDER BY g.rolname) AS groups`,
    );
    const limits = await q.query<{ currency: string; up_to_minor: string }>(
      'SELECT currency, up_to_minor FROM refund_desk.approval_limits WHERE login = session_user ORDER BY currency',
    );
    return {
      login: me.rows[0]!.login,
      groups: me.rows[0]!.groups,
      limits: limits.rows.map((l) => ({
        currency: l.currency,
        upToMinor: int8(l.up_to_minor, 'up_to_minor'),
      })),
    };
  } catch (e) {
    throw mapPgError(e);
  }
}
