import { scrubCardText } from '../../domain/card-scrub';
import type { Currency } from '../../domain/currencies';
import { formatMinor } from '../../domain/money';
import type { RefundedState } from '../../domain/transaction';
import type { PaymentAuditEntry, PaymentView } from '../../ipc/contract/payments';
import type { CsvColumn } from '../writer';

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
 * Column sets of the payments list and the payments audit log exports. They carry what a person may see
 * of a payment — never card data (only the last four digits) and never a stored method's vaultId.
 * Columns are only ever appended.
 */
const UTC = () => 'UTC';
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
  { header: 'createdAt', kind: 'timestamp', value: (p) => p.createdAt },
  { header: 'updatedAt', kind: 'timestamp', value: (p) => p.updatedAt },
  { header: 'timezone', kind: 'text', value: UTC },
  { header: 'paymentId', kind: 'id', value: (p) => p.id },
  { header: 'kind', kind: 'text', value: (p) => p.kind },
  { header: 'state', kind: 'text', value: (p) => p.state },
  { header: 'serviceStatus', kind: 'text', value: (p) => p.paymentStatus },
  { header: 'reference', kind: 'id', value: (p) => p.reference },
  { header: 'transactionNo', kind: 'id', value: (p) => p.transactionNo },
  { header: 'amount', kind: 'amount', value: money },
  { header: 'currency', kind: 'text', value: (p) => p.currency },
  { header: 'settleCurrency', kind: 'text', value: (p) => p.settleCurrency },
  { header: 'vendor', kind: 'text', value: (p) => p.vendor },
  { header: 'cardLast4', kind: 'id', value: (p) => p.cardLast4 },
  { header: 'customerNo', kind: 'id', value: (p) => p.customerNo },
  { header: 'description', kind: 'text', value: (p) => safe(p, p.description) },
  { header: 'note', kind: 'text', value: (p) => safe(p, p.note) },
  { header: 'paidAt', kind: 'timestamp', value: (p) => p.paidAt },
  { header: 'expiresAt', kind: 'timestamp', value: (p) => p.expiresAt },
  { header: 'ret_code', kind: 'text', value: (p) => safe(p, p.retCode) },
  { header: 'ret_msg', kind: 'text', value: (p) => safe(p, p.retMsg) },
  { header: 'operator', kind: 'text', value: (p) => p.operator },
  { header: 'profile', kind: 'text', value: (p) => p.profileName },
  { header: 'environment', kind: 'text', value: (p) => p.environment },
  // A paid payment's refunds, as the Transactions export has them (empty when they are not known here).
  { header: 'refundState', kind: 'text', value: (p) => p.refundSummary?.refunded },
  {
    header: 'refunded',
    kind: 'amount',
    value: (p) => p.refundSummary && formatMinor(p.refundSummary.refundedMinor, p.currency),
  },
  {
    header: 'refundable',
    kind: 'amount',
    value: (p) =>
      p.refundSummary?.remainingMinor === undefined
        ? undefined
        : formatMinor(p.refundSummary.remainingMinor, p.currency),
  },
  { header: 'refundsAsOf', kind: 'timestamp', value: (p) => p.refundSummary?.asOf },
];

export const PAYMENT_AUDIT_COLUMNS: readonly CsvColumn<PaymentAuditEntry>[] = [
  { header: 'at', kind: 'timestamp', value: (e) => e.at },
  { header: 'timezone', kind: 'text', value: UTC },
  { header: 'operator', kind: 'text', value: (e) => e.operator },
  { header: 'profile', kind: 'text', value: (e) => e.profileName },
  { header: 'environment', kind: 'text', value: (e) => e.environment },
  { header: 'action', kind: 'text', value: (e) => e.action },
  { header: 'outcome', kind: 'text', value: (e) => e.outcome },
  { header: 'reference', kind: 'id', value: (e) => e.reference },
  { header: 'transactionNo', kind: 'id', value: (e) => e.transactionNo },
  { header: 'customerNo', kind: 'id', value: (e) => e.customerNo },
  { header: 'amount', kind: 'amount', value: money },
  { header: 'currency', kind: 'text', value: (e) => e.currency },
  { header: 'vendor', kind: 'text', value: (e) => e.vendor },
  { header: 'ret_code', kind: 'text', value: (e) => safe(e, e.retCode) },
  { header: 'ret_msg', kind: 'text', value: (e) => safe(e, e.retMsg) },
  { header: 'detail', kind: 'text', value: (e) => safe(e, e.detail) },
  { header: 'subjectId', kind: 'id', value: (e) => e.subjectId },
];
