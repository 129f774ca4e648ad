/**
 * The one CSV reader: merchant ledgers, and our own exports read back. Pure (no DOM, no Node APIs) so
 * the renderer runs it in a Web Worker and the CLI runs it in plain Node — the same function.
 *
 * Parsing itself is papaparse (quotes, quoted newlines, delimiter guessing). This file adds what
 * finance files need on top: byte-level encoding detection, 1-based line numbers for every record
 * (so a problem says "line 4182", counting quoted newlines), blank lines skipped, our own `="…"` id
 * wrapping and formula guard undone, and per-row problems listed while good rows are kept.
 * Every cell stays a string: `dynamicTyping` is off, so a 20-digit id can never become a float.
 *
 * Every data row is accounted for: `rows.length + problems.length === dataRows` (blank lines are not
 * data rows). Line ends may be mixed (CRLF, LF, CR) within one file; each counts as one line.
 */
import Papa from 'papaparse';
import { escapeUnsafeText } from '../domain/text';
import { unwrapCell } from './writer';

export type CsvEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';
export type CsvDelimiter = ',' | ';' | '\t';

export interface DecodedText {
  text: string;
  encoding: CsvEncoding;
  hadBom: boolean;
}

/** One record as read: its first physical line (1-based, header is line 1) and its cells. */
export interface CsvRecord {
  line: number;
  cells: string[];
  /**
   * From a workbook: the columns (0-based) whose cells Excel stored as numbers, written in `cells` as
   * plain decimals with a dot ("1234.5"). Such an amount is read as that number whatever the file's
   * decimal separator, and says nothing about it (shared/csv/xlsx-read.ts). Absent for CSV.
   */
  numbers?: readonly number[];
}

/** Why a row could not be read, where the cause is recognisable. */
export type CsvProblemCause = 'thousands_separator' | 'decimal_comma' | 'broken_quoting' | 'field_count';

export interface CsvProblem {
  line: number;
  message: string;
  cause?: CsvProblemCause;
  /** The row's cells as read (for the report of unreadable rows). */
  cells?: string[];
}

export interface ParsedCsv {
  headers: string[];
  rows: CsvRecord[];
  problems: CsvProblem[];
  delimiter: CsvDelimiter;
  encoding: CsvEncoding;
  /** Line of the header row (after any leading blank lines). */
  headerLine: number;
  /** Non-blank records after the header: always rows.length + problems.length. */
  dataRows: number;
}

export interface ParseOptions {
  /** Force a delimiter; default: guessed among comma, semicolon and tab. */
  delimiter?: CsvDelimiter;
  /** Undo `="…"` id wrapping and the formula-guard apostrophe (default true). */
  unwrap?: boolean;
}

/** Thrown for bytes that are not a text (CSV) file at all: a workbook, a PDF, an image, random data. */
export class NotTextError extends Error {
  override name = 'NotTextError';
}

/** Signatures of files people pick by mistake, with what to do instead. */
const NOT_CSV_SIGNATURES: ReadonlyArray<{ bytes: number[]; what: string }> = [
  {
    bytes: [0x50, 0x4b, 0x03, 0x04],
    what: 'an Excel workbook (.xlsx) or another zip archive, not a CSV file. In Excel choose File → Save As → “CSV UTF-8”, then import that file',
  },
  {
    bytes: [0xd0, 0xcf, 0x11, 0xe0],
    what: 'an old Excel workbook (.xls), which cannot be read. In Excel choose File → Save As → “Excel Workbook (.xlsx)” or “CSV UTF-8”, then import that file',
  },
  {
    bytes: [0x25, 0x50, 0x44, 0x46],
    what: 'a PDF document, not a CSV file. Export the ledger as CSV instead',
  },
  { bytes: [0x89, 0x50, 0x4e, 0x47], what: 'a PNG image, not a CSV file' },
  { bytes: [0xff, 0xd8, 0xff], what: 'a JPEG image, not a CSV file' },
];

