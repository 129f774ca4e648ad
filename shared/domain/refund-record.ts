import type { Currency } from './currencies';
import type { IntentView } from './refund-intent';
import type { RefundStatus } from '../protocol/statuses';
import type { RefundRecord, Transaction } from './transaction';

/**
 * One refund in the whole record of a profile's refunds: made here (a refund intent in main's journal),
 * made elsewhere (only in a cached payment's `refundInfo`), or both (this desk's refund as the service
 * lists it), shown once.
 */
export interface RefundRecordRow {
  /** Stable across refreshes: the intent id when made here, else the service's refund number. */
  key: string;
  profileId: string;
  /** The profile's name, when known (exports of every profile's refunds name each row's). */
  profileName?: string;
  transactionNo: string;
  refundTransactionNo?: string;
  refundReference?: string;
  amountMinor: number;
  currency: Currency;
  /** When it was made: the intent's creation time, else the service's createTime (may be absent). */
  at?: string;
  /** The service's own status of this refund, when a cached payment lists it. */
  serviceStatus?: RefundStatus;
  /** This desk's intent, when the refund was made here. */
  intent?: IntentView;
  /** Made at this desk: its intent is in the journal and (team database) this desk made it. */
  madeHere: boolean;
}

/** What a person filters the status by: one word per outcome, whoever made the refund. */
export type RecordStatus = 'completed' | 'pending' | 'failed' | 'unknown' | 'not_sent';

export const RECORD_STATUS_LABELS: Readonly<Record<RecordStatus, string>> = {
  completed: 'Refunded',
  pending: 'Pending · not final yet',
  failed: 'Failed or rejected',
  unknown: 'Outcome unknown',
  not_sent: 'Refused · never sent',
};

/**
 * The status of a row in those words. The service's status decides where it has one and the intent
 * has nothing firmer: an intent still `accepted` whose refund the service already lists as `success`
 * is completed.
 */
export function recordStatus(row: Pick<RefundRecordRow, 'intent' | 'serviceStatus'>): RecordStatus {
  const state = row.intent?.state;
  if (state === 'outcome_unknown' || state === 'sending') return 'unknown';
  if (state === 'refused' || state === 'declined' || state === 'cancelled' || state === 'expired')
    return 'not_sent';
  // A request waiting for (or just given) a second person's approval: not final yet.
  if (state === 'awaiting_approval' || state === 'approved') return 'pending';
  if (state === 'rejected' || state === 'failed') return 'failed';
  if (state === 'succeeded') return 'completed';
  const s = row.serviceStatus;
  if (s === 'success') return 'completed';
  if (s === 'failed') return 'failed';
  return 'pending';
}

type CachedPayment = Pick<Transaction, 'transactionNo' | 'refunds'> & { profileId: string };

const sameRefund = (i: IntentView, r: RefundRecord) =>
  (r.refundReference !== undefined && r.refundReference === i.id) ||
  (i.refundTransactionNo !== undefined && r.refundTransactionNo === i.refundTransactionNo);

/**
 * Whether main says the desk that made an intent is this one. On a team database every desk lists the
 * team's intents: one another desk (or the CLI, by another login) made is not "made here".
 */
const madeAtThisDesk = (i: IntentView) => i.madeHere !== false;

/**
 * Merges this desk's intents (main's list for this profile: sent with it, or to its account from the
 * CLI) with the refunds the service lists for cached payments, for one profile.
 * A refund the service lists that matches an intent (by our refundReference, or by the refund number the
 * intent was accepted with) is one row, made here when this desk made the intent; amounts stay in their own currency.
 */
