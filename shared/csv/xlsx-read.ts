/**
 * Ledgers as accountants keep them: an Excel workbook (.xlsx), read into the same records as a CSV file
 * (shared/csv/parser.ts), so mapping, format detection, row accounting and messages are the CSV's.
 * exceljs reads the file format (loaded on demand, like the writer); this module decides what each cell
 * says as text:
 * - a date cell → its day "2026-11-19" (with the time when it has one: "2026-11-19 14:05:00");
 * - a number → a plain decimal with a dot ("1234.5"), at Excel's own precision of 15 significant digits
 *   (0.1 + 0.2 is 0.3, as Excel shows it), and marked as a number (CsvRecord.numbers) so an amount is
 *   read as that number whatever the text cells' decimal separator is — and refused when it has more
 *   decimals than its currency (12.345 USD), never rounded;
 * - a whole number of 16 or more digits → as Excel shows it in a General cell ("6.2393E+17"): Excel keeps
 *   15 significant digits, so such an id has lost its last ones, and the reader names it as shortened,
 *   exactly as for a CSV that Excel saved;
 * - text, rich text, a formula's result, a hyperlink's text, TRUE/FALSE, an error (#N/A) → as shown.
 * Line numbers are the sheet's row numbers; blank rows are skipped; the first non-blank row is the header.
 */
import type { CellValue, Workbook, Worksheet } from 'exceljs';
import { escapeUnsafeText } from '../domain/text';
import { RECON_MAX_COLUMNS, RECON_MAX_ROWS, ledgerColumnsProblem, ledgerRowsProblem } from '../recon/limits';
import { guessMapping, mappingIssues } from '../recon/mapping';
import { fieldCountProblem, type CsvProblem, type CsvRecord, type ParsedCsv } from './parser';

/** A workbook that cannot be read as a ledger: a sentence that says why and what to do. */
export class WorkbookError extends Error {
  override name = 'WorkbookError';
}

/** A zip archive (an .xlsx is one): "PK\x03\x04". */
export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/**
 * The most bytes a workbook's parts may unpack to. A sheet of 250,000 rows of a 30-column ledger is
 * about 300 MB of XML; a zip of a few megabytes can claim gigabytes (a "zip bomb"), refused before a
 * byte of it is unpacked.
 */
export const XLSX_MAX_UNPACKED = 600 * 1024 * 1024;

/**
 * What the zip's central directory says: the entries' names and what they unpack to, in bytes (a ZIP64
 * entry counts as 4 GiB: nothing a ledger needs). Undefined when the directory cannot be found (not a
 * zip, or a damaged or cut one).
 */
export function zipDirectory(bytes: Uint8Array): { names: string[]; unpacked: number } | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const utf8 = new TextDecoder();
  // The end-of-central-directory record: 22 bytes plus a comment of up to 65,535.
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at -= 1) {
    if (view.getUint32(at, true) !== 0x06054b50) continue;
    const entries = view.getUint16(at + 10, true);
    let p = view.getUint32(at + 16, true);
    let unpacked = 0;
    const names: string[] = [];
    for (let i = 0; i < entries; i += 1) {
      if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) return undefined;
      unpacked += view.getUint32(p + 24, true);
      const nameLength = view.getUint16(p + 28, true);
      names.push(utf8.decode(bytes.subarray(p + 46, p + 46 + nameLength)));
      p += 46 + nameLength + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    }
    return { names, unpacked };
  }
  return undefined;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A date cell's day, with its time when it has one (exceljs gives the cell's wall clock as UTC). */
function dateText(d: Date): string {
  if (Number.isNaN(d.getTime())) return '';
  const day = `${pad(d.getUTCFullYear(), 4)}-${pad(d.getUTCMonth() + 1)}-${pad(d.getUTCDate())}`;
  const h = d.getUTCHours();
  const m = d.getUTCMinutes();
  const s = d.getUTCSeconds();
  return h || m || s ? `${day} ${pad(h)}:${pad(m)}:${pad(s)}` : day;
}

