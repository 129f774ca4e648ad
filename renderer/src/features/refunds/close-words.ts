import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import type { Formatters } from '../preferences/format';

/** Whether "Close as not sent" may be offered now, and when it may if not. */
export type CloseOffer =
  | { kind: 'none' }
  | { kind: 'ready' }
  /** "possible after 06:49 (1 more check)". */
  | { kind: 'later'; text: string };

/**
 * Reads main's close rule for an unknown refund (`intent.close`, computed from its profile's policy and
 * the journal's checks) against the current time. Main re-checks it when the person closes; this only
 * keeps the action from being offered before it is allowed.
 */
export function closeOffer(intent: IntentView, nowMs: number, f: Pick<Formatters, 'soon'>): CloseOffer {
  const c = intent.close;
  if (intent.state !== 'outcome_unknown' || intent.lastCheck?.found || !c) return { kind: 'none' };
  const waitTime = nowMs < Date.parse(c.possibleAt);
  if (!waitTime && c.checksNeeded === 0) return { kind: 'ready' };
  const checks = `${c.checksNeeded} more check${c.checksNeeded === 1 ? '' : 's'}`;
  const text = waitTime
    ? `possible after ${f.soon(c.possibleAt, nowMs)}${c.checksNeeded > 0 ? ` (${checks})` : ''}`
    : `possible after ${checks}`;
  return { kind: 'later', text };
}

/** The row action that opens the panel (offered only once main's rule allows it): focus returns to it. */
export const closeButtonId = (intentId: string) => `rd-close-${intentId}`;