/**
 * Refuses bytes that are not text: known binary signatures by name, otherwise decoded text with more
 * than 1% control characters (other than tab and line ends) or NULs in what was not read as UTF-16.
 */
export function assertText(bytes: Uint8Array, decoded: DecodedText): void {
  for (const sig of NOT_CSV_SIGNATURES)
    if (sig.bytes.every((b, i) => bytes[i] === b)) throw new NotTextError(`This file is ${sig.what}.`);
  const sample = decoded.text.slice(0, 64 * 1024);
  let control = 0;
  for (let i = 0; i < sample.length; i += 1) {
    const c = sample.charCodeAt(i);
    if ((c < 0x20 && c !== 0x09 && c !== 0x0a && c !== 0x0d) || c === 0xfffd) control += 1;
  }
  if (sample.length > 0 && control / sample.length > 0.01)
    throw new NotTextError(
      'This file is not a text (CSV) file: it contains binary data. Export the ledger from your accounting system or spreadsheet as CSV and import that file.',
    );
}

/**
 * Decodes file bytes. A BOM decides (UTF-8, UTF-16 LE/BE); without one, a UTF-16 file betrays itself by
 * NUL bytes in every other position; otherwise strict UTF-8, and bytes that are not valid UTF-8 mean a
 * legacy Windows export, read as Windows-1252 (a superset of Latin-1 that Excel on Windows writes).
 */
export function decodeCsvBytes(bytes: Uint8Array): DecodedText {
  const b0 = bytes[0];
  const b1 = bytes[1];
  if (b0 === 0xef && b1 === 0xbb && bytes[2] === 0xbf) {
    return { text: new TextDecoder('utf-8').decode(bytes.subarray(3)), encoding: 'utf-8', hadBom: true };
  }
  if (b0 === 0xff && b1 === 0xfe)
    return {
      text: new TextDecoder('utf-16le').decode(bytes.subarray(2)),
      encoding: 'utf-16le',
      hadBom: true,
    };
  if (b0 === 0xfe && b1 === 0xff)
    return {
      text: new TextDecoder('utf-16be').decode(bytes.subarray(2)),
      encoding: 'utf-16be',
      hadBom: true,
    };
  const sniff = utf16WithoutBom(bytes);
  if (sniff) return { text: new TextDecoder(sniff).decode(bytes), encoding: sniff, hadBom: false };
  try {
    return {
      text: new TextDecoder('utf-8', { fatal: true }).decode(bytes),
      encoding: 'utf-8',
      hadBom: false,
    };
  } catch {
    return { text: decodeWindows1252(bytes), encoding: 'windows-1252', hadBom: false };
  }
}

// 0x80–0x9F of Windows-1252 (undefined bytes map to the same code point, as browsers do). Decoded by
// hand because Node's TextDecoder treats the label as ISO-8859-1 and would turn € into U+0080.
const CP1252_HIGH = [
  0x20ac, 0x81, 0x201a, 0x192, 0x201e, 0x2026, 0x2020, 0x2021, 0x2c6, 0x2030, 0x160, 0x2039, 0x152, 0x8d,
  0x17d, 0x8f, 0x90, 0x2018, 0x2019, 0x201c, 0x201d, 0x2022, 0x2013, 0x2014, 0x2dc, 0x2122, 0x161, 0x203a,
  0x153, 0x9d, 0x17e, 0x178,
];

/** Windows-1252 → string: Latin-1 except the 0x80–0x9F block. */
export function decodeWindows1252(bytes: Uint8Array): string {
  const parts: string[] = [];
  const CHUNK = 8192;
  for (let i = 0; i < bytes.length; i += CHUNK) {
    const codes = Array.from(bytes.subarray(i, i + CHUNK), (b) =>
      b >= 0x80 && b <= 0x9f ? (CP1252_HIGH[b - 0x80] ?? b) : b,
    );
    parts.push(String.fromCharCode(...codes));
  }
  return parts.join('');
}

