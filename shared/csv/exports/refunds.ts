import { AUDIT_OUTCOME_LABELS, environmentLabel } from '../../domain/labels';
import type { Currency } from '../../domain/currencies';
import { formatMinor } from '../../domain/money';
import { type AuditEntryView, type IntentView, REFUND_REASONS } from '../../ipc/contract/refunds';
import { RECORD_STATUS_LABELS, recordStatus, type RefundRecordRow } from '../../domain/refund-record';
import { type CsvColumn, writeCsv } from '../writer';

/**
 * Column sets of the refunds and audit-log exports (CSV and Excel). Headers are words people read;
 * where a code matters to someone (a state, a reason, the service's ret_code) it has its own column
 * beside the label. Timestamps are written in the zone the person chose and their headers name it.
 */
const amount = (row: { amountMinor: number; currency: Currency }) =>
  formatMinor(row.amountMinor, row.currency);

/** A reason code as the dialog offered it ("Duplicate payment"); unknown codes are shown as stored. */
export function reasonLabel(code: string): string {
  return REFUND_REASONS.find((r) => r.code === code)?.label.replace(/ \(explain in the note\)$/, '') ?? code;
}

export const AUDIT_EXPORT_COLUMNS: readonly CsvColumn<AuditEntryView>[] = [
  { header: 'Time', kind: 'timestamp', value: (e) => e.at },
  { header: 'Operator', kind: 'text', value: (e) => e.operator },
  { header: 'Profile', kind: 'text', value: (e) => e.profileName },
  { header: 'Environment', kind: 'text', value: (e) => environmentLabel(e.environment) },
  { header: 'Transaction no.', kind: 'id', value: (e) => e.transactionNo },
  { header: 'Amount', kind: 'amount', value: amount },
  { header: 'Currency', kind: 'text', value: (e) => e.currency },
  { header: 'Reason', kind: 'text', value: (e) => reasonLabel(e.reasonCode) },
  { header: 'Reason code', kind: 'text', value: (e) => e.reasonCode },
  { header: 'Note', kind: 'text', value: (e) => e.reasonNote },
  { header: 'Outcome', kind: 'text', value: (e) => AUDIT_OUTCOME_LABELS[e.outcome] ?? e.outcome },
  { header: 'Outcome code', kind: 'text', value: (e) => e.outcome },
  { header: 'Service code', kind: 'text', value: (e) => e.retCode },
  { header: 'Service message', kind: 'text', value: (e) => e.retMsg },
  { header: 'Refund no.', kind: 'id', value: (e) => e.refundTransactionNo },
  { header: 'Refund Desk reference', kind: 'id', value: (e) => e.intentId },
];

/**
 * The Refunds area's whole record: refunds made here and elsewhere. The intent's own columns (operator,
 * reason, Refund Desk reference) are empty for a refund made elsewhere: the service does not know them.
 */
export const REFUND_RECORD_COLUMNS: readonly CsvColumn<RefundRecordRow>[] = [
  { header: 'Made', kind: 'timestamp', value: (r) => r.at },
  { header: 'Made here', kind: 'text', value: (r) => (r.madeHere ? 'yes' : 'no') },
  { header: 'Profile', kind: 'text', value: (r) => r.profileName },
  { header: 'Transaction no.', kind: 'id', value: (r) => r.transactionNo },
  { header: 'Amount', kind: 'amount', value: amount },
  { header: 'Currency', kind: 'text', value: (r) => r.currency },
  { header: 'Status', kind: 'text', value: (r) => RECORD_STATUS_LABELS[recordStatus(r)] },
  { header: 'Status at the service', kind: 'text', value: (r) => r.serviceStatus },
  { header: 'State here', kind: 'text', value: (r) => r.intent?.state },
  { header: 'Refund no.', kind: 'id', value: (r) => r.refundTransactionNo },
  { header: 'Refund reference', kind: 'id', value: (r) => r.refundReference },
  { header: 'Operator', kind: 'text', value: (r) => r.intent?.operator },
  { header: 'Reason', kind: 'text', value: (r) => (r.intent ? reasonLabel(r.intent.reasonCode) : undefined) },
  { header: 'Note', kind: 'text', value: (r) => r.intent?.reasonNote },
];

