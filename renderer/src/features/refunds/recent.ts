import type { RecentRefundView } from '../../../../shared/ipc/contract/refunds';
import type { Words } from './format';

/** How long ago, in words, from main's own time of the preview (never this machine's clock alone). */
export function agoWords(atIso: string, nowIso: string): string {
  const ms = Date.parse(nowIso) - Date.parse(atIso);
  if (!Number.isFinite(ms)) return '';
  const minutes = Math.floor(Math.max(0, ms) / 60_000);
  if (minutes < 1) return 'just now';
  if (minutes < 60) return `${minutes} minute${minutes === 1 ? '' : 's'} ago`;
  const hours = Math.floor(minutes / 60);
  return `${hours} hour${hours === 1 ? '' : 's'} ago`;
}

const DONE: Partial<Record<RecentRefundView['state'], string>> = {
  awaiting_approval: 'requested for approval',
  approved: 'approved',
  sending: 'sent',
  outcome_unknown: 'sent (outcome unknown)',
};

/**
 * The refund dialog's warning about a refund of the same payment in the last 24 hours: two people may be
 * answering the same complaint on two desks. "1.00 USD refunded 2 minutes ago by alice at desk-2 — is
 * this a different refund?"
 */
export function recentRefundWords(r: RecentRefundView, nowIso: string, f: Pick<Words, 'amountCode'>): string {
  const ago = agoWords(r.at, nowIso);
  const who = `by ${r.by}${r.desk ? ` at ${r.desk}` : ''}`;
  return `${f.amountCode(r.amountMinor, r.currency)} ${DONE[r.state] ?? 'refunded'}${ago ? ` ${ago}` : ''} ${who} — is this a different refund?`;
}
