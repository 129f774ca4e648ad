import type { CsvColumn } from '../../shared/csv/writer';

/** A row of the export tests: one column of each kind an export writes. */
export interface ExportRow {
  id: string;
  amount: string;
  at: string;
  note: string;
}

export const EXPORT_ROW_COLUMNS: CsvColumn<ExportRow>[] = [
  { header: 'Transaction no.', kind: 'id', value: (r) => r.id },
  { header: 'Amount', kind: 'amount', value: (r) => r.amount },
  { header: 'Created', kind: 'timestamp', value: (r) => r.at },
  { header: 'Note', kind: 'text', value: (r) => r.note },
];
