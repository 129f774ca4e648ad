import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import { UNSAFE_LINK_NOTICES } from '../../../../shared/domain/card-scrub';
import { vendorLabel } from '../../../../shared/domain/checkout';
import { statusWithRefunds } from '../../../../shared/domain/labels';
import type { PaymentKind, PaymentState, PaymentView } from '../../../../shared/ipc/contract/payments';
import { amountText } from '../refunds/format';

export const KIND_LABELS: Record<PaymentKind, string> = {
  link: 'Payment link',
  whitelabel: 'Whitelabel',
  card: 'Card',
  charge: 'Stored-method charge',
};

export const STATE_LABELS: Record<PaymentState, string> = {
  sending: 'Sending',
  open: 'Open',
  succeeded: 'Paid',
  failed: 'Failed',
  closed: 'Closed unpaid',
  rejected: 'Rejected',
  outcome_unknown: 'Outcome unknown',
  not_created: 'Not created',
};

export const STATE_TONES: Record<PaymentState, 'ok' | 'bad' | 'warn' | 'info'> = {
  sending: 'info',
  open: 'info',
  succeeded: 'ok',
  failed: 'bad',
  closed: 'bad',
  rejected: 'bad',
  outcome_unknown: 'warn',
  not_created: 'bad',
};

/** How a stored instant is written (the display preferences' formatter; ISO when none is given). */
type TimeText = (iso: string) => string;
const asIs: TimeText = (iso) => iso;

/** What an open payment is waiting for, from its kind and the service's status. */
export function waitingFor(p: PaymentView, localTime: TimeText = asIs): string {
  // A page link that carried card data was dropped (main never keeps it): say what to do instead.
  if (p.detail && UNSAFE_LINK_NOTICES.has(p.detail)) return p.detail;
  if (p.kind === 'card' && p.paymentStatus === 'pending')
    return 'Waiting for the 3-D Secure check: the cardholder confirms the payment on the bank’s page.';
  if (p.kind === 'link')
    return `Waiting for the customer to pay through the link${p.expiresAt ? ` (it closes unpaid at ${localTime(p.expiresAt)})` : ''}.`;
  if (p.kind === 'whitelabel')
    return `Waiting for the payment on your own page with the ${vendorLabel(p.vendor)} SDK${p.expiresAt ? ` (until ${localTime(p.expiresAt)})` : ''}.`;
  return 'Waiting for the service’s final status.';
}

export interface PaymentOutcome {
  tone: 'ok' | 'bad' | 'warn' | 'info';
  title: string;
  moneyMoved: 'yes' | 'no' | 'unknown' | 'not yet';
  body: string;
}

/** What became of a paid payment's money since, from its refunds as Transactions shows them. */
function refundsSentence(p: PaymentRow): string {
  const r = p.refundSummary;
  if (!r || r.refunded === 'not_refunded') return '';
  if (r.refunded === 'unclear')
    return ' The service lists refunds of it in another currency, so what remains refundable cannot be said: check it in Transactions.';
  if (r.refunded === 'refunded')
    return ` All of it was refunded (${amountText(r.refundedMinor, p.currency)}).`;
  return ` ${amountText(r.refundedMinor, p.currency)} of it was refunded${r.remainingMinor !== undefined ? `; ${amountText(r.remainingMinor, p.currency)} can still be refunded` : ''}.`;
}

/** A payment's state in words: what happened, whether money moved, what to do next. */
export function describePayment(p: PaymentRow, localTime: TimeText = asIs): PaymentOutcome {
  const amount = amountText(p.amountMinor, p.currency);
  const service = [p.retMsg, p.retCode ? `(code ${p.retCode})` : undefined].filter(Boolean).join(' ');
  switch (p.state) {
    case 'sending':
      return {
        tone: 'info',
        title: 'Sending to the payment service…',
        moneyMoved: 'not yet',
        body: `${amount}, reference ${p.reference}.`,
      };
    case 'open':
      return {
        tone: 'info',
        title: 'Created — not paid yet',
        moneyMoved: 'not yet',
        body: `${waitingFor(p, localTime)} This screen updates by itself.`,
      };
    case 'succeeded':
      return {
        tone: 'ok',
        title: statusWithRefunds('Paid', p.refundSummary?.refunded),
        moneyMoved: 'yes',
        body: `${amount} was paid${p.paidAt ? ` at ${localTime(p.paidAt)}` : ''}${p.transactionNo ? ` as transaction ${p.transactionNo}` : ''}.${refundsSentence(p)}${p.saveCard ? (p.methodSaved ? ` The card is stored on ${p.customerName ?? 'the customer'}.` : ' The stored card arrives with the service’s notification.') : ''}`,
      };
    case 'failed':
      return {
        tone: 'bad',
        title: 'The payment failed',
        moneyMoved: 'no',
        body: `The service reports the payment as ${p.paymentStatus ?? 'failed'}${service ? `: ${service}` : ''}. No money moved.`,
      };
    case 'closed':
      return {
        tone: 'bad',
        title: 'Closed unpaid',
        moneyMoved: 'no',
        body: 'Nobody paid before it expired, so the service closed it. Create a new one if the customer still wants to pay.',
      };
    case 'rejected':
      return {
        tone: 'bad',
        title: 'The service rejected it',
        moneyMoved: 'no',
        body: `${service || p.detail || 'The service gave no reason.'} Nothing was created.${p.retCode === '000022' ? ' If the reference was used before, generate a new one.' : ''}`,
      };
    case 'outcome_unknown':
      return {
        tone: 'warn',
        title: 'Outcome unknown',
        moneyMoved: 'unknown',
        body: `The service’s answer was lost (${p.detail ?? 'no answer'}). Refund Desk looks for the payment by its reference ${p.reference} and never sends it again. Do not take this payment again until this is resolved.`,
      };
    case 'not_created':
      return {
        tone: 'bad',
        title: 'Not created',
        moneyMoved: 'no',
        body: p.detail ?? 'The service has no payment with this reference.',
      };
  }
}

export { amountText, vendorLabel };
