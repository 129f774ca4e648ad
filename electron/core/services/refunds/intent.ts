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
 * `refused` exists for intents imported from the older journal that were never sent, and for unknown
 * refunds a person closed as not sent (`closedNotSentAt` set):
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
  [K in 'refundTransactionNo' | 'refundStatus' | 'retCode' | 'retMsg' | 'detail' | 'closedNotSentAt']?:
    string | null;
};
