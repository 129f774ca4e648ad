import { formatMinor } from '../../../../shared/domain/money';
import type { CsvColumn } from '../../../../shared/csv/writer';
import { formatLocalShort, money } from './format';
import type { ListRow } from './list-row';

/**
 * One column of the transactions list: what the table shows, how it sorts, and what it exports. The
 * table, the column chooser, sorting and the CSV export all read this one list, so a visible column is
 * always the exported column.
 */
export interface ColumnSpec {
  id: string;
  header: string;
  width: number;
  align?: 'right';
  /** Columns a person may not hide (the row would be unidentifiable). */
  required?: boolean;
  sortValue: (r: ListRow) => string | number | undefined;
  display: (r: ListRow) => string;
  csv: CsvColumn<ListRow>[];
}

const amountCsv = (header: string, pick: (r: ListRow) => number): CsvColumn<ListRow> => ({
  header,
  kind: 'amount',
  value: (r) => formatMinor(pick(r), r.currency),
});

export const COLUMNS: readonly ColumnSpec[] = [
  {
    id: 'transactionNo',
    header: 'Transaction no.',
    width: 170,
    required: true,
    sortValue: (r) => r.transactionNo,
    display: (r) => r.transactionNo,
    csv: [{ header: 'transactionNo', kind: 'id', value: (r) => r.transactionNo }],
  },
  {
    id: 'reference',
    header: 'Reference',
    width: 170,
    sortValue: (r) => r.reference,
    display: (r) => r.reference ?? '',
    csv: [{ header: 'reference', kind: 'id', value: (r) => r.reference }],
  },
  {
    id: 'createdAt',
    header: 'Created',
    width: 132,
    sortValue: (r) => r.createdAt,
    display: (r) => formatLocalShort(r.createdAt),
    csv: [{ header: 'createdAt', kind: 'timestamp', value: (r) => r.createdAt }],
  },
  {
    id: 'paidAt',
    header: 'Paid',
    width: 132,
    sortValue: (r) => r.paidAt,
    display: (r) => formatLocalShort(r.paidAt),
    csv: [{ header: 'paidAt', kind: 'timestamp', value: (r) => r.paidAt }],
  },
  {
    id: 'status',
    header: 'Status',
    width: 76,
    sortValue: (r) => r.status,
    display: (r) => r.status,
    csv: [{ header: 'status', kind: 'text', value: (r) => r.status }],
  },
  {
    id: 'vendor',
    header: 'Vendor',
    width: 86,
    sortValue: (r) => r.vendor,
    display: (r) => r.vendor ?? '',
    csv: [{ header: 'vendor', kind: 'text', value: (r) => r.vendor }],
  },
  {
    id: 'amount',
    header: 'Amount',
    width: 105,
    align: 'right',
    // Common scale: 10.00 USD and 1000 JPY compare by their numbers, as a person reading them would.
    sortValue: (r) => r.amountScaled,
    display: (r) => money(r.amountMinor, r.currency),
    csv: [amountCsv('amount', (r) => r.amountMinor)],
  },
  {
    id: 'currency',
    header: 'Currency',
    width: 66,
    sortValue: (r) => r.currency,
    display: (r) => r.currency,
    csv: [{ header: 'currency', kind: 'text', value: (r) => r.currency }],
  },
  {
    id: 'refunded',
    header: 'Refunded',
    width: 100,
    align: 'right',
    sortValue: (r) => r.refundedMinor,
    display: (r) => (r.refundedMinor ? money(r.refundedMinor, r.currency) : ''),
    csv: [amountCsv('refundedAmount', (r) => r.refundedMinor)],
  },
  {
    id: 'remaining',
    header: 'Refundable',
    width: 100,
    align: 'right',
    sortValue: (r) => r.remainingMinor,
    display: (r) => (r.status === 'success' ? money(r.remainingMinor, r.currency) : '—'),
    csv: [amountCsv('remainingRefundable', (r) => r.remainingMinor)],
  },
  {
    id: 'settleCurrency',
    header: 'Settles in',
    width: 90,
    sortValue: (r) => r.settleCurrency,
    display: (r) => r.settleCurrency ?? '',
    csv: [{ header: 'settleCurrency', kind: 'text', value: (r) => r.settleCurrency }],
  },
  {
    id: 'fetchedAt',
    header: 'Fetched',
    width: 132,
    sortValue: (r) => r.fetchedAt,
    display: (r) => formatLocalShort(r.fetchedAt),
    csv: [{ header: 'fetchedAt', kind: 'timestamp', value: (r) => r.fetchedAt }],
  },
];

export const COLUMN_IDS = COLUMNS.map((c) => c.id);

/** The columns shown, in list order. Required columns cannot be hidden. */
export function visibleColumns(hidden: readonly string[]): ColumnSpec[] {
  const h = new Set(hidden);
  return COLUMNS.filter((c) => c.required || !h.has(c.id));
}

/**
 * The CSV columns for the visible columns. Amounts are plain decimals, so a `currency` column is added
 * when amounts are exported without it; every export ends with an explicit `timezone` column because
 * timestamps are written as UTC instants.
 */
export function exportColumns(visible: readonly ColumnSpec[]): CsvColumn<ListRow>[] {
  const out = visible.flatMap((c) => c.csv);
  const hasAmount = visible.some((c) => c.csv.some((x) => x.kind === 'amount'));
  if (hasAmount && !visible.some((c) => c.id === 'currency')) {
    out.push({ header: 'currency', kind: 'text', value: (r) => r.currency });
  }
  out.push({ header: 'timezone', kind: 'text', value: () => 'UTC' });
  return out;
}
