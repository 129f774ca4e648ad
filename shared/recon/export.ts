/**
 * The reconciliation report and summary CSV column sets. Stable and documented (README
 * "Reconciliation"): add columns only at the end, never rename or reorder, so finance's spreadsheets
 * and scripts keep working. Written only through the shared writer.
 */
import { type CsvColumn, type CsvOptions, writeCsv } from '../csv/writer';
import { formatMinor } from '../domain/money';
import { itemCurrency, type ReconItem } from './match';
import type { RunFacts } from './run';
import { dataSourceLabel } from './statement';
import type { CurrencySummary } from './summary';

const amount = (minor: number | undefined, currency: string | undefined) =>
  minor === undefined || currency === undefined ? '' : formatMinor(minor, currency);

/** Every timestamp we write is a UTC instant; the column says so explicitly. */
export const EXPORT_TIMEZONE = 'UTC';

/** The single currency of a row's difference, or the ledger's when the currencies differ. */
function differenceOf(item: ReconItem): { amountMinor: number; currency: string } | undefined {
  const currency = itemCurrency(item);
  if (item.deltas.length === 0)
    return item.outcome === 'matched' || item.outcome === 'unreadable' || !currency
      ? undefined
      : { amountMinor: 0, currency };
  return item.deltas.find((d) => d.currency === currency) ?? item.deltas[0];
}

/** A ledger cell of a row: read, or as written when the row could not be read. */
const ledgerText = (r: ReconItem, f: 'transactionNo' | 'reference' | 'currency' | 'date') =>
  r.ledger ? r.ledger[f] : r.unusable?.fields?.[f];

/** Report: one line per ledger row, exceptions and matches alike. */
export const REPORT_COLUMNS: readonly CsvColumn<ReconItem>[] = [
  { header: 'line', kind: 'integer', value: (r) => r.line },
  { header: 'outcome', kind: 'text', value: (r) => r.outcome },
  { header: 'matchedBy', kind: 'text', value: (r) => r.matchedBy },
  {
    header: 'transactionNo',
    kind: 'id',
    value: (r) => ledgerText(r, 'transactionNo') ?? r.service?.transactionNo,
  },
  { header: 'reference', kind: 'id', value: (r) => ledgerText(r, 'reference') ?? r.service?.reference },
  { header: 'ledgerAmount', kind: 'amount', value: (r) => amount(r.ledger?.amountMinor, r.ledger?.currency) },
  { header: 'ledgerCurrency', kind: 'text', value: (r) => ledgerText(r, 'currency') },
  {
    header: 'ledgerStatus',
    kind: 'text',
    value: (r) => r.ledger && (r.ledger.statusText ?? r.ledger.status),
  },
  { header: 'ledgerDate', kind: 'text', value: (r) => ledgerText(r, 'date') },
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
  { header: 'cause', kind: 'text', value: (r) => r.unusable?.cause },
  { header: 'ledgerRowAsWritten', kind: 'text', value: (r) => r.unusable?.raw },
  { header: 'serviceCreatedAt', kind: 'timestamp', value: (r) => r.service?.createdAt },
  { header: 'serviceDataSource', kind: 'text', value: (r) => r.service?.source },
  { header: 'serviceFetchedAt', kind: 'timestamp', value: (r) => r.service?.fetchedAt },
  { header: 'dayOffset', kind: 'integer', value: (r) => r.dayOffset },
  { header: 'refundTransactionNo', kind: 'id', value: (r) => r.refund?.refundTransactionNo },
  { header: 'refundAmount', kind: 'amount', value: (r) => amount(r.refund?.amountMinor, r.refund?.currency) },
  { header: 'refundStatus', kind: 'text', value: (r) => r.refund?.status },
  { header: 'refundCreatedAt', kind: 'timestamp', value: (r) => r.refund?.createdAt },
];

export interface SummaryExportRow extends CurrencySummary {
  generatedAt: string;
  /** The run the summary is of (absent for summaries written without a run record). */
  run?: RunFacts;
  statement?: string;
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
  { header: 'dateMismatch', kind: 'integer', value: (r) => r.counts.date_mismatch },
  { header: 'missingInLedger', kind: 'integer', value: (r) => r.counts.missing_in_ledger },
  { header: 'refundMissingInLedger', kind: 'integer', value: (r) => r.counts.refund_missing_in_ledger },
  { header: 'unreadable', kind: 'integer', value: (r) => r.counts.unreadable },
  { header: 'runId', kind: 'text', value: (r) => r.run?.runId },
  { header: 'profile', kind: 'text', value: (r) => r.run?.profileName },
  { header: 'periodFrom', kind: 'text', value: (r) => r.run?.options.period?.from },
  { header: 'periodTo', kind: 'text', value: (r) => r.run?.options.period?.to },
  {
    header: 'periodDays',
    kind: 'text',
    value: (r) =>
      r.run && (r.run.options.days === 'service' ? 'service UTC+8' : `local ${r.run.options.timeZone}`),
  },
  { header: 'dateToleranceDays', kind: 'integer', value: (r) => r.run?.options.dateToleranceDays },
  { header: 'dataSource', kind: 'text', value: (r) => r.run && dataSourceLabel(r.run) },
  { header: 'runStatus', kind: 'text', value: (r) => r.run?.endedAs },
  { header: 'comparedHow', kind: 'text', value: (r) => r.statement },
];

/** The report CSV text. */
export function reportCsv(items: Iterable<ReconItem>, opts?: CsvOptions): string {
  return writeCsv(REPORT_COLUMNS, items, opts);
}

/**
 * The summary CSV text; `generatedAt` is a UTC ISO instant. With a run record, every line also names
 * the run, its period, data source and the statement of what was compared.
 */
export function summaryCsv(
  currencies: readonly CurrencySummary[],
  generatedAt: string,
  opts?: CsvOptions & { run?: RunFacts; statement?: readonly string[] },
): string {
  const { run, statement, ...csv } = opts ?? {};
  const extra = {
    ...(run ? { run } : {}),
    ...(statement ? { statement: statement.join(' ') } : {}),
  };
  return writeCsv(
    SUMMARY_COLUMNS,
    currencies.map((c) => ({ ...c, generatedAt, ...extra })),
    csv,
  );
}