export function mergeRefundRecord(
  intents: readonly IntentView[],
  payments: readonly CachedPayment[],
  profileId: string,
  profileName?: string,
): RefundRecordRow[] {
  const mine = intents;
  const byTx = new Map<string, IntentView[]>();
  for (const i of mine) byTx.set(i.transactionNo, [...(byTx.get(i.transactionNo) ?? []), i]);
  const matched = new Set<string>();
  const rows: RefundRecordRow[] = [];
  for (const p of payments) {
    if (p.profileId !== profileId) continue;
    for (const r of p.refunds) {
      const intent = (byTx.get(p.transactionNo) ?? []).find((i) => !matched.has(i.id) && sameRefund(i, r));
      if (intent) matched.add(intent.id);
      rows.push({
        key: intent?.id ?? `service:${r.refundTransactionNo}`,
        profileId,
        ...((intent?.profileName ?? profileName) ? { profileName: intent?.profileName ?? profileName } : {}),
        transactionNo: p.transactionNo,
        refundTransactionNo: r.refundTransactionNo,
        ...(r.refundReference ? { refundReference: r.refundReference } : {}),
        amountMinor: r.refundAmountMinor,
        currency: r.currency,
        ...((intent?.createdAt ?? r.createdAt) ? { at: intent?.createdAt ?? r.createdAt } : {}),
        serviceStatus: r.status,
        ...(intent ? { intent } : {}),
        madeHere: intent !== undefined && madeAtThisDesk(intent),
      });
    }
  }
  for (const i of mine) {
    if (matched.has(i.id)) continue;
    rows.push({
      key: i.id,
      // With every profile's intents listed, a row acts (Check again, Close as not sent) for its own.
      profileId: i.profileId,
      profileName: i.profileName,
      transactionNo: i.transactionNo,
      ...(i.refundTransactionNo ? { refundTransactionNo: i.refundTransactionNo } : {}),
      refundReference: i.id,
      amountMinor: i.amountMinor,
      currency: i.currency,
      at: i.createdAt,
      intent: i,
      madeHere: madeAtThisDesk(i),
    });
  }
  return rows;
}

export interface RecordFilters {
  status: RecordStatus | 'all';
  currency: string | 'all';
  /** 'here': only refunds made at this desk; 'elsewhere': only those made elsewhere. */
  origin: 'all' | 'here' | 'elsewhere';
  /** Inclusive instants (UTC ISO) or '' for no bound; rows without a date are kept only without bounds. */
  fromIso: string;
  toIso: string;
  text: string;
}

export type RecordSort = { by: 'at' | 'amount' | 'status'; dir: 'asc' | 'desc' };

const STATUS_ORDER: Record<RecordStatus, number> = {
  unknown: 0,
  pending: 1,
  completed: 2,
  failed: 3,
  not_sent: 4,
};

/**
 * Filters and sorts the record. Amounts of different currencies do not compare, so an amount sort
 * groups by currency first (then the amount within it).
 */
export function filterRecord(
  rows: readonly RefundRecordRow[],
  f: RecordFilters,
  sort: RecordSort,
): RefundRecordRow[] {
  const needle = f.text.trim().toLowerCase();
  const kept = rows.filter((r) => {
    if (f.status !== 'all' && recordStatus(r) !== f.status) return false;
    if (f.currency !== 'all' && r.currency !== f.currency) return false;
    if (f.origin === 'here' && !r.madeHere) return false;
    if (f.origin === 'elsewhere' && r.madeHere) return false;
    if ((f.fromIso || f.toIso) && r.at === undefined) return false;
    if (f.fromIso && r.at !== undefined && r.at < f.fromIso) return false;
    if (f.toIso && r.at !== undefined && r.at > f.toIso) return false;
    if (!needle) return true;
    return [
      r.transactionNo,
      r.refundTransactionNo,
      r.refundReference,
      r.intent?.operator,
      r.intent?.author?.person,
      r.intent?.author?.desk,
      r.intent?.reference,
    ]
      .filter((x): x is string => Boolean(x))
      .some((x) => x.toLowerCase().includes(needle));
  });
  const sign = sort.dir === 'asc' ? 1 : -1;
  const cmp = (a: RefundRecordRow, b: RefundRecordRow): number => {
    if (sort.by === 'amount')
      return a.currency === b.currency ? a.amountMinor - b.amountMinor : a.currency.localeCompare(b.currency);
    if (sort.by === 'status') return STATUS_ORDER[recordStatus(a)] - STATUS_ORDER[recordStatus(b)];
    return (a.at ?? '').localeCompare(b.at ?? '');
  };
  return [...kept].sort((a, b) => sign * cmp(a, b) || a.key.localeCompare(b.key));
}
