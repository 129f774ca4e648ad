import { z } from 'zod';
import { currencySchema } from './currencies';
import { recordedEnvironmentSchema } from './profile';
import { minorSchema } from './money';

/**
 * A refund intent and the audit entry of every refund attempt: one schema each, checked where they cross
 * IPC (shared/ipc/contract/refunds.ts) and used as main's own types (electron/core/services/refunds).
 * The state machine itself: electron/core/services/refunds/intent.ts.
 */
export const INTENT_STATES = [
  'sending',
  'accepted',
  'rejected',
  'refused',
  'outcome_unknown',
  'succeeded',
  'failed',
  // Four-eyes (a team database only: a single desk never has them). A refund above the account's
  // approval policy is recorded as a request and nothing is sent until another person approves it; the
  // approver's desk then moves it to `sending` itself. The names are the database's.
  'awaiting_approval',
  'approved',
  'declined',
  'cancelled',
  'expired',
] as const;
export type IntentState = (typeof INTENT_STATES)[number];

const lastCheckSchema = z.object({ at: z.string(), found: z.boolean(), note: z.string() });

/** The exact account a refund went to: follow-ups go to this service with this profile's token only. */
const intentAccountSchema = z.object({
  profileId: z.string(),
  profileName: z.string(),
  environment: recordedEnvironmentSchema,
  /** The service address the request went to ('' for intents imported from before addresses were kept). */
  baseUrl: z.string(),
  merchantNo: z.string(),
  storeNo: z.string(),
});
export type IntentAccount = z.infer<typeof intentAccountSchema>;

/** What is decided (in one transaction) before a refund is sent. */
const intentDraftSchema = intentAccountSchema.extend({
  id: z.string(),
  transactionNo: z.string(),
  reference: z.string().optional(),
  amountMinor: minorSchema,
  currency: currencySchema,
  settleCurrency: currencySchema,
  reasonCode: z.string(),
  reasonNote: z.string(),
  operator: z.string(),
  createdAt: z.string(),
  /**
   * The batch row this refund executes (issue 27): its batch, line and row key. Kept on the intent so
   * the same row opened again is recognised as done, and decided against inside the transaction.
   */
  batch: z.object({ id: z.string(), line: z.number().int(), rowKey: z.string() }).optional(),
});
export type IntentDraft = z.infer<typeof intentDraftSchema>;

/**
 * A refund that needed a second person (team database): what was asked, by whom and until when, and what
 * became of it. Every name and time here is the database's (its logins, desks and clock).
 */
export const approvalSchema = z.object({
  reason: z.string(),
  requestedBy: z.string(),
  requestedDesk: z.string(),
  requestedAt: z.string(),
  expiresAt: z.string(),
  approvedBy: z.string().optional(),
  approvedDesk: z.string().optional(),
  approvedAt: z.string().optional(),
  /** Who declined, cancelled (or the expiry sweep's session) it, and why. */
  closedBy: z.string().optional(),
  closedDesk: z.string().optional(),
  closedAt: z.string().optional(),
  comment: z.string().optional(),
});
export type Approval = z.infer<typeof approvalSchema>;

/** Who wrote an intent, where the store knows people apart (team database: the login and the desk). */
export const authorSchema = z.object({ person: z.string(), desk: z.string() });
export type Author = z.infer<typeof authorSchema>;

export const intentSchema = intentDraftSchema.extend({
  /**
   * Absent only on a refund of an earlier version that kept a settle currency this app does not handle
   * (or none): it is no amount's unit, so the refund is still shown, counted and checked. Every refund
   * this version sends has one.
   */
  settleCurrency: currencySchema.optional(),
  state: z.enum(INTENT_STATES),
  updatedAt: z.string(),
  /** `host:pid` of the process that sends (or sent) the request. */
  sender: z.string().optional(),
  refundTransactionNo: z.string().optional(),
  refundStatus: z.string().optional(),
  retCode: z.string().optional(),
  retMsg: z.string().optional(),
  /** Why the intent was refused, rejected or why its outcome is unknown, in words a person understands. */
  detail: z.string().optional(),
  /** Evidence from the last query about this intent. */
  lastCheck: lastCheckSchema.optional(),
  /**
   * When a person closed it as not sent (its outcome was unknown and the service did not list it). It
   * stays set for good: a closed refund is still watched, and if the service lists it after all it
   * becomes the refund it was (accepted, succeeded, failed) — "closed as not sent, but the service has
   * it" (see closedThenFound).
   */
  closedNotSentAt: z.string().optional(),
  /** How many times the service was asked about it after the first answer. */
  checks: z.number().int(),
  attempts: z.number().int(),
  /** Team database only: the person (login) and desk that made it. */
  author: authorSchema.optional(),
  /** Team database only: set on a refund that was requested for approval. */
  approval: approvalSchema.optional(),
});
export type Intent = z.infer<typeof intentSchema>;

/** Four-eyes states in which nothing was sent and nothing will be: the request ended. */
export const REQUEST_ENDED_STATES: ReadonlySet<IntentState> = new Set(['declined', 'cancelled', 'expired']);

