/**
 * The Excel export: the same column sets as the CSV writer, written as a real .xlsx workbook for the
 * people who open exports in a spreadsheet. exceljs does the file format; this module only decides what
 * each cell is:
 * - `id` → a text cell (18–20 digits stay digits; no ="…" trick needed), column formatted as Text (@);
 * - `amount` → a number with its currency's decimals (the decimal string from formatMinor says how
 *   many: "6798000" IDR → #,##0, "12.30" USD → #,##0.00);
 * - `integer` → a number;
 * - `timestamp` → a real date, the wall clock of the chosen zone, with the zone in the header;
 * - `text` → a text cell (typed as a string, so Excel never evaluates it as a formula).
 * The header row is bold, frozen and carries filters.
 *
 * exceljs is loaded on demand: it is large, and only an export needs it. It runs under the renderer's
 * CSP (no eval, no workers from blob: URLs), which write-excel-file's zip step does not.
 */
import { wallClock } from '../domain/zones';
import { type CsvColumn, type CsvOptions, headerText } from './writer';

export interface XlsxOptions {
  sheetName: string;
  /** The zone timestamps are written in (and named in headers). UTC when absent. */
  zone?: NonNullable<CsvOptions['zone']>;
  /** Excel number format for date-times, e.g. "yyyy-mm-dd hh:mm:ss". */
  dateFormat?: string;
}

export const XLSX_MIME = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';
const UTC = { iana: 'UTC', label: 'UTC' };
const PLAIN_DECIMAL = /^-?\d+(?:\.(\d+))?$/;

type CellValue = string | number | Date | null;

/** What one cell holds and, for amounts, its number format. */
function cellOf(
  kind: CsvColumn<unknown>['kind'],
  raw: string | number | null | undefined,
  iana: string,
): { value: CellValue; numFmt?: string } {
  if (raw === null || raw === undefined || raw === '') return { value: null };
  const text = String(raw);
  switch (kind) {
    case 'amount': {
      const m = PLAIN_DECIMAL.exec(text);
      if (!m) return { value: text };
      const decimals = m[1]?.length ?? 0;
      return { value: Number(text), numFmt: decimals ? `#,##0.${'0'.repeat(decimals)}` : '#,##0' };
    }
    case 'integer':
      return { value: /^-?\d+$/.test(text) ? Number(text) : text };
    case 'timestamp': {
      const ms = Date.parse(text);
      if (Number.isNaN(ms)) return { value: text };
      // Excel dates have no zone: write the chosen zone's wall clock (as if it were UTC, which is how
      // exceljs turns a Date into a serial number).
      const w = wallClock(ms, iana);
      return { value: new Date(Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second)) };
    }
    case 'id':
    case 'text':
      return { value: text };
  }
}

/** A column width in characters: the header or the longest of the first rows, within reason. */
function widthOf(header: string, samples: readonly CellValue[], kind: string): number {
  const longest = samples.reduce<number>((n, v) => {
    const len = v instanceof Date ? 19 : typeof v === 'number' ? String(v).length + 4 : (v ?? '').length;
    return Math.max(n, len);
  }, 0);
  return Math.min(60, Math.max(header.length + 3, longest + 2, kind === 'timestamp' ? 20 : 8));
}

/** Writes rows as a one-sheet .xlsx workbook; resolves to the file's bytes. */
export async function writeXlsx<Row>(
  columns: readonly CsvColumn<Row>[],
  rows: Iterable<Row>,
  opts: XlsxOptions,
): Promise<Uint8Array> {
  const mod = await import('exceljs');
  const Excel = ('default' in mod ? mod.default : mod) as typeof import('exceljs');
  const zone = opts.zone ?? UTC;
  const workbook = new Excel.Workbook();
  workbook.creator = 'Refund Desk';
  const sheet = workbook.addWorksheet(opts.sheetName.slice(0, 31) || 'Export', {
    views: [{ state: 'frozen', ySplit: 1 }],
  });
  const headers = columns.map((c) => headerText(c, zone));
  const samples: CellValue[][] = columns.map(() => []);
  sheet.addRow(headers).font = { bold: true };
  let count = 0;
  for (const row of rows) {
    const cells = columns.map((c) => cellOf(c.kind, c.value(row), zone.iana));
    const added = sheet.addRow(cells.map((x) => x.value));
    cells.forEach((x, i) => {
      if (x.numFmt) added.getCell(i + 1).numFmt = x.numFmt;
      if (count < 200) samples[i]?.push(x.value);
    });
    count += 1;
  }
  columns.forEach((c, i) => {
    const col = sheet.getColumn(i + 1);
    col.width = widthOf(headers[i] ?? '', samples[i] ?? [], c.kind);
    if (c.kind === 'id') col.numFmt = '@';
    if (c.kind === 'timestamp') col.numFmt = opts.dateFormat ?? 'yyyy-mm-dd hh:mm:ss';
  });
  sheet.autoFilter = { from: { row: 1, column: 1 }, to: { row: 1, column: Math.max(1, columns.length) } };
  const buffer = await workbook.xlsx.writeBuffer();
  return new Uint8Array(buffer as ArrayBuffer);
}