// ——— Legacy layout of `cli export` ———
// The CLI's export still writes its first, machine-named layout (UTC instants beside a timezone
// column, ids as ="…"): its integration test pins that layout and belongs to the refund-journal work,
// which moves it to the columns above. Nothing in the app writes these any more.
const UTC = () => 'UTC';

export const AUDIT_COLUMNS: readonly CsvColumn<AuditEntryView>[] = [
  { header: 'at', kind: 'timestamp', value: (e) => e.at },
  { header: 'timezone', kind: 'text', value: UTC },
  { header: 'operator', kind: 'text', value: (e) => e.operator },
  { header: 'profile', kind: 'text', value: (e) => e.profileName },
  { header: 'environment', kind: 'text', value: (e) => e.environment },
  { header: 'transactionNo', kind: 'id', value: (e) => e.transactionNo },
  { header: 'amount', kind: 'amount', value: amount },
  { header: 'currency', kind: 'text', value: (e) => e.currency },
  { header: 'reason', kind: 'text', value: (e) => e.reasonCode },
  { header: 'note', kind: 'text', value: (e) => e.reasonNote },
  { header: 'outcome', kind: 'text', value: (e) => e.outcome },
  { header: 'ret_code', kind: 'text', value: (e) => e.retCode },
  { header: 'ret_msg', kind: 'text', value: (e) => e.retMsg },
  { header: 'refundTransactionNo', kind: 'id', value: (e) => e.refundTransactionNo },
  { header: 'intentId', kind: 'id', value: (e) => e.intentId },
  // Last, so scripts reading the columns above by position keep working. Team database: its stamps;
  // one desk's file: the operator and this desk (the exporter fills them in, see `cli export`).
  { header: 'person', kind: 'text', value: (e) => e.person },
  { header: 'desk', kind: 'text', value: (e) => e.desk },
];

export const REFUND_COLUMNS: readonly CsvColumn<IntentView>[] = [
  { header: 'createdAt', kind: 'timestamp', value: (i) => i.createdAt },
  { header: 'updatedAt', kind: 'timestamp', value: (i) => i.updatedAt },
  { header: 'timezone', kind: 'text', value: UTC },
  { header: 'intentId', kind: 'id', value: (i) => i.id },
  { header: 'state', kind: 'text', value: (i) => i.state },
  { header: 'transactionNo', kind: 'id', value: (i) => i.transactionNo },
  { header: 'reference', kind: 'id', value: (i) => i.reference },
  { header: 'amount', kind: 'amount', value: amount },
  { header: 'currency', kind: 'text', value: (i) => i.currency },
  { header: 'refundTransactionNo', kind: 'id', value: (i) => i.refundTransactionNo },
  { header: 'refundStatus', kind: 'text', value: (i) => i.refundStatus },
  { header: 'ret_code', kind: 'text', value: (i) => i.retCode },
  { header: 'ret_msg', kind: 'text', value: (i) => i.retMsg },
  { header: 'detail', kind: 'text', value: (i) => i.detail },
  { header: 'operator', kind: 'text', value: (i) => i.operator },
  { header: 'profile', kind: 'text', value: (i) => i.profileName },
  { header: 'environment', kind: 'text', value: (i) => i.environment },
  { header: 'reason', kind: 'text', value: (i) => i.reasonCode },
  { header: 'note', kind: 'text', value: (i) => i.reasonNote },
];

/** The audit log in the CLI's legacy layout (see above). */
export const auditCsv = (rows: readonly AuditEntryView[]) =>
  writeCsv(AUDIT_COLUMNS, rows, { bom: true, idStyle: 'excel' });
/** The refunds in the CLI's legacy layout (see above). */
export const refundsCsv = (rows: readonly IntentView[]) =>
  writeCsv(REFUND_COLUMNS, rows, { bom: true, idStyle: 'excel' });
