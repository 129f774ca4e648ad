/**
 * Refund intents and their state machine (DESIGN.md):
 *
 *   created ──fsync──▶ sent ──▶ accepted(refundTransactionNo) ──poll/IPN──▶ succeeded | failed
 *      │                 ├──▶ rejected(ret_code, ret_msg)
 *      │                 └──▶ outcome_unknown ──query finds refundReference──▶ accepted …
 *      └── pre-check fails ──▶ refused (never sent)
 *
 * The journal stores events; the current state of each intent is a fold over its events.
 */
export type IntentState =
  'created' | 'sent' | 'accepted' | 'rejected' | 'refused' | 'outcome_unknown' | 'succeeded' | 'failed';

export const FINAL_STATES: ReadonlySet<IntentState> = new Set(['rejected', 'refused', 'succeeded', 'failed']);
/** States in which money may be moving: they count against the remaining amount and hold the lock. */
export const UNSETTLED_STATES: ReadonlySet<IntentState> = new Set([
  'created',
  'sent',
  'accepted',
  'outcome_unknown',
]);

export interface IntentDraft {
  id: string;
  profileId: string;
  profileName: string;
  environment: string;
  merchantNo: string;
  storeNo: string;
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
  refundTransactionNo?: string;
  refundStatus?: string;
  retCode?: string;
  retMsg?: string;
  /** Why the intent was refused or why its outcome is unknown, in words a person understands. */
  detail?: string;
  /** Evidence from the last resolution attempt of an unknown outcome. */
  lastCheck?: { at: string; found: boolean; note: string };
  attempts: number;
}

export type IntentEvent =
  | { type: 'created'; at: string; intent: IntentDraft }
  /**
   * Carries the intent's draft so the line proving a request left is self-describing: if the `created`
   * line before it is ever damaged, the refund is still known (and blocks its payment) after a restart.
   */
  | { type: 'sent'; at: string; id: string; intent?: IntentDraft }
  | {
      type: 'accepted';
      at: string;
      id: string;
      refundTransactionNo: string;
      refundStatus: string;
      via: 'response' | 'query';
    }
  | { type: 'rejected'; at: string; id: string; retCode?: string; retMsg?: string; detail: string }
  | { type: 'refused'; at: string; id: string; detail: string }
  | { type: 'outcome_unknown'; at: string; id: string; detail: string }
  | { type: 'checked'; at: string; id: string; found: boolean; note: string }
  | { type: 'final'; at: string; id: string; status: 'succeeded' | 'failed'; refundStatus: string };

/** Applies one event. Events that do not fit the state machine are ignored (and reported by the caller). */
export function applyEvent(intents: Map<string, Intent>, e: IntentEvent): boolean {
  if (e.type === 'created') {
    if (intents.has(e.intent.id)) return false;
    intents.set(e.intent.id, { ...e.intent, state: 'created', updatedAt: e.at, attempts: 0 });
    return true;
  }
  let cur = intents.get(e.id);
  if (!cur && e.type === 'sent' && e.intent) {
    cur = { ...e.intent, state: 'created', updatedAt: e.at, attempts: 0 };
  }
  if (!cur) return false;
  const next: Intent = { ...cur, updatedAt: e.at };
  switch (e.type) {
    case 'sent':
      if (cur.state !== 'created') return false;
      Object.assign(next, { state: 'sent', attempts: cur.attempts + 1 });
      break;
    case 'accepted':
      if (!['created', 'sent', 'outcome_unknown', 'accepted'].includes(cur.state)) return false;
      Object.assign(next, {
        state: 'accepted',
        refundTransactionNo: e.refundTransactionNo,
        refundStatus: e.refundStatus,
        detail: undefined,
      });
      break;
    case 'rejected':
      if (cur.state !== 'sent' && cur.state !== 'created') return false;
      Object.assign(next, { state: 'rejected', retCode: e.retCode, retMsg: e.retMsg, detail: e.detail });
      break;
    case 'refused':
      if (cur.state !== 'created') return false;
      Object.assign(next, { state: 'refused', detail: e.detail });
      break;
    case 'outcome_unknown':
      if (cur.state !== 'sent' && cur.state !== 'created') return false;
      Object.assign(next, { state: 'outcome_unknown', detail: e.detail });
      break;
    case 'checked':
      Object.assign(next, { lastCheck: { at: e.at, found: e.found, note: e.note } });
      break;
    case 'final':
      if (cur.state !== 'accepted') return false;
      Object.assign(next, { state: e.status, refundStatus: e.refundStatus });
      break;
  }
  intents.set(e.id, next);
  return true;
}
