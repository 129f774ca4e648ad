import { formatMinor } from '../../domain/money';
import type { AuditEntryView, IntentView } from '../../ipc/contract/refunds';
import { type CsvColumn, writeCsv } from '../writer';

/**
 * Column sets of the refunds and audit-log exports, shared by the app (renderer download) and
 * `cli export`, so both write the same stable, documented files. Columns are only ever appended.
 */
// Every instant we hold is a UTC ISO string, so the zone column says so explicitly (every export names
// its zone) rather than converting to the exporter's local time.
const UTC = () => 'UTC';

const amount = (row: { amountMinor: number; currency: string }) => formatMinor(row.amountMinor, row.currency);

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

/** The audit log as CSV (shared writer: BOM for Excel, ids kept as text, formula guard). */
export const auditCsv = (rows: readonly AuditEntryView[]) => writeCsv(AUDIT_COLUMNS, rows, { bom: true });
/** The refunds list as CSV. */
export const refundsCsv = (rows: readonly IntentView[]) => writeCsv(REFUND_COLUMNS, rows, { bom: true });
