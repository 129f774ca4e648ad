/**
 * The one CSV writer every export uses (transactions view, refunds, audit log, reconciliation report
 * and summary). RFC 4180: comma separator, CRLF line ends, fields quoted when they hold a comma, quote,
 * CR or LF, quotes doubled. UTF-8, with an optional BOM so Excel detects the encoding.
 *
 * Column kinds decide how a value is written:
 * - `id`: service ids (18+ digits) and references. By default (`plain`) an all-digit id is written as
 *   bare digits: a CSV is for machines (an ERP import, pandas, a database loader), and people who open
 *   files in Excel get the .xlsx export, where ids are text cells. The legacy `excel` style wraps digits
 *   as the constant formula ="297553638300708562"; only `cli export` still asks for it. Our parser
 *   unwraps both.
 * - `amount`: a plain decimal string (from formatMinor) beside a currency column; a negative amount
 *   stays numeric ("-12.30") — the only cell allowed to start with '-'.
 * - `timestamp`: ISO-8601 instants. With `zone`, written in that zone with their offset
 *   ("2025-03-01T14:05:06+08:00") and the header names the zone ("Created (UTC+8)").
 * - `text` / `integer`: as is, after the formula-injection guard.
 * Formula-injection guard: any text cell starting with =, +, -, @ (or their full-width forms ＝＋－＠,
 * which spreadsheets in East Asian locales also evaluate), TAB or CR is prefixed with an apostrophe so
 * a spreadsheet shows it as text instead of evaluating it.
 */
import { isoInZone } from '../domain/zones';

export type CsvKind = 'id' | 'amount' | 'timestamp' | 'text' | 'integer';

export interface CsvColumn<Row> {
  header: string;
  kind: CsvKind;
  value: (row: Row) => string | number | null | undefined;
}

export interface CsvOptions {
  /** Prepend a UTF-8 byte-order mark (Excel on Windows needs it to read UTF-8). Default true. */
  bom?: boolean;
  /** `plain` (default) writes all-digit ids bare; legacy `excel` wraps them as ="…". */
  idStyle?: 'excel' | 'plain';
  /** Write timestamps in this zone (ISO-8601 with offset) and name it in their headers. */
  zone?: { iana: string; label: string };
}

// Leading apostrophes count too, so a value that already starts with '= is escaped once more and
// unwrapCell can restore every original exactly.
const DANGEROUS_START = /^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/;
const PLAIN_DECIMAL = /^-?\d+(\.\d+)?$/;
const DIGITS = /^\d+$/;
export const BOM = '\uFEFF';
const EOL = '\r\n';

function quote(field: string): string {
  return /[",\r\n]/.test(field) ? `"${field.replace(/"/g, '""')}"` : field;
}

/** Neutralises a cell a spreadsheet would evaluate as a formula. */
export function guardFormula(text: string): string {
  return DANGEROUS_START.test(text) ? `'${text}` : text;
}

function cell(
  kind: CsvKind,
  raw: string | number | null | undefined,
  idStyle: 'excel' | 'plain',
  zone: CsvOptions['zone'],
): string {
  if (raw === null || raw === undefined) return '';
  const text = String(raw);
  switch (kind) {
    case 'amount':
    case 'integer':
      // Numbers written by our own formatters pass untouched; anything else is treated as text.
      return PLAIN_DECIMAL.test(text) ? text : guardFormula(text);
    case 'id':
      if (DIGITS.test(text)) return idStyle === 'excel' ? `="${text}"` : text;
      return guardFormula(text);
    case 'timestamp':
      return guardFormula(zone && text ? isoInZone(text, zone.iana) : text);
    case 'text':
      return guardFormula(text);
  }
}

/** A column's header as written: timestamp headers name the zone their values are in. */
export function headerText(column: { header: string; kind: CsvKind }, zone: CsvOptions['zone']): string {
  return column.kind === 'timestamp' && zone ? `${column.header} (${zone.label})` : column.header;
}

/** Renders one row (no line end) — for streaming writers. */
export function csvRow<Row>(columns: readonly CsvColumn<Row>[], row: Row, opts: CsvOptions = {}): string {
  const idStyle = opts.idStyle ?? 'plain';
  return columns.map((c) => quote(cell(c.kind, c.value(row), idStyle, opts.zone))).join(',');
}

/** The header line (no line end). */
export function csvHeader<Row>(columns: readonly CsvColumn<Row>[], opts: CsvOptions = {}): string {
  return columns.map((c) => quote(guardFormula(headerText(c, opts.zone)))).join(',');
}

/** Writes a whole CSV document: optional BOM, header row, rows, CRLF after every line. */
export function writeCsv<Row>(
  columns: readonly CsvColumn<Row>[],
  rows: Iterable<Row>,
  opts: CsvOptions = {},
): string {
  const header = csvHeader(columns, opts);
  const parts: string[] = [(opts.bom ?? true) ? BOM + header : header];
  for (const row of rows) parts.push(csvRow(columns, row, opts));
  return parts.join(EOL) + EOL;
}

/** Reverses the writer's id wrapping and formula guard for a single cell (used by our own readers). */
export function unwrapCell(text: string): string {
  const m = /^="(\d+)"$/.exec(text);
  if (m) return m[1]!;
  if (DANGEROUS_START.test(text) && text.startsWith("'")) return text.slice(1);
  return text;
}
