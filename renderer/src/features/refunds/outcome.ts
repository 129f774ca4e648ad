import type { AppErrorShape } from '../../../../shared/domain/errors';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { INTENT_STATE_LABELS } from '../../../../shared/domain/labels';
import { closedWatchUntil } from '../../../../shared/domain/refund-intent';
import { PLAIN_WORDS, type Words } from './format';

/**
 * `pending`: the service accepted the refund but has not reported it final; it can still fail, so
 * "yes" would be a promise the desk cannot keep.
 */
export type MoneyMoved = 'yes' | 'no' | 'unknown' | 'pending';

/** What happened to a refund, in words: whether money moved (yes / no / unknown) and what to do next. */
export interface OutcomeText {
  tone: 'ok' | 'bad' | 'warn' | 'info';
  title: string;
  moneyMoved: MoneyMoved;
  body: string;
  next: string;
}

/** The words for each state (shared with the exports, so the file says what the screen says). */
export const STATE_LABELS = INTENT_STATE_LABELS as Readonly<Record<IntentView['state'], string>>;

export const MONEY_MOVED_TEXT: Record<MoneyMoved, string> = {
  yes: 'Money moved: yes',
  no: 'Money moved: no',
  unknown: 'Money moved: unknown',
  pending: 'Money moved: pending — not final yet',
};

/** The short words for a refund a person closed as not sent (badge label), or undefined for any other. */
export function closedLabel(intent: IntentView): string | undefined {
  if (intent.closedNotSentAt === undefined) return undefined;
  if (intent.state === 'refused') return 'Closed as not sent · still watched';
  if (intent.state === 'accepted' || intent.state === 'succeeded')
    return 'Closed as not sent, but the service has it: refunded after all';
  if (intent.state === 'failed') return 'Closed as not sent; the service had it, and it failed';
  return 'Closed as not sent, but the service lists it';
}

/**
 * A refund a person closed as not sent: still watched, or listed by the service after all (then it was
 * sent, and a refund made after closing was made in addition to it).
 */
function describeClosed(intent: IntentView, amount: string, f: Words): OutcomeText | undefined {
  if (intent.closedNotSentAt === undefined) return undefined;
  // Times in the person's zone and format, never main's raw ISO evidence.
  const closedAt = f.dateTime(intent.closedNotSentAt);
  const until = closedWatchUntil(intent);
  const c = intent.closedNotSent;
  switch (intent.state) {
    case 'refused':
      return {
        tone: 'bad',
        title: 'Closed as not sent · still watched',
        moneyMoved: 'no',
        body: `The refund of ${amount} was sent ${f.dateTime(intent.createdAt)}, but the service never listed it: ${c?.by || 'a person'} closed it as not sent ${closedAt}${c ? `, after ${c.checks} check${c.checks === 1 ? '' : 's'} found no refund with reference ${intent.id}` : ''}.`,
        next: `Nothing to do. Refund Desk keeps asking the service for reference ${intent.id}${until ? ` until ${f.dateTime(until)}` : ''}; if it appears, this refund says so at once. The payment can be refunded again if the customer is still owed the money.`,
      };
    case 'accepted':
    case 'succeeded':
      return {
        tone: 'warn',
        title: `Closed as not sent, but the service has it: refunded after all${intent.state === 'accepted' ? ' (not final yet)' : ''}`,
        moneyMoved: intent.state === 'accepted' ? 'pending' : 'yes',
        body: `${amount} was refunded as ${intent.refundTransactionNo ?? '—'} although it was closed as not sent (${closedAt}). A refund made for this payment after closing it was made in addition to this one.`,
        next: 'Check this payment’s refunds: if the customer was refunded again after closing, they were paid twice — contact the customer or the payment service. This refund now counts against what remains refundable.',
      };
    case 'failed':
      return {
        tone: 'warn',
        title: 'Closed as not sent; the service had it, and it failed',
        moneyMoved: 'no',
        body: `The service listed ${intent.refundTransactionNo ?? 'this refund'} after it was closed as not sent (${closedAt}); it finally failed. No money reached the customer through it.`,
        next: 'Nothing more to do for this refund.',
      };
    default:
      return undefined; // unknown again (listed, but not as sent): the usual words and its evidence
  }
}

/**
 * Describes an intent returned by refunds.submit / checkAgain or pushed by refunds.updated. `f`: the
 * person's formatters (amounts and times as on every other screen).
 */
