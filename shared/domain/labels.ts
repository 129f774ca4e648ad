import { ENVIRONMENT_LABELS, type RecordedEnvironment } from './profile';

/**
 * Words for people. The service speaks in codes (`cashapppay`, `dealing`); screens show names people
 * know, and keep the code in a tooltip and in its own export column, so nothing is lost.
 */

/** Payment methods ("vendors") by the service's code (shared/protocol/README.md, secure-pay `vendor`). */
export const VENDOR_NAMES: Readonly<Record<string, string>> = {
  alipay: 'Alipay',
  alipay_hk: 'Alipay HK',
  wechatpay: 'WeChat Pay',
  unionpay: 'UnionPay',
  creditcard: 'Card',
  paypal: 'PayPal',
  venmo: 'Venmo',
  truemoney: 'TrueMoney',
  tng: 'Touch ’n Go',
  gcash: 'GCash',
  dana: 'DANA',
  kakaopay: 'KakaoPay',
  bkash: 'bKash',
  easypaisa: 'Easypaisa',
  googlepay: 'Google Pay',
  applepay: 'Apple Pay',
  cashapppay: 'Cash App Pay',
  paypay: 'PayPay',
};

/** A vendor's name; an unknown code is shown as the service sent it (never guessed). */
export function vendorLabel(code: string | undefined): string | undefined {
  if (!code) return undefined;
  return VENDOR_NAMES[code.toLowerCase()] ?? code;
}

/** Payment statuses (shared/protocol/README.md, "Statuses") in the words a finance person uses. */
export const TRANSACTION_STATUS_LABELS: Readonly<Record<string, string>> = {
  init: 'Not yet paid',
  dealing: 'Processing',
  pending: 'Pending',
  success: 'Successful',
  failed: 'Failed',
  closed: 'Closed unpaid',
  reversed: 'Reversed',
  unknown: 'Unknown status',
};

export function transactionStatusLabel(code: string): string {
  return TRANSACTION_STATUS_LABELS[code] ?? code;
}

/** A refund at the service (refundInfo entry). */
export const REFUND_STATUS_LABELS: Readonly<Record<string, string>> = {
  pending: 'Pending',
  success: 'Completed',
  failed: 'Failed',
};

export function refundStatusLabel(code: string): string {
  return REFUND_STATUS_LABELS[code] ?? code;
}

/**
 * Statuses of a payment whose money was actually taken, so a "paid" time means something. A failed,
 * closed or unfinished payment was never paid, whatever time a server may attach to it.
 */
export function wasPaid(status: string): boolean {
  return status === 'success' || status === 'reversed';
}

/** Refund intents (this desk's refunds) by state, as the Refunds list and its exports say them. */
/** Words for the derived refund state of a payment (shown beside the service's own status). */
export const REFUNDED_STATE_LABELS: Readonly<Record<string, string>> = {
  not_refunded: 'Not refunded',
  partially_refunded: 'Partially refunded',
  refunded: 'Refunded',
  unclear: 'Refunds in another currency',
};

/**
 * The service's status with the derived refund state beside it ("Successful · Partially refunded"):
 * the service keeps a refunded payment "success", so both are said.
 */
export function statusWithRefunds(statusLabel: string, refunded: string | undefined): string {
  return refunded && refunded !== 'not_refunded'
    ? `${statusLabel} · ${REFUNDED_STATE_LABELS[refunded] ?? refunded}`
    : statusLabel;
}

export const INTENT_STATE_LABELS: Readonly<Record<string, string>> = {
  sending: 'Sending',
  accepted: 'Accepted · not final yet',
  rejected: 'Rejected',
  refused: 'Refused',
  outcome_unknown: 'Outcome unknown',
  succeeded: 'Refunded',
  failed: 'Failed',
  awaiting_approval: 'Awaiting approval · not sent',
  approved: 'Approved · being sent',
  declined: 'Declined · not sent',
  cancelled: 'Cancelled · not sent',
  expired: 'Expired · not sent',
};

/**
 * Audit entries record one moment, so "accepted" is not "accepted · settling" as in the live list, and
 * a refusal says that nothing was sent.
 */
export const AUDIT_OUTCOME_LABELS: Readonly<Record<string, string>> = {
  accepted: 'Accepted',
  succeeded: 'Refunded',
  rejected: 'Rejected',
  refused: 'Refused (not sent)',
  outcome_unknown: 'Outcome unknown',
  failed: 'Failed',
  closed_not_sent: 'Closed as not sent',
  found_after_close: 'Closed as not sent, but the service has it: refunded after all',
  approval_requested: 'Approval requested (not sent)',
  approved: 'Approved',
  approval_declined: 'Declined (not sent)',
  approval_cancelled: 'Request cancelled (not sent)',
  approval_expired: 'Request expired (not sent)',
  batch_started: 'Refund batch started',
  batch_finished: 'Refund batch ended',
  batch_row_not_sent: 'Batch row not sent',
  conflicting_answer: 'Answer kept offline disagrees with the team database: check the payment',
  imported: 'Imported from a desk (before team mode)',
};

/** Profile environments as people say them, and a record's that an earlier version did not keep. */
export function environmentLabel(env: RecordedEnvironment): string {
  return env === 'unrecorded' ? 'Environment not recorded' : ENVIRONMENT_LABELS[env];
}
