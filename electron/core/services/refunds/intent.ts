import type { IntentState } from '../../../../shared/domain/refund-intent';

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
export type {
  Intent,
  IntentAccount,
  IntentDraft,
  IntentState,
} from '../../../../shared/domain/refund-intent';

/** Whether money moved is not known yet: such an intent blocks any other refund of its payment. */
export const OPEN_STATES: ReadonlySet<IntentState> = new Set(['sending', 'outcome_unknown']);
/** States whose amount is (or may be) refunded: they count against what remains refundable. */
export const COUNTED_STATES: ReadonlySet<IntentState> = new Set([
  'sending',
  'outcome_unknown',
  'accepted',
  'succeeded',
]);

/** What a transition may change besides the state; null clears a field. */
export type IntentPatch = {
  [K in 'refundTransactionNo' | 'refundStatus' | 'retCode' | 'retMsg' | 'detail']?: string | null;
};