/** ASCII-heavy text in UTF-16 has a NUL in (nearly) every odd (LE) or even (BE) byte. */
function utf16WithoutBom(bytes: Uint8Array): 'utf-16le' | 'utf-16be' | undefined {
  const n = Math.min(bytes.length - (bytes.length % 2), 4096);
  if (n < 4) return undefined;
  let evenNul = 0;
  let oddNul = 0;
  for (let i = 0; i < n; i += 2) {
    if (bytes[i] === 0) evenNul += 1;
    if (bytes[i + 1] === 0) oddNul += 1;
  }
  const pairs = n / 2;
  if (oddNul > pairs * 0.6 && evenNul < pairs * 0.1) return 'utf-16le';
  if (evenNul > pairs * 0.6 && oddNul < pairs * 0.1) return 'utf-16be';
  return undefined;
}

/** Counts occurrences of a single character. */
function countOf(text: string, ch: string): number {
  let count = 0;
  for (let i = text.indexOf(ch); i !== -1; i = text.indexOf(ch, i + 1)) count += 1;
  return count;
}

const CANDIDATES: readonly CsvDelimiter[] = [',', ';', '\t'];

/**
 * Picks the delimiter that splits the first lines into the most fields, consistently. papaparse's own
 * guess falls back to comma on short files with a trailing newline, so we score candidates ourselves
 * (still parsing with papaparse, so quoted delimiters do not count).
 */
export function guessDelimiter(text: string): CsvDelimiter {
  const sample = text.slice(0, 64 * 1024);
  let best: CsvDelimiter = ',';
  let bestScore = 0;
  for (const d of CANDIDATES) {
    const res = Papa.parse<string[]>(sample, { delimiter: d, preview: 20, skipEmptyLines: 'greedy' });
    const counts = res.data.map((r) => r.length);
    const head = counts[0] ?? 0;
    if (head < 2) continue;
    const consistent = counts.filter((c) => c === head).length / counts.length;
    const score = head * consistent;
    if (score > bestScore) {
      best = d;
      bestScore = score;
    }
  }
  return best;
}

/** Whether every cell is empty or white space (a loop: the usual row says no at its first cell). */
function isBlank(cells: readonly string[]): boolean {
  for (let i = 0; i < cells.length; i += 1) if (cells[i]!.trim() !== '') return false;
  return true;
}

/**
 * One line end for papaparse (it detects a single one per file): CRLF and lone CR become LF, so a file
 * with mixed line ends neither merges rows nor shifts line numbers.
 */
const toLf = (text: string) => text.replace(/\r\n?/g, '\n');

/** Receives each physical record in file order: its first line and its cells as read. */
export type RecordSink = (startLine: number, cells: string[], quoteError?: string) => void;

/**
 * A file with no quote character at all is what papaparse reads in its own "fast mode": every line is
 * one record and every delimiter splits. Read here without papaparse's per-record result objects and
 * callbacks (the same output, checked against papaparse in the tests), line ends handled in place so
 * the text is not copied. A lone CR still counts as a line end. Exported, like splitQuoted, for the
 * tests that hold the two readers to the same records.
 *
 * A line's cells are cut straight out of the text (no string per line): a record with as many cells
 * as the one before — a ledger's rows almost all have as many as the header — is cut by indexOf and
 * slice into an array made at that size; any other is the line split (split is a call into the
 * runtime per line, about twice the time of cutting at 100k lines). The next delimiter found is
 * remembered across lines, so a line with fewer cells (or a file of one column) never searches the
 * rest of the text again: the whole file is searched once.
 */
