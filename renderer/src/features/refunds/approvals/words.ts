import type { BatchStatus } from '../../../../../shared/batch/execution';
import type { AppErrorShape } from '../../../../../shared/domain/errors';
import type { IntentView } from '../../../../../shared/ipc/contract/refunds';
import type { Words } from '../format';
import { describeSubmitError, type OutcomeText } from '../outcome';
import type { TeamPerson } from './queries';

/** The id of a request's row button that opens the reject/cancel panel, so focus can go back to it. */
export const closeRequestButtonId = (how: 'reject' | 'cancel', id: string) => `rd-${how}-${id}`;

export const CHECKER = 'refund_checker';
export const MAKER = 'refund_maker';

/**
 * What this person may do with a request, as the screen offers it. The database decides for real
 * (own request, limit, expiry): this only spares the person a button that can only be refused.
 * - approve: a checker, not its requester, whose limit covers it;
 * - above_limit: a checker whose limit does not cover it (may still decline it);
 * - own: its requester (may cancel it);
 * - view: anybody else (a maker, a viewer), or a request already approved and being sent.
 */
export type RequestRole = 'approve' | 'above_limit' | 'own' | 'view';

export function roleFor(request: IntentView, me: TeamPerson): RequestRole {
  if (request.state !== 'awaiting_approval') return 'view';
  if (request.approval?.requestedBy === me.login) return 'own';
  if (!me.groups.includes(CHECKER)) return 'view';
  return limitOf(me, request.currency) >= request.amountMinor ? 'approve' : 'above_limit';
}

/** The same, for a batch approved as a whole: the checker's limit must cover its total in every currency. */
export function batchRoleFor(batch: BatchStatus, me: TeamPerson): RequestRole {
  if (batch.state !== 'awaiting_approval') return 'view';
  if (batch.approval?.startedBy === me.login) return 'own';
  if (!me.groups.includes(CHECKER)) return 'view';
  return batch.totals.every((t) => limitOf(me, t.currency) >= t.amountMinor) ? 'approve' : 'above_limit';
}

/** The id of a batch's row button that opens the reject/cancel panel, so focus can go back to it. */
export const closeBatchButtonId = (how: 'reject' | 'cancel', id: string) => `rd-batch-${how}-${id}`;

/** The person's approval limit in a currency, in minor units (0 where they have none). */
export function limitOf(me: TeamPerson, currency: string): number {
  return me.limits.find((l) => l.currency === currency)?.upToMinor ?? 0;
}

/** "alice at desk-1, 24 Nov 2026 10:02" — who asked, where and when (the database's names and clock). */
export function requestedWords(approval: NonNullable<IntentView['approval']>, f: Words): string {
  return `${approval.requestedBy} at ${approval.requestedDesk}, ${f.dateTime(approval.requestedAt)}`;
}

/** Who can approve a request, in a sentence, from the database's answer (approvals.approvers). */
export function approversWords(logins: readonly string[], amount: string): string {
  if (logins.length === 0)
    return `Nobody yet: no other person with the checker role has an approval limit covering ${amount}. The team database's administrator gives one (cli team add-person … --approve-up-to).`;
  const names =
    logins.length === 1 ? logins[0]! : `${logins.slice(0, -1).join(', ')} or ${logins[logins.length - 1]!}`;
  return `${names} — ${logins.length === 1 ? 'the checker' : 'checkers'} whose approval limit covers ${amount}.`;
}

/** "alice · maker" / "bob · checker, approves up to 1,000.00 USD" — who this desk acts as. */
export function personWords(me: TeamPerson, f: Pick<Words, 'amountCode'>): string {
  const roles = [
    ...(me.groups.includes(CHECKER) ? ['checker'] : []),
    ...(me.groups.includes(MAKER) ? ['maker'] : []),
  ];
  const limits = me.limits.map((l) => f.amountCode(l.upToMinor, l.currency)).join(', ');
  return `${me.login} · ${roles.length ? roles.join(' and ') : 'viewer'}${limits ? `, approves up to ${limits}` : ''}`;
}

/**
 * Today's refund total without the request itself (main does the same: a request counts while it waits,
 * but approving it must not count it twice against the daily limit). Only a prediction of which
 * confirmations main asks for; main decides.
 */
export function todayWithoutRequest(
  todayTotalMinor: number,
  request: Pick<IntentView, 'amountMinor' | 'createdAt'>,
  nowMs: number,
): number {
  // The local calendar day, as main's localDayBounds (a day of 23 or 25 hours too).
  const start = new Date(nowMs);
  start.setHours(0, 0, 0, 0);
  const end = new Date(start);
  end.setDate(end.getDate() + 1);
  const made = Date.parse(request.createdAt);
  const today = made >= start.getTime() && made < end.getTime();
  return Math.max(0, todayTotalMinor - (today ? request.amountMinor : 0));
}

/** A sentence as people write one: capital first letter, full stop at the end (the database's are bare). */
function sentence(text: string): string {
  const t = text.trim();
  const s = t.charAt(0).toUpperCase() + t.slice(1);
  return /[.!?]$/.test(s) ? s : `${s}.`;
}

/**
 * An approval, rejection or cancellation that main or the team database refused: in their words (own
 * request, above your limit, expired, payment changed), and that nothing was sent.
 */
export function describeApprovalError(
  error: Pick<AppErrorShape, 'code' | 'message' | 'details'>,
): OutcomeText {
  const base = describeSubmitError(error);
  if (base.moneyMoved !== 'no') return base;
  return {
    ...base,
    title: 'Not approved — nothing was sent',
    body: sentence(error.message),
    next:
      typeof error.details?.remainingMinor === 'number'
        ? 'Reject the request with this reason; the requester makes a new one if more is owed.'
        : 'Nothing to do here: the list of requests shows what is still waiting.',
  };
}
