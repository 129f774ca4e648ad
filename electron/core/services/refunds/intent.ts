import type { AuditEntry, Intent, IntentState } from '../../../../shared/domain/refund-intent';
import type { AuditRecord, IntentRecord } from '../engine/port';

/**
 * Refund intents and their state machine. One row per intent in the database; every change is a guarded
 * transition (`UPDATE … WHERE id = ? AND state IN (…)`) recorded with an event, so two processes can
 * never both act on one intent and a late answer is never lost.
 *
 *   (decided in one transaction) ─▶ sending ──HTTP──▶ accepted(refundTransactionNo) ──poll/IPN──▶ succeeded | failed
 *                                      ├──▶ rejected(ret_code, ret_msg)       (no money moved)
 *                                      └──▶ outcome_unknown ──query finds refundReference──▶ accepted …
 *
 * A refund that fails a check is never inserted: it is refused, and only the audit log records it.
 * `refused` exists for intents imported from the older journal that were never sent, and for unknown
 * refunds a person closed as not sent (`closedNotSentAt` set):
 *
 * Four-eyes (a team database only; the names and every rule are the database's, migration-team.ts):
 *
 *   (above the account's approval policy) ─▶ awaiting_approval ──another person approves──▶ approved
 *        │  nothing is sent                       │ declined | cancelled | expired (nothing sent)
 *        └─ the approver's desk, in the SAME unit of work as approving: approved ─▶ sending ─▶ as above
 *
 *   outcome_unknown ──person closes (policy ≥ floor)──▶ refused + closedNotSentAt
 *        ▲                                                │ watched by reference for CLOSED_WATCH_MS
 *        └──listed, but not as sent (amount, currency)────┤
 *                                   listed as sent ───────┴──▶ accepted … ("found after close")
 *
 * A closed intent is neither OPEN nor COUNTED: the person decided it never left, so a new refund of the
 * payment may be made (otherwise closing would lock the payment for the whole watch). What stops that
 * new refund from paying twice is the floor of the close policy (shared/domain/guardrails.ts): a
 * refund cannot be closed while the service may still be applying it. The watch is the detector for
 * what arrives later still: the intent is then counted again from the moment it is found.
 */
export type { Intent, IntentDraft, IntentState } from '../../../../shared/domain/refund-intent';
export type { IntentAccount } from '../engine/account';

/**
 * Whether money moved is not known yet, or a request for approval may still be sent: such an intent
 * blocks any other refund of its payment (as the team database's unique index does).
 */
export const OPEN_STATES: ReadonlySet<IntentState> = new Set([
  'sending',
  'outcome_unknown',
  'awaiting_approval',
  'approved',
]);
/**
 * States whose amount is (or may be) refunded: they count against what remains refundable. A request
 * awaiting approval counts too — approving it would refund it, so nothing else may take that money.
 */
export const COUNTED_STATES: ReadonlySet<IntentState> = new Set([
  'sending',
  'outcome_unknown',
  'accepted',
  'succeeded',
  'awaiting_approval',
  'approved',
]);

/** What a transition may change besides the state; null clears a field. */
export type IntentPatch = {
  [K in 'refundTransactionNo' | 'refundStatus' | 'retCode' | 'retMsg' | 'detail' | 'closedNotSentAt']?:
    string | null;
};

/** Refund states that never change again (a declined, cancelled or expired request moved no money). */
export const FINAL_STATES: ReadonlySet<IntentState> = new Set([
  'rejected',
  'refused',
  'succeeded',
  'failed',
  'declined',
  'cancelled',
  'expired',
]);

const str = (v: unknown) => (typeof v === 'string' ? v : undefined);