/**
 * How long a refund closed as not sent is still asked about by reference. The close policy's floor
 * (./guardrails.ts) covers the service's own 2-hour window; this covers what arrives later still: a
 * request parked by a proxy or an acquirer over a weekend and a holiday, or replayed by a partner
 * gateway. A week also matches the longest close policy a profile may set, and it is as long as a
 * clerk can still reasonably put things right with the customer. Watching costs one query per closed
 * refund per interval (closedWatchIntervalMs), and closed refunds are rare.
 */
export const CLOSED_WATCH_MS = 7 * 24 * 60 * 60_000;

/**
 * How often a watched refund is asked about, by how long ago it was closed: often while a late arrival
 * is likeliest, then hourly.
 */
export function closedWatchIntervalMs(sinceCloseMs: number): number {
  if (sinceCloseMs < 60 * 60_000) return 2 * 60_000;
  if (sinceCloseMs < 24 * 60 * 60_000) return 15 * 60_000;
  return 60 * 60_000;
}

/** Until when a refund closed as not sent is watched (ISO), or undefined if it was never closed. */
export function closedWatchUntil(i: Pick<Intent, 'closedNotSentAt'>): string | undefined {
  if (i.closedNotSentAt === undefined) return undefined;
  const at = Date.parse(i.closedNotSentAt);
  return Number.isNaN(at) ? undefined : new Date(at + CLOSED_WATCH_MS).toISOString();
}

/** A refund a person closed as not sent that the service listed afterwards: it was sent after all. */
export function closedThenFound(i: Pick<Intent, 'state' | 'closedNotSentAt'>): boolean {
  return i.closedNotSentAt !== undefined && i.state !== 'refused';
}

/**
 * An intent as main shows it to a person: the intent, and what main derives for it from the journal and
 * the intent's profile, so the screen never recomputes a money rule (main re-checks on every action).
 */
export const intentViewSchema = intentSchema.extend({
  /**
   * For an unknown refund the service has never listed: when "Close as not sent" becomes possible under
   * its profile's policy. `possibleAt`: the earliest moment (created + the policy's minutes);
   * `checksNeeded`: how many more checks must reach the service before then.
   */
  close: z
    .object({
      possibleAt: z.string(),
      checksNeeded: z.number().int().nonnegative(),
      minChecks: z.number().int().nonnegative(),
      minMinutes: z.number().int().nonnegative(),
    })
    .optional(),
  /** Set when a person closed this refund as not sent: who, when, after how many checks (from the audit). */
  closedNotSent: z
    .object({ by: z.string(), at: z.string(), checks: z.number().int().nonnegative() })
    .optional(),
  /**
   * Team database only: whether the desk the database stamped as its maker (`author.desk`) is this one.
   * Every desk lists the team's refunds; one of another desk (or of the CLI) is not "made here". Absent
   * on one desk's own journal, where every intent is this desk's.
   */
  madeHere: z.boolean().optional(),
});
export type IntentView = z.infer<typeof intentViewSchema>;

const AUDIT_OUTCOMES = [
  'refused',
  'rejected',
  'accepted',
  'outcome_unknown',
  'succeeded',
  'failed',
  /** A person closed an unknown refund the service never listed, after the required checks. */
  'closed_not_sent',
  /** A refund closed as not sent was listed by the service after all: it was sent. */
  'found_after_close',
  // Four-eyes steps, written by the team database itself (migration-team.ts audit_step).
  'approval_requested',
  'approved',
  'approval_declined',
  'approval_cancelled',
  'approval_expired',
  /** A refund batch was started (its rows' refunds have their own entries), or ended. */
  'batch_started',
  'batch_finished',
  /** A row of a refund batch that was not sent (the dry run refused it, it was unusable, or already done). */
  'batch_row_not_sent',
  /**
   * Team mode: a desk's answer kept while the team database was unreachable was not written, because
   * another desk had recorded a different outcome meanwhile (adapters/outbox-store.ts).
   */
  'conflicting_answer',
  /** Team mode: a refund a desk kept in its own file before team mode, imported once (cli team import-local). */
  'imported',
] as const;

/** One entry of the audit log: every refund attempt, refused, rejected and unknown ones included. */
export const auditEntrySchema = z.object({
  at: z.string(),
  operator: z.string(),
  profileId: z.string(),
  profileName: z.string(),
  environment: recordedEnvironmentSchema,
  intentId: z.string(),
  transactionNo: z.string(),
  amountMinor: minorSchema,
  currency: currencySchema,
  reasonCode: z.string(),
  reasonNote: z.string(),
  outcome: z.enum(AUDIT_OUTCOMES),
  retCode: z.string().optional(),
  retMsg: z.string().optional(),
  refundTransactionNo: z.string().optional(),
  detail: z.string().optional(),
  /** Team database only: the login that wrote the entry and the desk it wrote from (the database's stamps). */
  person: z.string().optional(),
  desk: z.string().optional(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
