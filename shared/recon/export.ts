/**
 * The reconciliation report and summary column sets (CSV and Excel). Headers are words people read;
 * the outcome's code has its own column for scripts. Written only through the shared writers.
 * Timestamps are written in the zone given (UTC when none, e.g. from the CLI) and headers name it.
 */
import { type CsvColumn, type CsvOptions, writeCsv } from '../csv/writer';
import { transactionStatusLabel } from '../domain/labels';
import { type Currency, isKnownCurrency } from '../domain/currencies';
import { formatMinor } from '../domain/money';
import { UTC_ZONE, type Zone } from '../domain/zones';
import { OUTCOME_LABELS, itemCurrency, type ReconItem } from './match';
import type { RunFacts } from './run';
import { dataSourceLabel } from './statement';
import type { CurrencySummary } from './summary';

// A run stored by an earlier version may name a currency this app no longer handles: its figures are
// written as minor units, saying so, never with guessed decimals. The summary's line without a currency
// (unreadable rows) has no amounts: its zeros are written as 0.
const amount = (minor: number | undefined, currency: Currency | '' | undefined): string => {
  if (minor === undefined || currency === undefined) return '';
  if (currency === '') return minor === 0 ? '0' : '';
  return isKnownCurrency(currency) ? formatMinor(minor, currency) : `${minor} (minor units)`;
};

/** The single currency of a row's difference, or the ledger's when the currencies differ. */
function differenceOf(item: ReconItem): { amountMinor: number; currency: Currency } | undefined {
  const currency = itemCurrency(item);
  if (item.deltas.length === 0)
    return item.outcome === 'matched' || item.outcome === 'unreadable' || !currency
      ? undefined
      : { amountMinor: 0, currency };
  return item.deltas.find((d) => d.currency === currency) ?? item.deltas[0];
}

/**
 * The ledger's date of a row as a calendar day (a date cell in Excel, ISO in CSV) when it was read; as
 * written when the row could not be read (then it may be no date at all).
 */
const ledgerDay = (r: ReconItem) => (r.ledger ? (r.ledger.day ?? r.ledger.date) : r.unusable?.fields?.date);

/**
 * The ledger's row as written: the row itself when it could not be read; for a read row, its date as
 * the ledger wrote it when that is not already the day shown ("Date: 19.11.2026").
 */
function asWritten(r: ReconItem): string | undefined {
  if (r.unusable) return r.unusable.raw;
  const date = r.ledger?.date;
  return date && date !== r.ledger?.day ? `Date: ${date}` : undefined;
}

/** The row's detail, led by why it was matched by reference when its transaction number was unusable. */
function detailOf(r: ReconItem): string {
  const note = r.ledger?.keyNote;
  if (!note) return r.detail;
  const said = `${note.charAt(0).toUpperCase()}${note.slice(1)}.`;
  return r.detail ? `${said} ${r.detail}` : said;
}

/** A ledger cell of a row: read, or as written when the row could not be read. */
const ledgerText = (r: ReconItem, f: 'transactionNo' | 'reference' | 'currency') =>
  r.ledger ? r.ledger[f] : r.unusable?.fields?.[f];

const MATCHED_BY: Readonly<Record<string, string>> = {
  transactionNo: 'Transaction no.',
  reference: 'Reference',
};

/** The zone timestamps are written in, as the `Time zone` column and the timestamp headers name it. */
type ExportZone = Pick<Zone, 'iana' | 'label'>;

/**
 * Report: one line per item, exceptions and matches alike. The set is append-only: columns are added at
 * the end, none removed (`Time zone` stays beside the zoned times for scripts that read it).
 */