/** A number's shortest text ("1e-7" included) as a plain decimal: "0.0000001". */
function plainDecimal(n: number): string {
  const text = String(n);
  const e = text.indexOf('e');
  if (e === -1) return text;
  const negative = text.startsWith('-');
  const mantissa = text.slice(negative ? 1 : 0, e);
  const exp = Number(text.slice(e + 1));
  const digits = mantissa.replace('.', '');
  const point = (mantissa.indexOf('.') === -1 ? mantissa.length : mantissa.indexOf('.')) + exp;
  const body =
    point <= 0
      ? `0.${'0'.repeat(-point)}${digits}`
      : point >= digits.length
        ? `${digits}${'0'.repeat(point - digits.length)}`
        : `${digits.slice(0, point)}.${digits.slice(point)}`;
  return `${negative ? '-' : ''}${body}`;
}

/** 10^15: whole numbers from here on have 16 digits or more, past Excel's 15 significant ones. */
const EXCEL_DIGITS_LIMIT = 1e15;

/** A whole number as Excel's General format shows it in a standard column: "6.2393E+17". */
function excelScientific(n: number): string {
  const [mantissa = '', exp = '0'] = n.toExponential(5).split('e');
  const e = Number(exp);
  return `${mantissa.replace(/\.?0+$/, '')}E${e < 0 ? '-' : '+'}${pad(Math.abs(e))}`;
}

/** A number cell as text (see the module comment). */
export function excelNumberText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  if (Number.isInteger(n) && Math.abs(n) >= EXCEL_DIGITS_LIMIT) return excelScientific(n);
  const text = plainDecimal(Number(n.toPrecision(15)));
  return text === '-0' ? '0' : text;
}

/** A cell's text, and whether it is a number. */
function cellText(v: CellValue): { text: string; number?: true } {
  if (v === null || v === undefined) return { text: '' };
  if (typeof v === 'number') return { text: excelNumberText(v), number: true };
  if (typeof v === 'string') return { text: v };
  if (typeof v === 'boolean') return { text: v ? 'TRUE' : 'FALSE' };
  if (v instanceof Date) return { text: dateText(v) };
  if ('richText' in v) return { text: v.richText.map((r) => r.text).join('') };
  if ('error' in v) return { text: v.error };
  if ('formula' in v || 'sharedFormula' in v) return cellText((v.result ?? null) as CellValue);
  if ('hyperlink' in v) return cellText(v.text as CellValue);
  return { text: '' };
}

/** Rows with number cells in the same columns share one list of them (100k rows, a handful of shapes). */
class NumberColumns {
  private readonly shapes = new Map<string, readonly number[]>();
  of(columns: number[]): readonly number[] {
    const key = columns.join(',');
    let shared = this.shapes.get(key);
    if (!shared) this.shapes.set(key, (shared = Object.freeze(columns)));
    return shared;
  }
}

/** A row's cells from column 1 to its last non-empty one, as text; the number columns (0-based). */
function rowCells(values: readonly CellValue[]): { cells: string[]; numbers: number[] } {
  const cells: string[] = [];
  const numbers: number[] = [];
  let last = 0;
  // exceljs: values[0] is unused; a sparse array from column 1.
  for (let c = 1; c < values.length; c += 1) {
    const { text, number } = cellText(values[c]);
    cells.push(text);
    if (number) numbers.push(c - 1);
    if (text.trim() !== '') last = c;
  }
  cells.length = last;
  return { cells, numbers: numbers.filter((i) => i < last) };
}

/** A workbook opened for reading a ledger: its sheets that hold anything, and a reader for one of them. */
export interface OpenWorkbook {
  /** Sheets with at least one cell, in the workbook's order. */
  sheets: string[];
  /** The sheet to read when none is chosen: the first whose header row fits (a ledger's), else the first. */
  preferred: string;
  /** Reads one sheet into records (the preferred one when none is named). */
  read(sheet?: string): ParsedCsv & { sheet: string };
}

const sheetList = (names: readonly string[]) => names.map((n) => `“${n}”`).join(', ');

/** The first non-blank row's cells: the header a sheet would have. */
function headerOf(ws: Worksheet): string[] {
  let header: string[] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    if (header.length > 0) return;
    const { cells } = rowCells(row.values as CellValue[]);
    if (cells.some((c) => c.trim() !== '')) header = cells.map((h) => h.trim());
  });
  return header;
}

