/**
 * The reconciliation report and summary column sets (CSV and Excel). Headers are words people read;
 * the outcome's code has its own column for scripts. Written only through the shared writers.
 * Timestamps are written in the zone given (UTC when none, e.g. from the CLI) and headers name it.
 */
import { type CsvColumn, type CsvOptions, writeCsv } from '../csv/writer';
import { transactionStatusLabel } from '../domain/labels';
import { formatMinor } from '../domain/money';
import { UTC_ZONE } from '../domain/zones';
import { OUTCOME_LABELS, type ReconItem } from './match';
import type { CurrencySummary } from './summary';

const amount = (minor: number | undefined, currency: string | undefined) =>
  minor === undefined || currency === undefined ? '' : formatMinor(minor, currency);

/** The single currency of a row's difference, or the ledger's when the currencies differ. */
function differenceOf(item: ReconItem): { amountMinor: number; currency: string } | undefined {
  if (item.deltas.length === 0)
    return item.outcome === 'matched' ? undefined : { amountMinor: 0, currency: item.ledger.currency };
  return item.deltas.find((d) => d.currency === item.ledger.currency) ?? item.deltas[0];
}

const MATCHED_BY: Readonly<Record<string, string>> = {
  transactionNo: 'Transaction no.',
  reference: 'Reference',
};

/** Report: one line per ledger row, exceptions and matches alike. */
export const REPORT_COLUMNS: readonly CsvColumn<ReconItem>[] = [
  { header: 'Line', kind: 'integer', value: (r) => r.line },
  { header: 'Outcome', kind: 'text', value: (r) => OUTCOME_LABELS[r.outcome] },
  { header: 'Outcome code', kind: 'text', value: (r) => r.outcome },
  { header: 'Matched by', kind: 'text', value: (r) => MATCHED_BY[r.matchedBy] ?? r.matchedBy },
  { header: 'Transaction no.', kind: 'id', value: (r) => r.ledger.transactionNo ?? r.service?.transactionNo },
  { header: 'Reference', kind: 'id', value: (r) => r.ledger.reference ?? r.service?.reference },
  { header: 'Ledger amount', kind: 'amount', value: (r) => amount(r.ledger.amountMinor, r.ledger.currency) },
  { header: 'Ledger currency', kind: 'text', value: (r) => r.ledger.currency },
  { header: 'Ledger status', kind: 'text', value: (r) => r.ledger.statusText ?? r.ledger.status },
  { header: 'Ledger date', kind: 'text', value: (r) => r.ledger.date },
  {
    header: 'Service amount',
    kind: 'amount',
    value: (r) => amount(r.service?.amountMinor, r.service?.currency),
  },
  { header: 'Service currency', kind: 'text', value: (r) => r.service?.currency },
  {
    header: 'Service status',
    kind: 'text',
    value: (r) => (r.service ? transactionStatusLabel(r.service.status) : undefined),
  },
  { header: 'Service status code', kind: 'text', value: (r) => r.service?.status },
  {
    header: 'Refunded at service',
    kind: 'amount',
    value: (r) => amount(r.service?.refundedMinor, r.service?.currency),
  },
  {
    header: 'Difference',
    kind: 'amount',
    value: (r) => amount(differenceOf(r)?.amountMinor, differenceOf(r)?.currency),
  },
  { header: 'Difference currency', kind: 'text', value: (r) => differenceOf(r)?.currency },
  { header: 'Duplicate of line', kind: 'integer', value: (r) => r.duplicateOfLine },
  { header: 'Paid at service', kind: 'timestamp', value: (r) => r.service?.paidAt },
  { header: 'Detail', kind: 'text', value: (r) => r.detail },
];

export interface SummaryExportRow extends CurrencySummary {
  generatedAt: string;
}

/** Summary: one line per currency. */
export const SUMMARY_COLUMNS: readonly CsvColumn<SummaryExportRow>[] = [
  { header: 'Currency', kind: 'text', value: (r) => r.currency },
  { header: 'Ledger rows', kind: 'integer', value: (r) => r.rows },
  { header: 'Matched', kind: 'integer', value: (r) => r.counts.matched },
  { header: 'Amount differs', kind: 'integer', value: (r) => r.counts.amount_mismatch },
  { header: 'Currency differs', kind: 'integer', value: (r) => r.counts.currency_mismatch },
  { header: 'Status differs', kind: 'integer', value: (r) => r.counts.status_mismatch },
  { header: 'Refunded, not in ledger', kind: 'integer', value: (r) => r.counts.refunded_not_in_ledger },
  { header: 'Missing at service', kind: 'integer', value: (r) => r.counts.missing_at_service },
  { header: 'Duplicate in ledger', kind: 'integer', value: (r) => r.counts.duplicate_in_ledger },
  { header: 'Not checked', kind: 'integer', value: (r) => r.counts.not_checked },
  { header: 'Ledger total', kind: 'amount', value: (r) => formatMinor(r.ledgerTotalMinor, r.currency) },
  { header: 'Service total', kind: 'amount', value: (r) => formatMinor(r.serviceTotalMinor, r.currency) },
  { header: 'Service refunds', kind: 'amount', value: (r) => formatMinor(r.serviceRefundsMinor, r.currency) },
  { header: 'Difference', kind: 'amount', value: (r) => formatMinor(r.differenceMinor, r.currency) },
  { header: 'Explained', kind: 'amount', value: (r) => formatMinor(r.explainedMinor, r.currency) },
  { header: 'Unexplained', kind: 'amount', value: (r) => formatMinor(r.unexplainedMinor, r.currency) },
  { header: 'Generated', kind: 'timestamp', value: (r) => r.generatedAt },
];

/** The report CSV text. */
export function reportCsv(items: Iterable<ReconItem>, opts?: CsvOptions): string {
  return writeCsv(REPORT_COLUMNS, items, { zone: UTC_ZONE, ...opts });
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
    { zone: UTC_ZONE, ...opts },
  );
}
