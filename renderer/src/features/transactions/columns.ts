import { formatMinor } from '../../../../shared/domain/money';
import type { CsvColumn } from '../../../../shared/csv/writer';
import {
  REFUNDED_STATE_LABELS,
  statusWithRefunds,
  transactionStatusLabel,
  vendorLabel,
  wasPaid,
} from '../../../../shared/domain/labels';
import { refundBlocker } from '../../../../shared/domain/transaction';
import type { Formatters } from '../preferences/format';
import type { ListRow } from '../../db/owner';
import type { ListStats } from '../../db/owner';
import { type UncertainRefunds, uncertainWords } from './open-refunds';

/**
 * What one cell shows. `none` marks the one kind of empty cell the list has: there is no value (not
 * paid, not refundable, not given by the service). It is drawn as "—" and read out as "none".
 */
export interface CellText {
  text: string;
  /** A unit after the value, drawn smaller (the currency code after an amount). */
  unit?: string;
  /** Tooltip: the service's code behind a label, or why there is no value. */
  title?: string;
  none?: boolean;
  /** The value is only an upper bound (a refund of this payment has an unknown outcome): said in words too. */
  uncertain?: boolean;
}

/**
 * One column of the transactions list: what the table shows, how it sorts, how wide it needs to be,
 * and what it exports. The table, the column chooser, sorting and the exports all read this one list,
 * so a visible column is always an exported column.
 */
export interface ColumnSpec {
  id: string;
  header: string;
  /** A time column: its header names the zone times are shown in. */
  isTime?: boolean;
  align?: 'right';
  /** Columns a person may not hide (the row would be unidentifiable). */
  required?: boolean;
  /** Drawn in bold (statuses): measured in bold so the widest label fits. */
  bold?: boolean;
  /** Kept in view while the list scrolls sideways (the id on the left, the money on the right). */
  pinned?: 'left' | 'right';
  sortValue: (r: ListRow) => string | number | undefined;
  /** Sort within groups first (money: by currency), so values in different units are never ranked together. */
  sortGroup?: (r: ListRow) => string;
  /** `uncertain`: this desk's refunds of the row whose outcome nobody knows yet (open-refunds.ts). */
  display: (r: ListRow, f: Formatters, uncertain?: UncertainRefunds) => CellText;
  /**
   * The widest texts this column will show for the list's rows, from what the list knows of them
   * (list-stats.ts: distinct statuses and vendors, the longest ids, each currency's largest amounts),
   * gathered once; sizing measures only these.
   */
  widest: (stats: ListStats, f: Formatters) => string[];
  csv: CsvColumn<ListRow>[];
}

/** Money sorts within its currency; one function, so the list ranks currencies once for every money column. */
const currencyGroup = (r: ListRow) => r.currency;

const CURRENCY_CSV: CsvColumn<ListRow> = { header: 'Currency', kind: 'text', value: (r) => r.currency };

const NONE = (title: string): CellText => ({ text: '—', title, none: true });

const amountCsv = (header: string, pick: (r: ListRow) => number | undefined): CsvColumn<ListRow> => ({
  header,
  kind: 'amount',
  value: (r) => {
    const v = pick(r);
    return v === undefined ? undefined : formatMinor(v, r.currency);
  },
});

/** The largest amount per currency, formatted: the widest number each currency can show. */
function widestAmounts(
  stats: ListStats,
  f: Formatters,
  pick: (w: { amount: number; refunded: number; remaining: number }) => number,
): string[] {
  return [...stats.widestMoney].map(([currency, w]) => f.amount(pick(w), currency));
}

/** Every status label the rows show (a status with each refund state seen beside it). */
const statusLabels = (stats: ListStats) => [
  ...new Set(
    [...stats.statuses].flatMap(([status, refunded]) =>
      [...refunded].map((r) => statusWithRefunds(transactionStatusLabel(status), r)),
    ),
  ),
];

