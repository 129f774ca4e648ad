/**
 * Batch files kept as Excel workbooks (.xlsx), read into the CSV reader's records (shared/csv/parser.ts)
 * so mapping, amounts and row accounting are the CSV's. Deliberately small and with the same shape as
 * the reconciliation's workbook reader being built beside it (i28: shared/csv/xlsx-read.ts, `openWorkbook`
 * → sheets, preferred, read(sheet)): when that lands, this module is replaced by it.
 *
 * exceljs reads the format (loaded on demand). Each cell becomes the text it shows: numbers at Excel's
 * 15 significant digits as a plain decimal with a dot (so 12.345 stays 12.345 and is refused for USD,
 * never rounded), dates as their day, formulas as their result, rich text as its text.
 */
import type { CellValue, Worksheet } from 'exceljs';
import type { CsvProblem, CsvRecord, ParsedCsv } from '../csv/parser';
import { escapeUnsafeText } from '../domain/text';
import { BATCH_MAX_ROWS, batchColumnsProblem, batchRowsProblem, BATCH_MAX_COLUMNS } from './limits';
import { batchMappingIssues, guessBatchMapping } from './mapping';

/** A workbook that cannot be read as a batch: a sentence that says why and what to do. */
export class WorkbookError extends Error {
  override name = 'WorkbookError';
}

/** A zip archive (an .xlsx is one): "PK\x03\x04". */
export const isZip = (bytes: Uint8Array) =>
  bytes[0] === 0x50 && bytes[1] === 0x4b && bytes[2] === 0x03 && bytes[3] === 0x04;

/** The most a workbook's parts may unpack to: far above a 50,000-row list, far below a "zip bomb". */
const MAX_UNPACKED = 300 * 1024 * 1024;

