import type { BatchRowClass, BatchRowResult } from '../../../../../shared/batch/result';
import type { Formatters } from '../../preferences/format';

/** The tone of each class's badge (words are always there too: colour is never the only signal). */
export const CLASS_TONE: Readonly<Record<BatchRowClass, 'ok' | 'info' | 'warn' | 'bad'>> = {
  will_refund: 'ok',
  needs_approval: 'info',
  already_refunded: 'info',
  duplicate: 'warn',
  nothing_remains: 'warn',
  exceeds_remaining: 'bad',
  not_successful: 'bad',
  other_currency: 'bad',
  unknown_id: 'bad',
  in_progress: 'warn',
  blocked: 'bad',
  not_checked: 'warn',
  unusable: 'bad',
};

/** The payment a row names: its transaction number, else its merchant reference. */
export const paymentOf = (r: BatchRowResult) =>
  r.transactionNo ?? (r.reference ? `ref. ${r.reference}` : '—');

/** What the row asks for: an amount, or the word full (and what it came to). */
export function requested(r: BatchRowResult, f: Formatters): string {
  if (r.full) return 'full';
  if (r.requestedMinor !== undefined && r.currency) return f.money(r.requestedMinor, r.currency);
  return '—';
}

/** Why, with a capital: main's words, and the row the duplicate repeats. */
export function why(r: BatchRowResult): string {
  const m = r.message ?? '';
  return m ? m.charAt(0).toUpperCase() + m.slice(1) : '';
}

/** "about 2 min left" while a batch runs. */
export function etaWords(ms: number | undefined): string {
  if (ms === undefined) return 'estimating the time left…';
  const s = Math.ceil(ms / 1000);
  if (s < 60) return `about ${s} s left`;
  return `about ${Math.ceil(s / 60)} min left`;
}