export function splitPlain(input: string, delimiter: CsvDelimiter, sink: RecordSink): void {
  // papaparse reads nothing from empty text, and drops a leading BOM of its own.
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  if (text === '') return;
  const lines = hasLoneCr(text) ? toLf(text) : text;
  const n = lines.length;
  let line = 1;
  // Cells in the record before (0: none yet).
  let width = 0;
  // The first delimiter at or after some position not after `pos`: none before it from there on
  // (n + 1: none at all).
  let delim = -1;
  // The record before: a cell equal to the one above it is that same string (see sameOr).
  let above: string[] = [];
  for (let pos = 0; pos <= n; line += 1) {
    let end = lines.indexOf('\n', pos);
    if (end === -1) end = n;
    const stop = end > pos && lines.charCodeAt(end - 1) === 13 ? end - 1 : end;
    // Both size each row's array exactly: 100k rows of cells stay in memory through the run.
    let cells: string[] | undefined;
    if (width > 0) {
      cells = new Array<string>(width);
      let at = pos;
      let k = 0;
      for (;;) {
        if (delim < at) {
          delim = lines.indexOf(delimiter, at);
          if (delim === -1) delim = n + 1;
        }
        if (delim >= stop) break;
        if (k === width - 1) break;
        cells[k] = sameOr(lines, at, delim, above[k]!);
        k += 1;
        at = delim + 1;
      }
      if (k === width - 1 && delim >= stop) cells[k] = sameOr(lines, at, stop, above[k]!);
      else cells = undefined;
    }
    cells ??= lines.slice(pos, stop).split(delimiter);
    width = cells.length;
    above = cells;
    sink(line, cells);
    pos = end + 1;
  }
}

/**
 * The cell `text[from, to)`: `above` (the same column's cell in the record before) when it is equal,
 * else a new string. A ledger's currency, status and date repeat down the rows: a repeated cell is
 * kept once instead of a copy per row — at a million rows tens of megabytes of strings fewer that
 * stay in memory with the parsed file, and fewer for the collector to copy and mark.
 */
function sameOr(text: string, from: number, to: number, above: string): string {
  return above.length === to - from && text.startsWith(above, from) ? above : text.slice(from, to);
}

/** Whether a CR not followed by LF ends a line somewhere (then the text is read with LF line ends). */
function hasLoneCr(text: string): boolean {
  for (let i = text.indexOf('\r'); i !== -1; i = text.indexOf('\r', i + 1))
    if (text.charCodeAt(i + 1) !== 10) return true;
  return false;
}

/** papaparse for everything else: quotes, quoted delimiters and line breaks, broken quoting. */
export function splitQuoted(text: string, delimiter: CsvDelimiter, sink: RecordSink): void {
  const lf = toLf(text);
  // Line bookkeeping: records are consecutive, so a record starts one line after the previous one
  // ended, and spans 1 + the line breaks inside its quoted cells. (papaparse's cursor is not reliable
  // around quoted fields, so it is not used.)
  let line = 1;
  Papa.parse<string[]>(lf, {
    delimiter,
    dynamicTyping: false,
    skipEmptyLines: false,
    newline: '\n',
    step: (res) => {
      const startLine = line;
      let inner = 0;
      for (const c of res.data) if (c.includes('\n')) inner += countOf(c, '\n');
      line = startLine + inner + 1;
      const quoteError = res.errors.find((e) => e.type === 'Quotes');
      sink(startLine, res.data, quoteError?.message);
    },
  });
}

/** Undoes our `="…"` id wrapping and formula guard; only cells starting with `=` or `'` can change. */
function unwrapCells(cells: string[]): string[] {
  for (let i = 0; i < cells.length; i += 1) {
    const c = cells[i]!;
    const first = c.charCodeAt(0);
    if (first === 0x3d || first === 0x27) cells[i] = unwrapCell(c);
  }
  return cells;
}

/**
 * Parses CSV text (already decoded; a leading BOM is ignored) into a header and records. Rows whose
 * field count differs from the header's, or whose quoting is broken, become problems with their line
 * number; every other row is kept.
 */
