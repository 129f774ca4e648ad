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
  display: (r: ListRow, f: Formatters) => CellText;
  /** The widest texts this column will show for these rows (sizing reads only these). */
  widest: (rows: readonly ListRow[], f: Formatters) => string[];
  csv: CsvColumn<ListRow>[];
}

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

/** The longest values of a text field (a scan of lengths, no formatting). */
function longest(rows: readonly ListRow[], pick: (r: ListRow) => string | undefined): string[] {
  let best = '';
  for (const r of rows) {
    const v = pick(r);
    if (v && v.length > best.length) best = v;
  }
  return [best];
}

/** The largest amount per currency, formatted: the widest number each currency can show. */
function widestAmounts(rows: readonly ListRow[], f: Formatters, pick: (r: ListRow) => number): string[] {
  const max = new Map<string, number>();
  for (const r of rows) {
    const v = Math.abs(pick(r));
    if (v > (max.get(r.currency) ?? -1)) max.set(r.currency, v);
  }
  return [...max].map(([currency, v]) => f.amount(v, currency));
}

const distinctLabels = (rows: readonly ListRow[], label: (r: ListRow) => string | undefined) => [
  ...new Set(rows.map(label).filter((x): x is string => Boolean(x))),
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
    widest: (rows) => longest(rows, (r) => r.transactionNo),
    csv: [{ header: 'Transaction no.', kind: 'id', value: (r) => r.transactionNo }],
  },
  {
    id: 'reference',
    header: 'Reference',
    sortValue: (r) => r.reference,
    display: (r) => (r.reference ? { text: r.reference } : NONE('No merchant reference')),
    widest: (rows) => longest(rows, (r) => r.reference),
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
    widest: (rows) =>
      distinctLabels(rows, (r) => statusWithRefunds(transactionStatusLabel(r.status), r.refunded)),
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
    widest: (rows) => distinctLabels(rows, (r) => vendorLabel(r.vendor)),
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
    sortGroup: (r) => r.currency,
    // The amount carries its currency code, so it reads right even with the Currency column hidden.
    display: (r, f) => ({ text: f.amount(r.amountMinor, r.currency), unit: r.currency }),
    widest: (rows, f) => widestAmounts(rows, f, (r) => r.amountMinor).map((t) => `${t} MMM`),
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
    sortGroup: (r) => r.currency,
    display: (r, f) => ({
      text: f.amount(r.refundedMinor, r.currency),
      title: 'Refunds that succeeded or are pending at the service',
    }),
    widest: (rows, f) => widestAmounts(rows, f, (r) => r.refundedMinor),
    csv: [amountCsv('Refunded', (r) => r.refundedMinor)],
  },
  {
    id: 'remaining',
    header: 'Refundable',
    align: 'right',
    pinned: 'right',
    sortValue: (r) => (refundable(r) ? r.remainingMinor : undefined),
    sortGroup: (r) => r.currency,
    display: (r, f) =>
      refundable(r)
        ? { text: f.amount(r.remainingMinor, r.currency) }
        : NONE(
            r.status === 'success'
              ? 'Cannot be computed safely (a refund in another currency, or not a payment)'
              : 'Only successful payments can be refunded',
          ),
    widest: (rows, f) => widestAmounts(rows, f, (r) => r.remainingMinor),
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
