/**
 * Exceptions of a reconciliation run (pure): every non-matched item of a run is an exception a person
 * works — a state, an owner, notes and, where the books and the service name the same money under
 * different keys, a manual match. An exception is kept BESIDE the run's record, never in it: working
 * one never changes the run's items, summary or statement (a re-opened run is line-for-line what it
 * was). Exceptions a previous run left outstanding are carried into the next run of the same account
 * (./carry.ts) and show there whether they cleared.
 */
import { z } from 'zod';
import { refuseUnsafeText } from '../domain/text';
import { daysBetween } from './dates';
import { itemCurrency, RECON_OUTCOMES, type ReconItem, type ReconOutcome } from './match';

export const EXCEPTION_STATES = ['open', 'explained', 'resolved', 'written_off'] as const;
export type ExceptionState = (typeof EXCEPTION_STATES)[number];

export const EXCEPTION_STATE_LABELS: Readonly<Record<ExceptionState, string>> = {
  open: 'Open',
  explained: 'Explained',
  resolved: 'Resolved',
  written_off: 'Written off',
};

/**
 * Still outstanding: the difference is not settled. "Explained" is outstanding on purpose — a timing
 * difference (booked on the 31st, paid at the service on the 1st) is explained this month and clears
 * next month, which is exactly what carry-forward is for. Outstanding exceptions are the ones carried
 * forward and the ones a sign-off must list as open.
 */
export const isOutstanding = (s: ExceptionState) => s === 'open' || s === 'explained';

export const AGE_BUCKETS = ['0-7', '8-30', '31-90', 'over-90'] as const;
export type AgeBucket = (typeof AGE_BUCKETS)[number];
export const AGE_BUCKET_LABELS: Readonly<Record<AgeBucket, string>> = {
  '0-7': '0–7 days',
  '8-30': '8–30 days',
  '31-90': '31–90 days',
  'over-90': 'Over 90 days',
};

export function ageBucket(days: number): AgeBucket {
  if (days <= 7) return '0-7';
  if (days <= 30) return '8-30';
  if (days <= 90) return '31-90';
  return 'over-90';
}

/** Note, comment and reason text: multi-line, the stored-text rule (shared/domain/text.ts). */
const noteText = (what: string, max = 2000) =>
  z
    .string()
    .trim()
    .min(1, `Write the ${what}.`)
    .max(max, `Keep the ${what} under ${max} characters.`)
    .superRefine(refuseUnsafeText(what, { multiline: true }));
export const exceptionNoteSchema = noteText('note');
export const matchReasonSchema = noteText('reason for the match', 500);
export const signOffCommentSchema = noteText('sign-off comment');
export const ownerSchema = z
  .string()
  .trim()
  .max(60, 'Keep the owner under 60 characters.')
  .superRefine(refuseUnsafeText('owner'));

export interface ExceptionNote {
  at: string;
  by: string;
  text: string;
}

/** The service's side a ledger row was paired with by a person. */
export interface ManualMatch {
  /** A payment (transactionNo) or a refund (refundTransactionNo) at the service. */
  kind: 'payment' | 'refund';
  id: string;
  amountMinor: number;
  currency: string;
  /** Where the counterpart was found: another exception of this run, or a tran-query now. */
  foundIn: 'run' | 'service';
  /** The counterpart exception of the same run, when it was one (it is resolved with this one). */
  pairedWith?: string;
  reason: string;
  by: string;
  at: string;
}

/** Where a carried exception came from and what its re-check found. */
export interface CarriedFrom {
  runId: string;
  exceptionId: string;
  /** The run where the difference was first seen (carried over several months keeps the first). */
  firstRunId: string;
  item: ReconItem;
  /** Undefined until the re-check ran. */
  check?:
    | { result: 'cleared'; how: 'service' | 'ledger'; why: string; at: string }
    | { result: 'still_open'; why: string; at: string }
    | { result: 'not_checked'; why: string; at: string };
}

