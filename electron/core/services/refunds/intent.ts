import { INTENT_STATES } from '../../../../shared/ipc/contract/refunds';

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
 * `refused` exists for intents imported from the older journal that were never sent.
 */
export { INTENT_STATES };
export type IntentState = (typeof INTENT_STATES)[number];

/** Whether money moved is not known yet: such an intent blocks any other refund of its payment. */
export const OPEN_STATES: ReadonlySet<IntentState> = new Set(['sending', 'outcome_unknown']);
/** States whose amount is (or may be) refunded: they count against what remains refundable. */
export const COUNTED_STATES: ReadonlySet<IntentState> = new Set([
  'sending',
  'outcome_unknown',
  'accepted',
  'succeeded',
]);

/** The exact account a refund went to: follow-ups go to this service with this profile's token only. */
export interface IntentAccount {
  profileId: string;
  profileName: string;
  environment: string;
  /** The service address the request went to ('' for intents imported from before addresses were kept). */
  baseUrl: string;
  merchantNo: string;
  storeNo: string;
}

export interface IntentDraft extends IntentAccount {
  id: string;
  transactionNo: string;
  reference?: string;
  amountMinor: number;
  currency: string;
  settleCurrency: string;
  reasonCode: string;
  reasonNote: string;
  operator: string;
  createdAt: string;
}

export interface Intent extends IntentDraft {
  state: IntentState;
  updatedAt: string;
  /** `host:pid` of the process that sends (or sent) the request. */
  sender?: string;
  refundTransactionNo?: string;
  refundStatus?: string;
  retCode?: string;
  retMsg?: string;
  /** Why the intent was refused, rejected or why its outcome is unknown, in words a person understands. */
  detail?: string;
  /** Evidence from the last query about this intent. */
  lastCheck?: { at: string; found: boolean; note: string };
  /** How many times the service was asked about it after the first answer. */
  checks: number;
  attempts: number;
}

/** What a transition may change besides the state; null clears a field. */
export type IntentPatch = {
  [K in 'refundTransactionNo' | 'refundStatus' | 'retCode' | 'retMsg' | 'detail']?: string | null;
};
