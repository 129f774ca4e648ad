/**
 * The reconciliation report and summary CSV column sets. Stable and documented (README
 * "Reconciliation"): add columns only at the end, never rename or reorder, so finance's spreadsheets
 * and scripts keep working. Written only through the shared writer.
 */
import { type CsvColumn, type CsvOptions, writeCsv } from '../csv/writer';
import { formatMinor } from '../domain/money';
import type { ReconItem } from './match';
import type { CurrencySummary } from './summary';

const amount = (minor: number | undefined, currency: string | undefined) =>
  minor === undefined || currency === undefined ? '' : formatMinor(minor, currency);

/** Every timestamp we write is a UTC instant; the column says so explicitly. */
export const EXPORT_TIMEZONE = 'UTC';

/** The single currency of a row's difference, or the ledger's when the currencies differ. */
function differenceOf(item: ReconItem): { amountMinor: number; currency: string } | undefined {
  if (item.deltas.length === 0)
    return item.outcome === 'matched' ? undefined : { amountMinor: 0, currency: item.ledger.currency };
  return item.deltas.find((d) => d.currency === item.ledger.currency) ?? item.deltas[0];
}

/** Report: one line per ledger row, exceptions and matches alike. */
export const REPORT_COLUMNS: readonly CsvColumn<ReconItem>[] = [
  { header: 'line', kind: 'integer', value: (r) => r.line },
  { header: 'outcome', kind: 'text', value: (r) => r.outcome },
  { header: 'matchedBy', kind: 'text', value: (r) => r.matchedBy },
  { header: 'transactionNo', kind: 'id', value: (r) => r.ledger.transactionNo ?? r.service?.transactionNo },
  { header: 'reference', kind: 'id', value: (r) => r.ledger.reference ?? r.service?.reference },
  { header: 'ledgerAmount', kind: 'amount', value: (r) => amount(r.ledger.amountMinor, r.ledger.currency) },
  { header: 'ledgerCurrency', kind: 'text', value: (r) => r.ledger.currency },
  { header: 'ledgerStatus', kind: 'text', value: (r) => r.ledger.statusText ?? r.ledger.status },
  { header: 'ledgerDate', kind: 'text', value: (r) => r.ledger.date },
  {
    header: 'serviceAmount',
    kind: 'amount',
    value: (r) => amount(r.service?.amountMinor, r.service?.currency),
  },
  { header: 'serviceCurrency', kind: 'text', value: (r) => r.service?.currency },
  { header: 'serviceStatus', kind: 'text', value: (r) => r.service?.status },
  {
    header: 'serviceRefunded',
    kind: 'amount',
    value: (r) => amount(r.service?.refundedMinor, r.service?.currency),
  },
  {
    header: 'difference',
    kind: 'amount',
    value: (r) => amount(differenceOf(r)?.amountMinor, differenceOf(r)?.currency),
  },
  { header: 'differenceCurrency', kind: 'text', value: (r) => differenceOf(r)?.currency },
  { header: 'duplicateOfLine', kind: 'integer', value: (r) => r.duplicateOfLine },
  { header: 'servicePaidAt', kind: 'timestamp', value: (r) => r.service?.paidAt },
  { header: 'timezone', kind: 'text', value: (r) => (r.service?.paidAt ? EXPORT_TIMEZONE : '') },
  { header: 'detail', kind: 'text', value: (r) => r.detail },
];

export interface SummaryExportRow extends CurrencySummary {
  generatedAt: string;
}

/** Summary: one line per currency. */
export const SUMMARY_COLUMNS: readonly CsvColumn<SummaryExportRow>[] = [
  { header: 'currency', kind: 'text', value: (r) => r.currency },
  { header: 'ledgerRows', kind: 'integer', value: (r) => r.rows },
  { header: 'matched', kind: 'integer', value: (r) => r.counts.matched },
  { header: 'amountMismatch', kind: 'integer', value: (r) => r.counts.amount_mismatch },
  { header: 'currencyMismatch', kind: 'integer', value: (r) => r.counts.currency_mismatch },
  { header: 'statusMismatch', kind: 'integer', value: (r) => r.counts.status_mismatch },
  { header: 'refundedNotInLedger', kind: 'integer', value: (r) => r.counts.refunded_not_in_ledger },
  { header: 'missingAtService', kind: 'integer', value: (r) => r.counts.missing_at_service },
  { header: 'duplicateInLedger', kind: 'integer', value: (r) => r.counts.duplicate_in_ledger },
  { header: 'notChecked', kind: 'integer', value: (r) => r.counts.not_checked },
  { header: 'ledgerTotal', kind: 'amount', value: (r) => formatMinor(r.ledgerTotalMinor, r.currency) },
  { header: 'serviceTotal', kind: 'amount', value: (r) => formatMinor(r.serviceTotalMinor, r.currency) },
  { header: 'serviceRefunds', kind: 'amount', value: (r) => formatMinor(r.serviceRefundsMinor, r.currency) },
  { header: 'difference', kind: 'amount', value: (r) => formatMinor(r.differenceMinor, r.currency) },
  { header: 'explained', kind: 'amount', value: (r) => formatMinor(r.explainedMinor, r.currency) },
  { header: 'unexplained', kind: 'amount', value: (r) => formatMinor(r.unexplainedMinor, r.currency) },
  { header: 'generatedAt', kind: 'timestamp', value: (r) => r.generatedAt },
  { header: 'timezone', kind: 'text', value: () => EXPORT_TIMEZONE },
];

/** The report CSV text. */
export function reportCsv(items: Iterable<ReconItem>, opts?: CsvOptions): string {
  return writeCsv(REPORT_COLUMNS, items, opts);
}

/** The summary CSV text; `generatedAt` is a UTC ISO instant. */
export function summaryCsv(
  currencies: readonly CurrencySummary[],
  generatedAt: string,
  opts?: CsvOptions,
): string {
  return writeCsv(
    SUMMARY_COLUMNS,
    currencies.map((c) => ({ ...c, generatedAt })),
    opts,
  );
}
