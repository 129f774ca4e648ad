/**
 * The one CSV writer every export uses (transactions view, refunds, audit log, reconciliation report
 * and summary). RFC 4180: comma separator, CRLF line ends, fields quoted when they hold a comma, quote,
 * CR or LF, quotes doubled. UTF-8, with an optional BOM so Excel detects the encoding.
 *
 * Column kinds decide how a value is written:
 * - `id`: service ids (18+ digits) and references. In `excel` style an all-digit id is written as the
 *   constant formula ="297553638300708562" so Excel keeps it as text instead of 2.97554E+17; `plain`
 *   style writes the digits bare for machine consumers. Our parser unwraps both.
 * - `amount`: a plain decimal string (from formatMinor) beside a currency column; a negative amount
 *   stays numeric ("-12.30") — the only cell allowed to start with '-'.
 * - `timestamp`: ISO-8601 UTC instants; exports carry an explicit timezone column.
 * - `text` / `integer`: as is, after the formula-injection guard.
 * Formula-injection guard: any text cell starting with =, +, -, @, TAB or CR is prefixed with an
 * apostrophe so a spreadsheet shows it as text instead of evaluating it.
 */
export type CsvKind = 'id' | 'amount' | 'timestamp' | 'text' | 'integer';

export interface CsvColumn<Row> {
  header: string;
  kind: CsvKind;
  value: (row: Row) => string | number | null | undefined;
}

export interface CsvOptions {
  /** Prepend a UTF-8 byte-order mark (Excel on Windows needs it to read UTF-8). Default true. */
  bom?: boolean;
  /** `excel` wraps all-digit ids as ="…" so they survive Excel; `plain` writes them bare. Default excel. */
  idStyle?: 'excel' | 'plain';
}

// Leading apostrophes count too, so a value that already starts with '= is escaped once more and
// unwrapCell can restore every original exactly.
const DANGEROUS_START = /^'*[=+\-@\t\r]/;
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

function cell(kind: CsvKind, raw: string | number | null | undefined, idStyle: 'excel' | 'plain'): string {
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
    case 'text':
      return guardFormula(text);
  }
}

/** Renders one row (no line end) — for streaming writers. */
export function csvRow<Row>(columns: readonly CsvColumn<Row>[], row: Row, opts: CsvOptions = {}): string {
  const idStyle = opts.idStyle ?? 'excel';
  return columns.map((c) => quote(cell(c.kind, c.value(row), idStyle))).join(',');
}

/** The header line (no line end). */
export function csvHeader<Row>(columns: readonly CsvColumn<Row>[]): string {
  return columns.map((c) => quote(guardFormula(c.header))).join(',');
}

/** Writes a whole CSV document: optional BOM, header row, rows, CRLF after every line. */
export function writeCsv<Row>(
  columns: readonly CsvColumn<Row>[],
  rows: Iterable<Row>,
  opts: CsvOptions = {},
): string {
  const parts: string[] = [(opts.bom ?? true) ? BOM + csvHeader(columns) : csvHeader(columns)];
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