export function describeIntent(intent: IntentView, f: Words = PLAIN_WORDS): OutcomeText {
  const amount = f.amountCode(intent.amountMinor, intent.currency);
  const closed = describeClosed(intent, amount, f);
  if (closed) return closed;
  const service = [intent.retMsg, intent.retCode ? `(code ${intent.retCode})` : undefined]
    .filter(Boolean)
    .join(' ');
  switch (intent.state) {
    case 'accepted':
      return {
        tone: 'info',
        title: 'Accepted — not final yet',
        moneyMoved: 'pending',
        body: `The service accepted the refund of ${amount} as ${intent.refundTransactionNo ?? '(no number yet)'}, but has not reported it final: it can still fail.`,
        next: 'Nothing to do now: Refund Desk follows it until the service reports it completed or failed (see Refunds). Do not refund this payment again meanwhile.',
      };
    case 'succeeded':
      return {
        tone: 'ok',
        title: 'Refund completed',
        moneyMoved: 'yes',
        body: `${amount} was refunded as ${intent.refundTransactionNo ?? '—'}.`,
        next: 'Nothing more to do.',
      };
    case 'rejected':
      return {
        tone: 'bad',
        title: 'The service rejected the refund',
        moneyMoved: 'no',
        body: `${service || intent.detail || 'The service gave no reason.'} No money moved.`,
        next: 'Fix what the service reports, then try again, or contact the payment service with the code.',
      };
    case 'failed':
      return {
        tone: 'bad',
        title: 'The refund failed at the service',
        moneyMoved: 'no',
        body: `The service accepted ${intent.refundTransactionNo ?? 'the refund'} but it finally failed${service ? `: ${service}` : ''}. No money reached the customer.`,
        next: 'You may start a new refund for this payment.',
      };
    case 'refused':
      return {
        tone: 'bad',
        title: 'Refused before sending',
        moneyMoved: 'no',
        body: `${intent.detail ?? 'A check failed.'} Nothing was sent.`,
        next: 'Correct the problem and try again.',
      };
    case 'outcome_unknown':
      return {
        tone: 'warn',
        title: 'Outcome unknown',
        moneyMoved: 'unknown',
        body: `We don't know yet whether money moved. ${intent.detail ?? ''}`.trim(),
        next:
          'Do not refund this payment again. Use “Check again”: Refund Desk asks the service whether it has this refund (reference ' +
          intent.id +
          ').',
      };
    case 'sending':
      return {
        tone: 'info',
        title: 'Sending…',
        moneyMoved: 'unknown',
        body: `The refund of ${amount} is on its way to the service.`,
        next: 'Wait for the answer; do not close Refund Desk.',
      };
    // Four-eyes (team database): a request is never sent until another person approves it.
    case 'awaiting_approval':
      return {
        tone: 'info',
        title: 'Awaiting approval — nothing was sent',
        moneyMoved: 'no',
        body: `The refund of ${amount} is above this account's approval limit, so it was recorded as request ${intent.id}${intent.approval ? `, which expires ${f.dateTime(intent.approval.expiresAt)}` : ''}. Nothing was sent.`,
        next: 'Another person with the checker role approves and sends it (Refunds → Approvals), or rejects it. This screen follows it by itself. Do not refund this payment again meanwhile.',
      };
    case 'approved':
      return {
        tone: 'info',
        title: 'Approved — being sent',
        moneyMoved: 'unknown',
        body: `The request for ${amount} was approved${intent.approval?.approvedBy ? ` by ${intent.approval.approvedBy}` : ''}; their desk sends it.`,
        next: 'Nothing to do: this refund says so as soon as the service answers.',
      };
    case 'declined':
    case 'cancelled':
    case 'expired':
      return {
        tone: 'bad',
        title:
          intent.state === 'declined'
            ? 'Request declined — nothing was sent'
            : intent.state === 'cancelled'
              ? 'Request cancelled — nothing was sent'
              : 'Request expired — nothing was sent',
        moneyMoved: 'no',
        body: `The request for ${amount} ${intent.state === 'expired' ? 'was not approved in time' : `was ${intent.state}${intent.approval?.closedBy ? ` by ${intent.approval.closedBy}` : ''}`}${intent.approval?.comment ? `: ${intent.approval.comment}` : '.'}`,
        next: 'If the customer is still owed the money, make a new refund.',
      };
  }
}

/**
 * When this intent's status was last established, in words: the last check at the service and what it
 * found, else the desk's last change to it. `at` formats an instant in the person's zone.
 */
export function checkedWords(intent: IntentView, at: (iso: string) => string): string {
  const c = intent.lastCheck;
  // The closing check's note carries main's raw evidence (ISO times): say it in the person's zone instead.
  const closedAt = intent.closedNotSentAt ?? intent.closedNotSent?.at;
  if (intent.state === 'refused' && closedAt !== undefined)
    return c && c.at > closedAt
      ? `Last checked ${at(c.at)} (still watched since it was closed): not found at the service.`
      : `Last checked ${at(closedAt)}, just before it was closed: not found at the service.`;
  if (c)
    return `Last checked ${at(c.at)}: ${c.found ? 'found at the service' : 'not found at the service'} — ${c.note}`;
  return `Status as of ${at(intent.updatedAt)}.`;
}

/** Describes a submit that main refused (envelope error): why, and that nothing was sent. */
export function describeSubmitError(error: Pick<AppErrorShape, 'code' | 'message' | 'details'>): OutcomeText {
  const moved = error.details?.moneyMoved;
  const moneyMoved: MoneyMoved =
    moved === 'yes' || moved === 'unknown' ? moved : error.code === 'outcome_unknown' ? 'unknown' : 'no';
  const remaining = error.details?.remainingMinor;
  const title =
    error.code === 'conflict'
      ? 'Refund refused'
      : error.code === 'network' || error.code === 'timeout' || error.code === 'unavailable'
        ? 'Could not reach the payment service'
        : error.code === 'invalid_input'
          ? 'Refund refused'
          : 'Refund not sent';
  return {
    tone: moneyMoved === 'unknown' ? 'warn' : 'bad',
    title,
    moneyMoved,
    // Main's own words; whether money moved is its own line, read from the details, never the text.
    body: error.message,
    next:
      typeof remaining === 'number'
        ? 'Go back and choose an amount within what remains.'
        : error.code === 'conflict'
          ? 'Check the payment and its refunds in Refunds, then try again.'
          : 'Try again; if it keeps happening, note the reference and contact support.',
  };
}