export function reportColumns(zone: ExportZone = UTC_ZONE): readonly CsvColumn<ReconItem>[] {
  return [
    { header: 'Line', kind: 'integer', value: (r) => r.line },
    { header: 'Outcome', kind: 'text', value: (r) => OUTCOME_LABELS[r.outcome] },
    { header: 'Outcome code', kind: 'text', value: (r) => r.outcome },
    {
      header: 'Matched by',
      kind: 'text',
      value: (r) => (r.matchedBy ? (MATCHED_BY[r.matchedBy] ?? r.matchedBy) : undefined),
    },
    {
      header: 'Transaction no.',
      kind: 'id',
      value: (r) => ledgerText(r, 'transactionNo') ?? r.service?.transactionNo,
    },
    { header: 'Reference', kind: 'id', value: (r) => ledgerText(r, 'reference') ?? r.service?.reference },
    {
      header: 'Ledger amount',
      kind: 'amount',
      value: (r) => amount(r.ledger?.amountMinor, r.ledger?.currency),
    },
    { header: 'Ledger currency', kind: 'text', value: (r) => ledgerText(r, 'currency') },
    {
      header: 'Ledger status',
      kind: 'text',
      value: (r) => r.ledger && (r.ledger.statusText ?? r.ledger.status),
    },
    { header: 'Ledger date', kind: 'date', value: ledgerDay },
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
    { header: 'Time zone', kind: 'text', value: (r) => (r.service?.paidAt ? zone.label : '') },
    { header: 'Detail', kind: 'text', value: detailOf },
    { header: 'Cause', kind: 'text', value: (r) => r.unusable?.cause },
    { header: 'Ledger row as written', kind: 'text', value: asWritten },
    { header: 'Created at service', kind: 'timestamp', value: (r) => r.service?.createdAt },
    { header: 'Service data source', kind: 'text', value: (r) => r.service?.source },
    { header: 'Fetched from service', kind: 'timestamp', value: (r) => r.service?.fetchedAt },
    { header: 'Day offset', kind: 'integer', value: (r) => r.dayOffset },
    { header: 'Refund transaction no.', kind: 'id', value: (r) => r.refund?.refundTransactionNo },
    {
      header: 'Refund amount',
      kind: 'amount',
      value: (r) => amount(r.refund?.amountMinor, r.refund?.currency),
    },
    { header: 'Refund status', kind: 'text', value: (r) => r.refund?.status },
    { header: 'Refund created', kind: 'timestamp', value: (r) => r.refund?.createdAt },
  ];
}

export interface SummaryExportRow extends CurrencySummary {
  generatedAt: string;
  /** The run the summary is of (absent for summaries written without a run record). */
  run?: RunFacts;
  statement?: string;
}

/** Summary: one line per currency (append-only, like the report). */
export function summaryColumns(zone: ExportZone = UTC_ZONE): readonly CsvColumn<SummaryExportRow>[] {
  return [
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
    { header: 'Ledger total', kind: 'amount', value: (r) => amount(r.ledgerTotalMinor, r.currency) },
    { header: 'Service total', kind: 'amount', value: (r) => amount(r.serviceTotalMinor, r.currency) },
    {
      header: 'Service refunds',
      kind: 'amount',
      value: (r) => amount(r.serviceRefundsMinor, r.currency),
    },
    { header: 'Difference', kind: 'amount', value: (r) => amount(r.differenceMinor, r.currency) },
    { header: 'Explained', kind: 'amount', value: (r) => amount(r.explainedMinor, r.currency) },
    { header: 'Unexplained', kind: 'amount', value: (r) => amount(r.unexplainedMinor, r.currency) },
    { header: 'Generated', kind: 'timestamp', value: (r) => r.generatedAt },
    { header: 'Time zone', kind: 'text', value: () => zone.label },
    { header: 'Date differs', kind: 'integer', value: (r) => r.counts.date_mismatch },
    { header: 'Missing in ledger', kind: 'integer', value: (r) => r.counts.missing_in_ledger },
    { header: 'Refund missing in ledger', kind: 'integer', value: (r) => r.counts.refund_missing_in_ledger },
    { header: 'Unreadable', kind: 'integer', value: (r) => r.counts.unreadable },
    { header: 'Run id', kind: 'text', value: (r) => r.run?.runId },
    { header: 'Profile', kind: 'text', value: (r) => r.run?.profileName },
    { header: 'Period from', kind: 'date', value: (r) => r.run?.options.period?.from },
    { header: 'Period to', kind: 'date', value: (r) => r.run?.options.period?.to },
    {
      header: 'Period days',
      kind: 'text',
      value: (r) =>
        r.run && (r.run.options.days === 'service' ? 'service UTC+8' : `local ${r.run.options.timeZone}`),
    },
    { header: 'Date tolerance (days)', kind: 'integer', value: (r) => r.run?.options.dateToleranceDays },
    { header: 'Data source', kind: 'text', value: (r) => r.run && dataSourceLabel(r.run) },
    { header: 'Run status', kind: 'text', value: (r) => r.run?.endedAs },
    { header: 'Compared how', kind: 'text', value: (r) => r.statement },
  ];
}

/** The column sets with UTC times (the CLI's, and the documented layout). */
export const REPORT_COLUMNS = reportColumns(UTC_ZONE);
export const SUMMARY_COLUMNS = summaryColumns(UTC_ZONE);

/** The report CSV text; times in `opts.zone`, UTC when none. */
export function reportCsv(items: Iterable<ReconItem>, opts?: CsvOptions): string {
  const zone = opts?.zone ?? UTC_ZONE;
  return writeCsv(reportColumns(zone), items, { ...opts, zone });
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
  const zone = csv.zone ?? UTC_ZONE;
  return writeCsv(
    summaryColumns(zone),
    currencies.map((c) => ({ ...c, generatedAt, ...extra })),
    { ...csv, zone },
  );
}