// A late-December evening with wide digits: the longest a date-time can render in any format chosen.
const WIDE_TIME = '2025-12-28T23:58:58.000Z';

const time = (
  id: string,
  header: string,
  pick: (r: ListRow) => string | undefined,
  why: (r: ListRow) => string,
): ColumnSpec => ({
  id,
  header,
  isTime: true,
  sortValue: pick,
  display: (r, f) => {
    const v = pick(r);
    return v ? { text: f.dateTime(v) } : NONE(why(r));
  },
  widest: (_rows, f) => [f.dateTime(WIDE_TIME)],
  csv: [{ header, kind: 'timestamp', value: pick }],
});

/** A refundable amount exists: a successful payment whose refunds can all be counted in its currency. */
const refundable = (r: ListRow) => r.status === 'success' && !refundBlocker(r);

/** Paid time only for payments that were paid: a failed or closed payment has none, whatever the server sent. */
const paidAt = (r: ListRow) => (wasPaid(r.status) ? r.paidAt : undefined);

export const COLUMNS: readonly ColumnSpec[] = [
  {
    id: 'transactionNo',
    header: 'Transaction no.',
    required: true,
    pinned: 'left',
    sortValue: (r) => r.transactionNo,
    display: (r) => ({ text: r.transactionNo }),
    widest: (s) => [s.longestNo],
    csv: [{ header: 'Transaction no.', kind: 'id', value: (r) => r.transactionNo }],
  },
  {
    id: 'reference',
    header: 'Reference',
    sortValue: (r) => r.reference,
    display: (r) => (r.reference ? { text: r.reference } : NONE('No merchant reference')),
    widest: (s) => [s.longestReference],
    csv: [{ header: 'Reference', kind: 'id', value: (r) => r.reference }],
  },
  time(
    'createdAt',
    'Created',
    (r) => r.createdAt,
    () => 'The service gave no creation time',
  ),
  time('paidAt', 'Paid', paidAt, (r) =>
    wasPaid(r.status) ? 'The service gave no payment time' : 'Not paid',
  ),
  {
    id: 'status',
    header: 'Status',
    bold: true,
    sortValue: (r) => `${r.status} ${r.refunded ?? ''}`,
    display: (r) => ({
      text: statusWithRefunds(transactionStatusLabel(r.status), r.refunded),
      title: `Service status: ${r.status}${r.refunded && r.refunded !== 'not_refunded' ? ` · derived from its refunds: ${REFUNDED_STATE_LABELS[r.refunded]}` : ''}`,
    }),
    widest: statusLabels,
    csv: [
      { header: 'Status', kind: 'text', value: (r) => transactionStatusLabel(r.status) },
      { header: 'Status code', kind: 'text', value: (r) => r.status },
      {
        header: 'Refund state',
        kind: 'text',
        value: (r) => (r.refunded ? REFUNDED_STATE_LABELS[r.refunded] : undefined),
      },
    ],
  },
  {
    id: 'vendor',
    header: 'Vendor',
    sortValue: (r) => vendorLabel(r.vendor),
    display: (r) =>
      r.vendor
        ? { text: vendorLabel(r.vendor) ?? r.vendor, title: `Service code: ${r.vendor}` }
        : NONE('The service did not say'),
    widest: (s) => [...s.vendors].map((v) => vendorLabel(v) ?? v),
    csv: [
      { header: 'Vendor', kind: 'text', value: (r) => vendorLabel(r.vendor) },
      { header: 'Vendor code', kind: 'text', value: (r) => r.vendor },
    ],
  },
  {
    id: 'settleCurrency',
    header: 'Settles in',
    sortValue: (r) => r.settleCurrency,
    display: (r) => (r.settleCurrency ? { text: r.settleCurrency } : NONE('The service did not say')),
    widest: () => ['USD'],
    csv: [{ header: 'Settles in', kind: 'text', value: (r) => r.settleCurrency }],
  },
  time(
    'fetchedAt',
    'Fetched',
    (r) => r.fetchedAt,
    () => 'Never fetched',
  ),
  {
    id: 'amount',
    header: 'Amount',
    align: 'right',
    pinned: 'right',
    sortValue: (r) => r.amountMinor,
    sortGroup: currencyGroup,
    // The amount carries its currency code, so it reads right even with the Currency column hidden.
    display: (r, f) => ({ text: f.amount(r.amountMinor, r.currency), unit: r.currency }),
    widest: (s, f) => widestAmounts(s, f, (w) => w.amount).map((t) => `${t} MMM`),
    csv: [amountCsv('Amount', (r) => r.amountMinor)],
  },
  {
    id: 'currency',
    header: 'Currency',
    pinned: 'right',
    sortValue: (r) => r.currency,
    display: (r) => ({ text: r.currency }),
    widest: () => ['MMM'],
    csv: [CURRENCY_CSV],
  },
  {
    id: 'refunded',
    header: 'Refunded',
    align: 'right',
    pinned: 'right',
    sortValue: (r) => r.refundedMinor,
    sortGroup: currencyGroup,
    display: (r, f) => ({
      text: f.amount(r.refundedMinor, r.currency),
      title: 'Refunds that succeeded or are pending at the service',
    }),
    widest: (s, f) => widestAmounts(s, f, (w) => w.refunded),
    csv: [amountCsv('Refunded', (r) => r.refundedMinor)],
  },
  {
    id: 'remaining',
    header: 'Refundable',
    align: 'right',
    pinned: 'right',
    sortValue: (r) => (refundable(r) ? r.remainingMinor : undefined),
    sortGroup: currencyGroup,
    display: (r, f, uncertain) =>
      refundable(r)
        ? uncertain
          ? {
              // At most what the cache says: the unknown refund may have moved money meanwhile.
              text: `≤ ${f.amount(r.remainingMinor, r.currency)}`,
              uncertain: true,
              title: `Uncertain: ${uncertainWords(uncertain, (m) => f.amountCode(m, r.currency))} — check it in Refunds. Between ${f.amount(Math.max(0, r.remainingMinor - uncertain.amountMinor), r.currency)} and ${f.amount(r.remainingMinor, r.currency)} remains.`,
            }
          : { text: f.amount(r.remainingMinor, r.currency) }
        : NONE(
            r.status === 'success'
              ? 'Cannot be computed safely (a refund in another currency, or not a payment)'
              : 'Only successful payments can be refunded',
          ),
    // Room for the "≤ " of an uncertain amount.
    widest: (s, f) => widestAmounts(s, f, (w) => w.remaining).map((t) => `≤ ${t}`),
    csv: [amountCsv('Refundable', (r) => (refundable(r) ? r.remainingMinor : undefined))],
  },
];

export const COLUMN_IDS = COLUMNS.map((c) => c.id);

/** The header a column shows and exports: time columns name their zone ("Created (UTC+8)"). */
export function columnHeader(c: ColumnSpec, f: Pick<Formatters, 'zoneLabel'>): string {
  return c.isTime ? `${c.header} (${f.zoneLabel})` : c.header;
}

/** The columns shown, in list order. Required columns cannot be hidden. */
export function visibleColumns(hidden: readonly string[]): ColumnSpec[] {
  const h = new Set(hidden);
  return COLUMNS.filter((c) => c.required || !h.has(c.id));
}

/**
 * The export columns for the visible columns: the same columns, with the service's code beside each
 * label. Amounts are plain numbers, so a Currency column is added when amounts are exported without it;
 * time columns are written in the chosen zone and name it (the writers do that).
 */
export function exportColumns(visible: readonly ColumnSpec[]): CsvColumn<ListRow>[] {
  const out = visible.flatMap((c) => c.csv);
  const hasAmount = out.some((c) => c.kind === 'amount');
  if (hasAmount && !visible.some((c) => c.id === 'currency'))
    out.splice(out.findIndex((c) => c.kind === 'amount') + 1, 0, CURRENCY_CSV);
  return out;
}
