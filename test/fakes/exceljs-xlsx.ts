/**
 * The Excel writer as it was before exports streamed (issue 30): the whole sheet built in exceljs and
 * packed with JSZip at the end. Kept only as the reference the streaming writer is compared with, cell
 * by cell (test/unit/csv/xlsx-stream.test.ts); nothing ships it.
 */
import { wallClock } from '../../shared/domain/zones';
import { type CsvColumn, headerText } from '../../shared/csv/writer';
import { type XlsxOptions, xlsxCellText } from '../../shared/csv/xlsx';

const UTC = { iana: 'UTC', label: 'UTC' };
const PLAIN_DECIMAL = /^-?\d+(?:\.(\d+))?$/;
const ISO_DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
/** How a `date` column's days show. */
const DAY_FORMAT = 'yyyy-mm-dd';

type CellValue = string | number | Date | null;
type Raw = string | number | null | undefined;
/** An exceljs style, shared by every cell that has it. */
type Style = { numFmt?: string };

/**
 * Style objects shared by every cell with the same number format. exceljs files a cell's style into the
 * workbook once per distinct style object it sees (serialising it to compare), so one object per
 * format, not one per cell, is what keeps a 100k-row sheet from filing 100k styles.
 */
class Styles {
  private readonly byFormat = new Map<string, Style>();
  readonly none: Style = {};
  of(numFmt: string | undefined): Style {
    if (numFmt === undefined) return this.none;
    let style = this.byFormat.get(numFmt);
    if (!style) this.byFormat.set(numFmt, (style = { numFmt }));
    return style;
  }
}

/** What one column's cells hold and their style, decided once per export by the column's kind. */
type CellWriter = (raw: Raw) => { value: CellValue; style: Style };

function cellWriter(
  kind: CsvColumn<unknown>['kind'],
  iana: string,
  styles: Styles,
  dateFormat: string,
): CellWriter {
  const empty = { value: null, style: styles.none };
  const text = (raw: string | number, style: Style) => ({ value: xlsxCellText(String(raw)), style });
  switch (kind) {
    case 'amount': {
      // The decimal string says how many decimals the currency has: one format per count.
      const formats = new Map<number, Style>();
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return empty;
        const m = PLAIN_DECIMAL.exec(String(raw));
        if (!m) return text(raw, styles.none);
        const decimals = m[1]?.length ?? 0;
        let style = formats.get(decimals);
        if (!style) {
          style = styles.of(decimals ? `#,##0.${'0'.repeat(decimals)}` : '#,##0');
          formats.set(decimals, style);
        }
        return { value: Number(raw), style };
      };
    }
    case 'integer':
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return empty;
        return { value: /^-?\d+$/.test(String(raw)) ? Number(raw) : String(raw), style: styles.none };
      };
    case 'timestamp': {
      const style = styles.of(dateFormat);
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return empty;
        const ms = Date.parse(String(raw));
        if (Number.isNaN(ms)) return text(raw, style);
        // Excel dates have no zone: write the chosen zone's wall clock (as if it were UTC, which is how
        // exceljs turns a Date into a serial number).
        const w = wallClock(ms, iana);
        return { value: new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)), style };
      };
    }
    case 'date': {
      const style = styles.of(DAY_FORMAT);
      return (raw) => {
        if (raw === null || raw === undefined || raw === '') return empty;
        const m = ISO_DAY.exec(String(raw));
        if (!m) return text(raw, styles.none);
        return { value: new Date(Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]))), style };
      };
    }
    case 'id': {
      const style = styles.of('@');
      return (raw) =>
        raw === null || raw === undefined || raw === '' ? { value: null, style } : text(raw, style);
    }
    case 'text':
      return (raw) => (raw === null || raw === undefined || raw === '' ? empty : text(raw, styles.none));
  }
}

/** A column width in characters: the header or the longest of the first rows, within reason. */
function widthOf(header: string, samples: readonly CellValue[], kind: string): number {
  const longest = samples.reduce<number>((n, v) => {
    const len = v instanceof Date ? 19 : typeof v === 'number' ? String(v).length + 4 : (v ?? '').length;
    return Math.max(n, len);
  }, 0);
  return Math.min(
    60,
    Math.max(header.length + 3, longest + 2, kind === 'timestamp' ? 20 : kind === 'date' ? 12 : 8),
  );
}

/**
 * Deflate level for the zip: 1 (fastest) instead of JSZip's default 6. On a 100k-row sheet level 6 spends
 * about a second more for a file about a fifth smaller; an export is saved locally, so time wins.
 */
const ZIP = { compression: 'DEFLATE', compressionOptions: { level: 1 } } as const;

const PROGRESS_EVERY = 5000;

/** Writes rows as a one-sheet .xlsx workbook; resolves to the file's bytes. */
export async function writeXlsxWithExceljs<Row>(
  columns: readonly CsvColumn<Row>[],
  rows: Iterable<Row>,
  opts: XlsxOptions,
): Promise<Uint8Array> {
  const mod = await import('exceljs');
  const Excel = ('default' in mod ? mod.default : mod) as typeof import('exceljs');
  const zone = opts.zone ?? UTC;
  const dateFormat = opts.dateFormat ?? 'yyyy-mm-dd hh:mm:ss';
  const workbook = new Excel.Workbook();
  workbook.creator = 'Refund Desk';
  const sheet = workbook.addWorksheet(xlsxCellText(opts.sheetName).slice(0, 31) || 'Export', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const headers = columns.map((c) => xlsxCellText(headerText(c, zone)));
  sheet.addRow(headers).font = { bold: true };
  const styles = new Styles();
  const n = columns.length;
  const values = columns.map((c) => c.value);
  const writers = columns.map((c) => cellWriter(c.kind, zone.iana, styles, dateFormat));
  // Column formats apply to cells typed later in Excel; set before the rows so exceljs does not walk
  // every cell of the column to copy them.
  columns.forEach((c, i) => {
    if (c.kind === 'id') sheet.getColumn(i + 1).numFmt = '@';
    if (c.kind === 'timestamp') sheet.getColumn(i + 1).numFmt = dateFormat;
    if (c.kind === 'date') sheet.getColumn(i + 1).numFmt = DAY_FORMAT;
  });
  const samples: CellValue[][] = columns.map(() => []);
  const rowValues = new Array<CellValue>(n);
  const rowStyles = new Array<Style>(n);
  let count = 0;
  for (const row of rows) {
    for (let i = 0; i < n; i += 1) {
      const cell = writers[i]!(values[i]!(row));
      rowValues[i] = cell.value;
      rowStyles[i] = cell.style;
    }
    const added = sheet.addRow(rowValues);
    for (let i = 0; i < n; i += 1) added.getCell(i + 1).style = rowStyles[i]!;
    if (count < 200) rowValues.forEach((v, i) => samples[i]?.push(v));
    count += 1;
    if (count % PROGRESS_EVERY === 0) opts.onProgress?.(count);
  }
  opts.onProgress?.(count);
  columns.forEach((c, i) => {
    sheet.getColumn(i + 1).width = widthOf(headers[i] ?? '', samples[i] ?? [], c.kind);
  });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, columns.length) } };
  const buffer = await workbook.xlsx.writeBuffer({ zip: ZIP });
  return new Uint8Array(buffer as ArrayBuffer);
}