/** Reads one sheet within the limits a run takes (rows, columns), as the CSV reader does. */
function readSheet(ws: Worksheet): ParsedCsv & { sheet: string } {
  // Rows with anything in them, counted by exceljs before a cell is turned to text (the header is one).
  if (ws.actualRowCount - 1 > RECON_MAX_ROWS)
    throw new WorkbookError(ledgerRowsProblem(ws.actualRowCount - 1) ?? '');
  const rows: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  const shapes = new NumberColumns();
  let headers: string[] | undefined;
  let headerLine = 1;
  ws.eachRow({ includeEmpty: false }, (row, line) => {
    const { cells, numbers } = rowCells(row.values as CellValue[]);
    if (cells.length === 0) return;
    if (cells.length > RECON_MAX_COLUMNS)
      throw new WorkbookError(ledgerColumnsProblem(cells.length, line) ?? '');
    if (!headers) {
      // As the CSV reader does: what the stored-text rule refuses is escaped visibly (⟨U+200B⟩).
      headers = cells.map((h) => escapeUnsafeText(h.trim()));
      headerLine = line;
      return;
    }
    if (cells.length > headers.length) {
      problems.push(fieldCountProblem(line, cells, headers.length));
      return;
    }
    // Empty cells at the end of a row are not written in a workbook: the row has the header's width.
    while (cells.length < headers.length) cells.push('');
    rows.push(numbers.length > 0 ? { line, cells, numbers: shapes.of(numbers) } : { line, cells });
  });
  return {
    headers: headers ?? [],
    rows,
    problems,
    // A workbook has neither: its text is Unicode, and an unusable row's cells are shown joined by ";".
    delimiter: ';',
    encoding: 'utf-8',
    headerLine,
    dataRows: rows.length + problems.length,
    sheet: ws.name,
  };
}

/**
 * Opens an .xlsx workbook's bytes. Refuses, with what to do, a zip that is not a workbook, one that
 * unpacks to more than a ledger can be, and a workbook with no cell in any sheet.
 */
export async function openWorkbook(
  bytes: Uint8Array,
  /** Whether a sheet's header row is what the caller reads (default: a ledger's); picks `preferred`. */
  fitsHeader: (header: string[]) => boolean = (header) =>
    mappingIssues(guessMapping(header), header).length === 0,
): Promise<OpenWorkbook> {
  const zip = zipDirectory(bytes);
  if (zip === undefined)
    throw new WorkbookError(
      'This file looks like a zip archive but cannot be opened as one (is it complete?). Save the workbook again in Excel as .xlsx, or as “CSV UTF-8”, and import that file.',
    );
  const notBook = new WorkbookError(
    'This file is a zip archive but not an Excel workbook (.xlsx) that can be read. Open it in Excel and save it as .xlsx, or as “CSV UTF-8”, and import that file.',
  );
  // A document of another kind in a zip (a Word file, an archive of CSVs) has no workbook part.
  if (!zip.names.includes('xl/workbook.xml')) throw notBook;
  if (zip.unpacked > XLSX_MAX_UNPACKED)
    throw new WorkbookError(
      `This workbook unpacks to ${Math.round(zip.unpacked / (1024 * 1024)).toLocaleString('en-US')} MB, more than a ledger a reconciliation takes (at most ${RECON_MAX_ROWS.toLocaleString('en-US')} rows). Split it by period, or keep only the ledger's sheet and columns, and import that.`,
    );
  const mod = await import('exceljs');
  const Excel = ('default' in mod ? mod.default : mod) as typeof import('exceljs');
  const workbook: Workbook = new Excel.Workbook();
  try {
    await workbook.xlsx.load(
      bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer,
    );
  } catch {
    throw notBook;
  }
  const withData = workbook.worksheets.filter((ws) => ws.actualRowCount > 0);
  if (withData.length === 0)
    throw new WorkbookError('The workbook is empty: none of its sheets has a cell with anything in it.');
  const sheets = withData.map((ws) => escapeUnsafeText(ws.name));
  const fits = withData.find((ws) => fitsHeader(headerOf(ws)));
  const preferred = escapeUnsafeText((fits ?? withData[0]!).name);
  return {
    sheets,
    preferred,
    read(sheet = preferred) {
      const i = sheets.indexOf(sheet);
      if (i === -1)
        throw new WorkbookError(
          `The workbook has no sheet “${sheet.slice(0, 60)}” with anything in it; its sheets: ${sheetList(sheets.slice(0, 20))}.`,
        );
      return { ...readSheet(withData[i]!), sheet: sheets[i]! };
    },
  };
}