/** A refund intent as the engine stores it: the shared columns, and its own fields in `data`. */
export function toRecord(i: Intent): IntentRecord {
  // Author and approval are the database's own columns, read back only: a desk never writes them.
  const {
    reasonCode,
    reasonNote,
    refundTransactionNo,
    refundStatus,
    closedNotSentAt,
    author: _author,
    approval: _approval,
    batch,
    ...rest
  } = i;
  return {
    ...rest,
    kind: 'refund',
    data: {
      reasonCode,
      reasonNote,
      ...(batch ? { batch } : {}),
      ...(refundTransactionNo ? { refundTransactionNo } : {}),
      ...(refundStatus ? { refundStatus } : {}),
      ...(closedNotSentAt ? { closedNotSentAt } : {}),
    },
  };
}

/** A batch row's mark on its intent (`data.batch`), when it is one. */
function batchOf(v: unknown): Intent['batch'] {
  if (!v || typeof v !== 'object') return undefined;
  const b = v as Record<string, unknown>;
  return typeof b['id'] === 'string' && typeof b['rowKey'] === 'string' && Number.isInteger(b['line'])
    ? { id: b['id'], line: b['line'] as number, rowKey: b['rowKey'] }
    : undefined;
}

/** The stored record as a refund intent (what IPC, the CLI and the screens show). */
export function fromRecord(r: IntentRecord): Intent {
  const i: Intent = {
    id: r.id,
    state: r.state as IntentState,
    profileId: r.profileId,
    profileName: r.profileName,
    environment: r.environment,
    baseUrl: r.baseUrl,
    merchantNo: r.merchantNo,
    storeNo: r.storeNo,
    transactionNo: r.transactionNo ?? '',
    amountMinor: r.amountMinor,
    currency: r.currency,
    reasonCode: str(r.data['reasonCode']) ?? '',
    reasonNote: str(r.data['reasonNote']) ?? '',
    operator: r.operator,
    createdAt: r.createdAt,
    updatedAt: r.updatedAt,
    checks: r.checks,
    attempts: r.attempts,
  };
  const extra: Partial<Intent> = {
    settleCurrency: r.settleCurrency,
    reference: r.reference,
    sender: r.sender,
    refundTransactionNo: str(r.data['refundTransactionNo']),
    refundStatus: str(r.data['refundStatus']),
    retCode: r.retCode,
    retMsg: r.retMsg,
    detail: r.detail,
    lastCheck: r.lastCheck,
    closedNotSentAt: str(r.data['closedNotSentAt']),
    author: r.author,
    approval: r.approval,
  };
  for (const [k, v] of Object.entries(extra)) if (v !== undefined) (i as Record<string, unknown>)[k] = v;
  const batch = batchOf(r.data['batch']);
  if (batch) i.batch = batch;
  return i;
}

export function toAuditRecord(e: AuditEntry): AuditRecord {
  // person and desk are the database's stamps, never written from an entry.
  const { intentId, reasonCode, reasonNote, refundTransactionNo, person: _p, desk: _d, ...rest } = e;
  return {
    ...rest,
    kind: 'refund',
    subjectId: intentId,
    data: { reasonCode, reasonNote, ...(refundTransactionNo ? { refundTransactionNo } : {}) },
  };
}

export function fromAuditRecord(a: AuditRecord): AuditEntry {
  const e: AuditEntry = {
    at: a.at,
    outcome: a.outcome as AuditEntry['outcome'],
    operator: a.operator,
    profileId: a.profileId,
    profileName: a.profileName,
    environment: a.environment,
    intentId: a.subjectId,
    transactionNo: a.transactionNo ?? '',
    amountMinor: a.amountMinor ?? 0,
    currency: a.currency ?? ('USD' as AuditEntry['currency']),
    reasonCode: str(a.data['reasonCode']) ?? '',
    reasonNote: str(a.data['reasonNote']) ?? '',
  };
  const rtn = str(a.data['refundTransactionNo']);
  if (a.retCode) e.retCode = a.retCode;
  if (a.retMsg) e.retMsg = a.retMsg;
  if (rtn) e.refundTransactionNo = rtn;
  if (a.detail) e.detail = a.detail;
  if (a.person) e.person = a.person;
  if (a.desk) e.desk = a.desk;
  return e;
}