export function parseCsvText(input: string, opts: ParseOptions & { encoding?: CsvEncoding } = {}): ParsedCsv {
  const text = input.startsWith('\uFEFF') ? input.slice(1) : input;
  const unwrap = opts.unwrap ?? true;
  const problems: CsvProblem[] = [];
  const rows: CsvRecord[] = [];
  let headers: string[] | undefined;
  let headerLine = 1;
  // The guess reads the first 64 KiB with LF line ends: 128 Ki characters always give that much.
  const delimiter = opts.delimiter ?? guessDelimiter(toLf(text.slice(0, 128 * 1024)));
  const sink: RecordSink = (startLine, read, quoteError) => {
    const cells = unwrap ? unwrapCells(read) : read;
    if (!headers) {
      if (isBlank(cells)) return;
      // A header name is stored with the run's mapping: what the stored-text rule refuses is escaped
      // visibly (⟨U+200B⟩), as the importer does with cells, so the mapping names what is shown.
      headers = cells.map((h) => escapeUnsafeText(h.trim()));
      headerLine = startLine;
      return;
    }
    if (isBlank(cells)) return;
    if (quoteError !== undefined) {
      problems.push({
        line: startLine,
        message: `broken quoting: ${quoteError}`,
        cause: 'broken_quoting',
        cells,
      });
      return;
    }
    if (cells.length !== headers.length) {
      problems.push(fieldCountProblem(startLine, cells, headers.length));
      return;
    }
    rows.push({ line: startLine, cells });
  };
  if (text.includes('"')) splitQuoted(text, delimiter, sink);
  else splitPlain(text, delimiter, sink);
  return {
    headers: headers ?? [],
    rows,
    problems,
    delimiter,
    encoding: opts.encoding ?? 'utf-8',
    headerLine,
    dataRows: rows.length + problems.length,
  };
}

/** Two halves of an amount split at a separator, as [head, tail] patterns. */
const SPLITS = {
  thousands_separator: [/^[-(]?\d{1,3}$/, /^\d{3}([.,]\d*)?\)?$/],
  decimal_comma: [/^[-(]?\d+([. ]\d{3})*$/, /^\d{2}\)?$/],
} as const;

const SPLIT_HINT = {
  thousands_separator:
    'probably an amount written with a thousands separator and no quotes (such as 1,234.56), which splits it into two fields. Export amounts without thousands separators, or quoted',
  decimal_comma:
    'probably an amount written with a decimal comma and no quotes (such as 12,30) in a comma-separated file, which splits it into two fields. Export with semicolons as the separator, or amounts quoted',
} as const;

/** How many adjacent, non-overlapping cell pairs look like the halves of one split amount. */
function countSplits(cells: readonly string[], [head, tail]: readonly [RegExp, RegExp]): number {
  let n = 0;
  for (let i = 0; i + 1 < cells.length; i += 1) {
    if (head.test((cells[i] ?? '').trim()) && tail.test((cells[i + 1] ?? '').trim())) {
      n += 1;
      i += 1;
    }
  }
  return n;
}

/**
 * A row with the wrong number of fields. When it has more fields than the header and enough adjacent
 * pairs look like the two halves of an amount split at an unquoted thousands separator ("1" + "234.56"),
 * that is named as the likely cause.
 */
export function fieldCountProblem(line: number, cells: string[], expected: number): CsvProblem {
  const base = `has ${cells.length} field${cells.length === 1 ? '' : 's'}, the header has ${expected}`;
  const extra = cells.length - expected;
  if (extra > 0)
    for (const cause of ['thousands_separator', 'decimal_comma'] as const)
      if (countSplits(cells, SPLITS[cause]) >= extra)
        return { line, message: `${base}: ${SPLIT_HINT[cause]}`, cause, cells };
  return { line, message: base, cause: 'field_count', cells };
}

/** Decodes and parses file bytes in one go (what the worker and the CLI call); refuses non-text files. */
export function parseCsvBytes(bytes: Uint8Array, opts: ParseOptions = {}): ParsedCsv {
  const decoded = decodeCsvBytes(bytes);
  assertText(bytes, decoded);
  return parseCsvText(decoded.text, { ...opts, encoding: decoded.encoding });
}