export interface ExceptionRecord {
  runId: string;
  /** `i<seq>` for the run's own item `seq`; `c<n>` for an exception carried from an earlier run. */
  id: string;
  state: ExceptionState;
  owner?: string;
  notes: ExceptionNote[];
  match?: ManualMatch;
  carried?: CarriedFrom;
  /** The day its age counts from (see ageStart) — fixed when the exception is made. */
  ageFrom: string;
  ageFromWhat: 'ledger' | 'service' | 'run';
  updatedAt: string;
  /** Optimistic concurrency: a change names the version it was made on. */
  version: number;
}

/** An exception with its item (the run's own, or the carried one) and its age today. */
export interface ExceptionView extends ExceptionRecord {
  item: ReconItem;
  ageDays: number;
  age: AgeBucket;
}

/**
 * The day an exception's age counts from. The LEDGER row's day when there is one: aging answers "how
 * long have the books carried this difference", and the books started carrying it the day the merchant
 * booked the row (the service's day of the same payment may be a day off, and for a payment missing
 * at the service there is none). A difference only the service has (paid or refunded at the service,
 * not in the ledger) has no ledger day: then the service's day of the payment or refund. A row with
 * neither (an unreadable row with no date) ages from the day the run was made.
 */
export function ageStart(
  item: ReconItem,
  runDay: string,
  dayOf: (iso: string) => string,
): { day: string; what: ExceptionRecord['ageFromWhat'] } {
  if (item.ledger?.day) return { day: item.ledger.day, what: 'ledger' };
  const serviceAt = item.refund?.createdAt ?? item.service?.paidAt ?? item.service?.createdAt;
  if (serviceAt) return { day: dayOf(serviceAt), what: 'service' };
  return { day: runDay, what: 'run' };
}

/** Age in whole days on `today` (never negative: a row dated in the future is 0 days old). */
export const ageDays = (from: string, today: string) => Math.max(0, daysBetween(from, today));

export function viewOf(rec: ExceptionRecord, item: ReconItem, today: string): ExceptionView {
  const days = ageDays(rec.ageFrom, today);
  return { ...rec, item, ageDays: days, age: ageBucket(days) };
}

/** Filters of the worklist (the screen and IPC alike). Absent: any. */
export const exceptionFilterSchema = z
  .object({
    states: z.array(z.enum(EXCEPTION_STATES)).max(4).optional(),
    ages: z.array(z.enum(AGE_BUCKETS)).max(4).optional(),
    /** An owner's name; '' = no owner yet. */
    owner: ownerSchema.optional(),
    outcomes: z.array(z.enum(RECON_OUTCOMES)).max(RECON_OUTCOMES.length).optional(),
    /** Only exceptions carried from an earlier run (true), or only the run's own (false). */
    carried: z.boolean().optional(),
  })
  .strict();
export type ExceptionFilter = z.infer<typeof exceptionFilterSchema>;

export function matchesFilter(e: ExceptionView, f: ExceptionFilter): boolean {
  if (f.states && f.states.length > 0 && !f.states.includes(e.state)) return false;
  if (f.ages && f.ages.length > 0 && !f.ages.includes(e.age)) return false;
  if (f.owner !== undefined && (e.owner ?? '') !== f.owner.trim()) return false;
  if (f.outcomes && f.outcomes.length > 0 && !f.outcomes.includes(e.item.outcome)) return false;
  if (f.carried !== undefined && (e.carried !== undefined) !== f.carried) return false;
  return true;
}

/** The transaction numbers an item names (ledger's, service's), for pairing and carrying. */
export function itemTransactionNo(item: ReconItem): string | undefined {
  return item.ledger?.transactionNo ?? item.service?.transactionNo ?? item.unusable?.fields?.transactionNo;
}

/** Outcomes of rows the ledger has (they can be paired with a service payment or refund). */
export const hasLedgerSide = (item: ReconItem) => item.ledger !== undefined;
/** Outcomes of what only the service has (the other side of a pairing). */
export const serviceOnlyOutcome = (o: ReconOutcome) =>
  o === 'missing_in_ledger' || o === 'refund_missing_in_ledger';

export { itemCurrency };
