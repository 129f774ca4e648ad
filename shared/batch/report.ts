/**
 * The refund batch report (CSV and Excel, through the shared writers): every data row of the file with
 * its class — and, once execution exists, its outcome, refundTransactionNo, time and person — amounts,
 * currency, what remained, and its row key. The dry run fills the class columns; the execution columns
 * are there from the start (empty until a row is executed), so a script reading the report does not
 * change when execution lands.
 */
import { type CsvColumn, type CsvOptions, writeCsv } from '../csv/writer';
import type { Currency } from '../domain/currencies';
import { formatMinor } from '../domain/money';
import { BATCH_CLASS_LABELS, type BatchRowResult } from './result';

/** A row of the report: the dry run's answer, plus what executing it did (later). */
export interface BatchReportRow extends BatchRowResult {
  /** Execution's outcome (accepted, succeeded, rejected, refused, outcome_unknown…); absent in a dry run. */
  outcome?: string;
  refundTransactionNo?: string;
  /** When the row was executed (UTC ISO). */
  at?: string;
  operator?: string;
}

const amount = (minor: number | undefined, currency: Currency | undefined) =>
  minor === undefined || currency === undefined ? '' : formatMinor(minor, currency);

export const BATCH_REPORT_COLUMNS: readonly CsvColumn<BatchReportRow>[] = [
  { header: 'Line', kind: 'integer', value: (r) => r.line },
  { header: 'Class', kind: 'text', value: (r) => BATCH_CLASS_LABELS[r.class] },
  { header: 'Class code', kind: 'text', value: (r) => r.class },
  { header: 'Transaction no.', kind: 'id', value: (r) => r.transactionNo },
  { header: 'Merchant reference', kind: 'text', value: (r) => r.reference },
  { header: 'Row reference', kind: 'text', value: (r) => r.rowRef },
  { header: 'Currency', kind: 'text', value: (r) => r.currency },
  {
    header: 'Requested',
    kind: 'amount',
    value: (r) => (r.full ? 'full' : amount(r.requestedMinor, r.currency)),
  },
  { header: 'Amount to refund', kind: 'amount', value: (r) => amount(r.amountMinor, r.currency) },
  {
    header: 'Remaining before this row',
    kind: 'amount',
    value: (r) => amount(r.remainingMinor, r.paymentCurrency ?? r.currency),
  },
  { header: 'Payment currency', kind: 'text', value: (r) => r.paymentCurrency },
  { header: 'Payment status', kind: 'text', value: (r) => r.paymentStatus },
  { header: 'Reason', kind: 'text', value: (r) => r.reason },
  { header: 'Why', kind: 'text', value: (r) => r.message },
  { header: 'Duplicate of line', kind: 'integer', value: (r) => r.duplicateOf },
  { header: 'Refunded in batch', kind: 'text', value: (r) => r.batchId },
  { header: 'Outcome', kind: 'text', value: (r) => r.outcome },
  { header: 'Refund transaction no.', kind: 'id', value: (r) => r.refundTransactionNo },
  { header: 'Time', kind: 'timestamp', value: (r) => r.at },
  { header: 'Person', kind: 'text', value: (r) => r.operator },
  { header: 'Row key', kind: 'text', value: (r) => r.key },
  { header: 'Row as read', kind: 'text', value: (r) => r.raw },
];

/** The report as a CSV document (the Excel one: writeXlsx(BATCH_REPORT_COLUMNS, rows, …)). */
export function batchReportCsv(rows: Iterable<BatchReportRow>, opts: CsvOptions = {}): string {
  return writeCsv(BATCH_REPORT_COLUMNS, rows, opts);
}