/** Σ uncompressed sizes from the zip's central directory, or undefined when it has none (not a zip). */
function unpackedSize(bytes: Uint8Array): number | undefined {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  for (let at = bytes.length - 22; at >= Math.max(0, bytes.length - 22 - 65_535); at -= 1) {
    if (view.getUint32(at, true) !== 0x06054b50) continue;
    const entries = view.getUint16(at + 10, true);
    let p = view.getUint32(at + 16, true);
    let total = 0;
    for (let i = 0; i < entries; i += 1) {
      if (p + 46 > bytes.length || view.getUint32(p, true) !== 0x02014b50) return undefined;
      total += view.getUint32(p + 24, true);
      p += 46 + view.getUint16(p + 28, true) + view.getUint16(p + 30, true) + view.getUint16(p + 32, true);
    }
    return total;
  }
  return undefined;
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** A number as Excel shows it in a General cell, as a plain decimal ("1e-7" → "0.0000001"). */
export function workbookNumberText(n: number): string {
  if (!Number.isFinite(n)) return String(n);
  // Whole numbers of 16+ digits lost their last ones in Excel: written as Excel shows them
  // ("6.2393E+17"), so such a row is refused as a shortened id, never taken for another payment.
  if (Number.isInteger(n) && Math.abs(n) >= 1e15) {
    const [mantissa = '', exp = '0'] = n.toExponential(5).split('e');
    const e = Number(exp);
    return `${mantissa.replace(/\.?0+$/, '')}E${e < 0 ? '-' : '+'}${pad(Math.abs(e))}`;
  }
  const text = String(Number(n.toPrecision(15)));
  if (!text.includes('e')) return text === '-0' ? '0' : text;
  return n.toFixed(20).replace(/\.?0+$/, '');
}

function cellText(v: CellValue): string {
  if (v === null || v === undefined) return '';
  if (typeof v === 'number') return workbookNumberText(v);
  if (typeof v === 'string') return v;
  if (typeof v === 'boolean') return v ? 'TRUE' : 'FALSE';
  if (v instanceof Date)
    return Number.isNaN(v.getTime())
      ? ''
      : `${pad(v.getUTCFullYear(), 4)}-${pad(v.getUTCMonth() + 1)}-${pad(v.getUTCDate())}`;
  if ('richText' in v) return v.richText.map((r) => r.text).join('');
  if ('error' in v) return v.error;
  if ('formula' in v || 'sharedFormula' in v) return cellText((v.result ?? null) as CellValue);
  if ('hyperlink' in v) return cellText(v.text as CellValue);
  return '';
}

/** A row's cells from column 1 to its last non-empty one. */
function rowCells(values: readonly CellValue[]): string[] {
  const cells: string[] = [];
  let last = 0;
  for (let c = 1; c < values.length; c += 1) {
    const text = cellText(values[c]);
    cells.push(text);
    if (text.trim() !== '') last = c;
  }
  cells.length = last;
  return cells;
}

export interface OpenWorkbook {
  /** Sheets with at least one cell, in the workbook's order. */
  sheets: string[];
  /** The sheet read when none is chosen: the first whose header maps to a batch, else the first. */
  preferred: string;
  read(sheet?: string): ParsedCsv & { sheet: string };
}

function headerOf(ws: Worksheet): string[] {
  let header: string[] = [];
  ws.eachRow({ includeEmpty: false }, (row) => {
    if (header.length > 0) return;
    const cells = rowCells(row.values as CellValue[]);
    if (cells.some((c) => c.trim() !== '')) header = cells.map((h) => escapeUnsafeText(h.trim()));
  });
  return header;
}

function readSheet(ws: Worksheet): ParsedCsv & { sheet: string } {
  if (ws.actualRowCount - 1 > BATCH_MAX_ROWS)
    throw new WorkbookError(batchRowsProblem(ws.actualRowCount - 1) ?? '');
  const rows: CsvRecord[] = [];
  const problems: CsvProblem[] = [];
  let headers: string[] | undefined;
  let headerLine = 1;
  ws.eachRow({ includeEmpty: false }, (row, line) => {
    const cells = rowCells(row.values as CellValue[]);
    if (cells.length === 0 || cells.every((c) => c.trim() === '')) return;
    if (cells.length > BATCH_MAX_COLUMNS)
      throw new WorkbookError(batchColumnsProblem(cells.length, line) ?? '');
    if (!headers) {
      headers = cells.map((h) => escapeUnsafeText(h.trim()));
      headerLine = line;
      return;
    }
    if (cells.length > headers.length) {
      problems.push({
        line,
        message: `has ${cells.length} fields, the header has ${headers.length}`,
        cause: 'field_count',
        cells,
      });
      return;
    }
    // Empty cells at a row's end are not written in a workbook: the row has the header's width.
    while (cells.length < headers.length) cells.push('');
    rows.push({ line, cells });
  });
  return {
    headers: headers ?? [],
    rows,
    problems,
    delimiter: ';',
    encoding: 'utf-8',
    headerLine,
    dataRows: rows.length + problems.length,
    sheet: escapeUnsafeText(ws.name),
  };
}

/** Opens an .xlsx workbook's bytes; refuses, with what to do, what cannot be read as one. */
export async function openWorkbook(bytes: Uint8Array): Promise<OpenWorkbook> {
  const unpacked = unpackedSize(bytes);
  const notBook = new WorkbookError(
    'This file is a zip archive but not an Excel workbook (.xlsx) that can be read. Open it in Excel and save it as .xlsx, or as “CSV UTF-8”, and use that file.',
  );
  if (unpacked === undefined) throw notBook;
  if (unpacked > MAX_UNPACKED)
    throw new WorkbookError(
      `This workbook unpacks to ${Math.round(unpacked / (1024 * 1024)).toLocaleString('en-US')} MB, more than a refund batch can be. Keep only the batch's sheet and columns, and use that.`,
    );
  const mod = await import('exceljs');
  const Excel = ('default' in mod ? mod.default : mod) as typeof import('exceljs');
  const workbook = new Excel.Workbook();
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
  const fits = withData.findIndex((ws) => {
    const header = headerOf(ws);
    return batchMappingIssues(guessBatchMapping(header), header).length === 0;
  });
  const preferred = sheets[Math.max(0, fits)]!;
  return {
    sheets,
    preferred,
    read(sheet = preferred) {
      const i = sheets.indexOf(sheet);
      if (i === -1)
        throw new WorkbookError(
          `The workbook has no sheet “${sheet.slice(0, 60)}” with anything in it; its sheets: ${sheets
            .slice(0, 20)
            .map((n) => `“${n}”`)
            .join(', ')}.`,
        );
      return readSheet(withData[i]!);
    },
  };
}
