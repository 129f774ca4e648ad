import { scrubCardText } from '../../domain/card-scrub';
import type { Currency } from '../../domain/currencies';
import { formatMinor } from '../../domain/money';
import { vendorLabel } from '../../domain/checkout';
import { environmentLabel, REFUNDED_STATE_LABELS } from '../../domain/labels';
import type { RefundedState } from '../../domain/transaction';
import type { PaymentAuditEntry, PaymentKind, PaymentState, PaymentView } from '../../ipc/contract/payments';
import type { CsvColumn } from '../writer';

/** A payment's kind and state in the words the Payments screen uses (it imports these). */
export const PAYMENT_KIND_LABELS: Readonly<Record<PaymentKind, string>> = {
  link: 'Payment link',
  whitelabel: 'Whitelabel',
  card: 'Card',
  charge: 'Stored-method charge',
};
export const PAYMENT_STATE_LABELS: Readonly<Record<PaymentState, string>> = {
  sending: 'Sending',
  open: 'Open',
  succeeded: 'Paid',
  failed: 'Failed',
  closed: 'Closed unpaid',
  rejected: 'Rejected',
  outcome_unknown: 'Outcome unknown',
  not_created: 'Not created',
};

/**
 * A paid payment's refunds as the Transactions screen shows them: worked out from the payment's
 * transaction in the renderer's cache by the Transactions list's own rule (db/list-row.ts), so the two
 * screens and their exports never disagree. `remainingMinor` is absent when nothing can safely be
 * refunded (not successful at the service, or refunds in another currency).
 */
export interface PaymentRefunds {
  refunded: RefundedState;
  refundedMinor: number;
  remainingMinor?: number;
  /** Why nothing can be refunded, in words, when `remainingMinor` is absent. */
  notRefundable?: string;
  /** When the service said so (the cached transaction's fetchedAt). */
  asOf: string;
}

/** A payment as the Payments screen lists and exports it. */
export type PaymentRow = PaymentView & { refundSummary?: PaymentRefunds };

/**
 * Column sets of the payments list and the payments audit log exports, as the refunds and audit exports
 * write theirs: headers are words people read, a code that matters has its own column beside its label,
 * and timestamps are written in the zone the person chose (the writers name it in the header). They
 * carry what a person may see of a payment — never card data (only the last four digits) and never a
 * stored method's vaultId.
 */
/** Texts a service wrote pass the card scrubber once more (an older version kept what it echoed). */
const safe = (
  row: {
    transactionNo?: string | undefined;
    reference?: string | undefined;
    customerNo?: string | undefined;
  },
  text: string | undefined,
) => scrubCardText(text, [row.transactionNo, row.reference, row.customerNo]);
const money = (row: { amountMinor?: number | undefined; currency?: Currency | undefined }) =>
  row.amountMinor !== undefined && row.currency ? formatMinor(row.amountMinor, row.currency) : undefined;

export const PAYMENT_COLUMNS: readonly CsvColumn<PaymentRow>[] = [
  { header: 'Created', kind: 'timestamp', value: (p) => p.createdAt },
  { header: 'Updated', kind: 'timestamp', value: (p) => p.updatedAt },
  { header: 'Payment', kind: 'id', value: (p) => p.id },
  { header: 'Kind', kind: 'text', value: (p) => PAYMENT_KIND_LABELS[p.kind] },
  { header: 'Kind code', kind: 'text', value: (p) => p.kind },
  { header: 'State', kind: 'text', value: (p) => PAYMENT_STATE_LABELS[p.state] },
  { header: 'State code', kind: 'text', value: (p) => p.state },
  { header: 'Status at the service', kind: 'text', value: (p) => p.paymentStatus },
  { header: 'Reference', kind: 'id', value: (p) => p.reference },
  { header: 'Transaction no.', kind: 'id', value: (p) => p.transactionNo },
  { header: 'Amount', kind: 'amount', value: money },
  { header: 'Currency', kind: 'text', value: (p) => p.currency },
  { header: 'Settles in', kind: 'text', value: (p) => p.settleCurrency },
  { header: 'Payment method', kind: 'text', value: (p) => (p.vendor ? vendorLabel(p.vendor) : undefined) },
  { header: 'Payment method code', kind: 'text', value: (p) => p.vendor },
  { header: 'Card ending', kind: 'id', value: (p) => p.cardLast4 },
  { header: 'Customer no.', kind: 'id', value: (p) => p.customerNo },
  { header: 'Description', kind: 'text', value: (p) => safe(p, p.description) },
  { header: 'Note', kind: 'text', value: (p) => safe(p, p.note) },
  { header: 'Paid', kind: 'timestamp', value: (p) => p.paidAt },
  { header: 'Expires', kind: 'timestamp', value: (p) => p.expiresAt },
  { header: 'Service code', kind: 'text', value: (p) => safe(p, p.retCode) },
  { header: 'Service message', kind: 'text', value: (p) => safe(p, p.retMsg) },
  { header: 'Operator', kind: 'text', value: (p) => p.operator },
  { header: 'Profile', kind: 'text', value: (p) => p.profileName },
  { header: 'Environment', kind: 'text', value: (p) => environmentLabel(p.environment) },
  // A paid payment's refunds, as the Transactions export has them (empty when they are not known here).
  {
    header: 'Refund state',
    kind: 'text',
    value: (p) => (p.refundSummary ? REFUNDED_STATE_LABELS[p.refundSummary.refunded] : undefined),
  },
  { header: 'Refund state code', kind: 'text', value: (p) => p.refundSummary?.refunded },
  {
    header: 'Refunded',
    kind: 'amount',
    value: (p) => p.refundSummary && formatMinor(p.refundSummary.refundedMinor, p.currency),
  },
  {
    header: 'Refundable',
    kind: 'amount',
    value: (p) =>
      p.refundSummary?.remainingMinor === undefined
        ? undefined
        : formatMinor(p.refundSummary.remainingMinor, p.currency),
  },
  { header: 'Refunds as of', kind: 'timestamp', value: (p) => p.refundSummary?.asOf },
];

export const PAYMENT_AUDIT_COLUMNS: readonly CsvColumn<PaymentAuditEntry>[] = [
  { header: 'Time', kind: 'timestamp', value: (e) => e.at },
  { header: 'Operator', kind: 'text', value: (e) => e.operator },
  { header: 'Profile', kind: 'text', value: (e) => e.profileName },
  { header: 'Environment', kind: 'text', value: (e) => environmentLabel(e.environment) },
  { header: 'Action', kind: 'text', value: (e) => e.action },
  { header: 'Outcome', kind: 'text', value: (e) => e.outcome },
  { header: 'Reference', kind: 'id', value: (e) => e.reference },
  { header: 'Transaction no.', kind: 'id', value: (e) => e.transactionNo },
  { header: 'Customer no.', kind: 'id', value: (e) => e.customerNo },
  { header: 'Amount', kind: 'amount', value: money },
  { header: 'Currency', kind: 'text', value: (e) => e.currency },
  { header: 'Payment method', kind: 'text', value: (e) => (e.vendor ? vendorLabel(e.vendor) : undefined) },
  { header: 'Payment method code', kind: 'text', value: (e) => e.vendor },
  { header: 'Service code', kind: 'text', value: (e) => safe(e, e.retCode) },
  { header: 'Service message', kind: 'text', value: (e) => safe(e, e.retMsg) },
  { header: 'Detail', kind: 'text', value: (e) => safe(e, e.detail) },
  { header: 'Subject', kind: 'id', value: (e) => e.subjectId },
];
