/**
 * Turns parsed CSV records into ledger rows using a column mapping and the file's number and date
 * formats. Every data row ends up in exactly one of `rows` or `unusable` (rows read + rows that cannot
 * be used = data rows), each unusable one with its line, a reason and, where recognisable, its cause.
 * Amounts become integer minor units here and nowhere else.
 */
import { currencyExponent, currencySchema, isKnownCurrency, type Currency } from '../domain/currencies';
import { MoneyParseError, minorSchema } from '../domain/money';
import { z } from 'zod';
import { escapeUnsafeText, refuseUnsafeText } from '../domain/text';
import type { CsvRecord, ParsedCsv } from '../csv/parser';
import { ledgerColumnsProblem, ledgerRowsProblem } from './limits';
import {
  decimalTally,
  decimalVerdict,
  parseLedgerAmount,
  plainAmount,
  tallyDecimal,
  type DecimalEvidence,
  type DecimalSeparator,
} from './amounts';
import {
  dateTally,
  dateVerdict,
  isIsoDayShape,
  parseLedgerDate,
  tallyDate,
  type DateEvidence,
  type DateOrder,
} from './dates';
import type { ColumnMapping, MappingField } from './mapping';

/** What the merchant's books say about a payment. `unpaid` covers cancelled / void / failed orders. */
const LEDGER_STATUSES = ['paid', 'refunded', 'unpaid', 'other'] as const;
export type LedgerStatus = (typeof LEDGER_STATUSES)[number];

/** One usable row of the ledger, as the importer makes it and main receives it. */
export const ledgerRowSchema = z
  .object({
    /** First physical line of the record in the file (header is line 1). */
    line: z.number().int().min(2),
    transactionNo: z
      .string()
      .regex(/^\d{1,32}$/)
      .optional(),
    reference: z.string().min(1).max(128).superRefine(refuseUnsafeText('reference')).optional(),
    amountMinor: minorSchema,
    currency: currencySchema,
    /** The date as the merchant wrote it. */
    date: z.string().max(60).superRefine(refuseUnsafeText('date')).optional(),
    /** That date as a calendar day "YYYY-MM-DD" (compared with the service's payment day). */
    day: z
      .string()
      .regex(/^\d{4}-\d{2}-\d{2}$/)
      .optional(),
    /** Normalised; `paid` when the file has no status column (a ledger of sales). */
    status: z.enum(LEDGER_STATUSES),
    statusText: z.string().max(100).superRefine(refuseUnsafeText('status')).optional(),
    /** Refunded amount per the ledger, when such a column is mapped. */
    refundedMinor: minorSchema.optional(),
    /**
     * Why the row is keyed by its reference although it has a transaction number: that number could
     * not be used (shortened by Excel, not all digits). Shown and exported with the row.
     */
    keyNote: z.string().max(300).superRefine(refuseUnsafeText('note')).optional(),
  })
  .strict()
  .refine((r) => r.transactionNo !== undefined || r.reference !== undefined, 'a row needs a key');
export type LedgerRow = z.infer<typeof ledgerRowSchema>;

/**
 * Why a row cannot be used, where recognisable (shown and exported beside the reason). The first four
 * are the CSV reader's own (shared/csv/parser.ts CsvProblemCause).
 */
const UNUSABLE_CAUSES = [
  'thousands_separator',
  'decimal_comma',
  'broken_quoting',
  'field_count',
  'scientific_id',
  'id_not_digits',
  'no_key',
  'currency',
  'amount',
  'date',
] as const;
export type UnusableCause = (typeof UNUSABLE_CAUSES)[number];

/** A cell of an unusable row as written (escaped by the importer: nothing in it may hide). */
const writtenCell = (what: string, max: number) => z.string().max(max).superRefine(refuseUnsafeText(what));

/** The mapped cells of an unusable row, as written (what can be shown of it). */
const rawLedgerFieldsSchema = z
  .object({
    transactionNo: writtenCell('transaction number', 60).optional(),
    reference: writtenCell('reference', 60).optional(),
    amount: writtenCell('amount', 60).optional(),
    currency: writtenCell('currency', 60).optional(),
    date: writtenCell('date', 60).optional(),
  })
  .strict();
export type RawLedgerFields = z.infer<typeof rawLedgerFieldsSchema>;

/** A data row that cannot be reconciled: listed with its line and reason, never dropped. */
export const unusableRowSchema = z
  .object({
    line: z.number().int().min(2),
    reason: writtenCell('reason', 600),
    cause: z.enum(UNUSABLE_CAUSES).optional(),
    fields: rawLedgerFieldsSchema.optional(),
    /** The row as read (cells joined by the file's separator), capped. */
    raw: writtenCell('row', 300).optional(),
    /** Its currency, when that cell holds one the service handles (to count it in that currency). */
    currency: currencySchema.optional(),
  })
  .strict();
export type UnusableRow = z.infer<typeof unusableRowSchema>;

export interface LedgerImport {
  rows: LedgerRow[];
  unusable: UnusableRow[];
  /** Data rows in the file: rows.length + unusable.length. */
  dataRows: number;
}

/** How the file writes numbers and dates (detected, shown, changeable). */
export interface LedgerFormats {
  decimal: DecimalSeparator;
  dateOrder: DateOrder;
}

const PAID = new Set([
  'paid',
  'success',
  'succeeded',
  'successful',
  'settled',
  'completed',
  'complete',
  'captured',
  'done',
  'ok',
  'closedpaid',
]);
const REFUNDED = new Set(['refunded', 'partiallyrefunded', 'partialrefund', 'refund', 'fullyrefunded']);
const UNPAID = new Set([
  'unpaid',
  'cancelled',
  'canceled',
  'void',
  'voided',
  'failed',
  'declined',
  'open',
  'pending',
  'expired',
]);

/** Maps a ledger's own status words to ours. */
export function normaliseLedgerStatus(text: string | undefined): LedgerStatus {
  if (text === undefined || text.trim() === '') return 'paid';
  const s = text.toLowerCase().replace(/[^a-z]/g, '');
  if (PAID.has(s)) return 'paid';
  if (REFUNDED.has(s)) return 'refunded';
  if (UNPAID.has(s)) return 'unpaid';
  return 'other';
}

/** What the file's values say about its formats (amount and refunded columns; date column). */
export interface FormatEvidence {
  decimal: DecimalEvidence;
  dates: DateEvidence;
}

/**
 * Detects the decimal separator and date order from the mapped columns: the amount and date cells in
 * one walk over the rows (then the refunded column, if mapped: its values come after all amounts).
 */
export function detectFormats(
  parsed: Pick<ParsedCsv, 'headers' | 'rows'>,
  mapping: ColumnMapping,
): FormatEvidence {
  const col = (h: string | undefined) => (h === undefined ? -1 : parsed.headers.indexOf(h));
  const amount = col(mapping.amount);
  const refunded = col(mapping.refunded);
  const date = col(mapping.date);
  const decimal = decimalTally();
  const dates = dateTally();
  let sawIso = false;
  // A workbook's number cell says nothing about how the file writes decimals: it is a number.
  for (const { cells, numbers } of parsed.rows) {
    if (amount >= 0 && !numbers?.includes(amount)) tallyDecimal(decimal, cells[amount] ?? '');
    if (date >= 0 && tallyDate(dates, cells[date] ?? '')) sawIso = true;
  }
  if (refunded >= 0)
    for (const { cells, numbers } of parsed.rows)
      if (!numbers?.includes(refunded)) tallyDecimal(decimal, cells[refunded] ?? '');
  return { decimal: decimalVerdict(decimal), dates: dateVerdict(dates, sawIso) };
}

/** The formats to read with: what was chosen, else what the evidence decided, else the defaults. */
export function formatsFrom(evidence: FormatEvidence, chosen: Partial<LedgerFormats> = {}): LedgerFormats {
  return {
    decimal: chosen.decimal ?? evidence.decimal.decimal ?? '.',
    dateOrder: chosen.dateOrder ?? evidence.dates.order ?? 'ymd',
  };
}

/** What must be chosen before a run: formats the file's values leave open. Empty when none. */
export function formatQuestions(evidence: FormatEvidence, chosen: Partial<LedgerFormats> = {}): string[] {
  const q: string[] = [];
  const d = evidence.decimal;
  if (d.needsChoice && !chosen.decimal)
    q.push(
      d.dot > 0 && d.comma > 0
        ? `Amounts use both separators as decimals (“${d.examples.dot}” and “${d.examples.comma}”): which one is the decimal separator?`
        : `Is “${d.examples.ambiguous}” a decimal (comma or dot before the cents) or a whole number with a thousands separator? Nothing else in the file decides: choose the decimal separator.`,
    );
  const t = evidence.dates;
  if (t.needsChoice && !chosen.dateOrder)
    q.push(
      t.dmy > 0 && t.mdy > 0
        ? `Dates are written both day first (“${t.examples.dmy}”) and month first (“${t.examples.mdy}”): which order does the file use?`
        : `Is “${t.examples.ambiguous}” day first or month first? Nothing else in the file decides: choose the date order.`,
    );
  return q;
}

/** Distinct date cells read once each (toLedgerRows); past this many, a cell is read every time. */
const DATES_KEPT = 10_000;

/** /^\d{1,32}$/ by a loop over the characters: a transaction number is checked on every row. */
function isDigits(text: string): boolean {
  const n = text.length;
  if (n === 0 || n > 32) return false;
  for (let i = 0; i < n; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x30 || c > 0x39) return false;
  }
  return true;
}
const SCIENTIFIC = /^[-+]?\d+(?:[.,]\d+)?E[+-]?\d+$/i;
const RAW_MAX = 300;
const REASON_MAX = 500;
/** Longest reference the service takes as a lookup key. */
const REFERENCE_MAX = 128;

/** Column positions of the mapped fields (-1: not mapped). */
type FieldIndex = Record<MappingField, number>;

/**
 * A mapped cell as the file says it, trimmed: control and text-direction characters become visible.
 * An unmapped field reads as empty.
 */
const cellOf = (cells: readonly string[], i: number) => {
  if (i < 0) return '';
  const text = (cells[i] ?? '').trim();
  return plainAscii(text) ? text : escapeUnsafeText(text);
};

/**
 * Whether a cell is printable ASCII only (space to tilde), where escapeUnsafeText has nothing to
 * escape: the usual cell is checked by a loop over its few characters, not the Unicode-class regex.
 */
function plainAscii(text: string): boolean {
  for (let i = 0; i < text.length; i += 1) {
    const c = text.charCodeAt(i);
    if (c < 0x20 || c > 0x7e) return false;
  }
  return true;
}

/** A row that cannot be used, with what can be shown of its mapped cells. */
function unusableOf(rec: CsvRecord, idx: FieldIndex, reason: string, cause: UnusableCause): UnusableRow {
  const fields: RawLedgerFields = {};
  for (const f of ['transactionNo', 'reference', 'amount', 'currency', 'date'] as const) {
    const v = cellOf(rec.cells, idx[f]);
    if (v) fields[f] = v.slice(0, 60);
  }
  const c = fields.currency?.toUpperCase();
  return {
    line: rec.line,
    reason: reason.slice(0, REASON_MAX),
    cause,
    fields,
    ...(c && isKnownCurrency(c) ? { currency: c } : {}),
  };
}

/** A currency cell (trimmed, escaped): its code, or why a row with it cannot be used. */
function readCurrency(cell: string): Currency | { problem: string } {
  const currency = cell.toUpperCase();
  if (!/^[A-Z]{3}$/.test(currency))
    return {
      problem: currency ? `currency “${currency.slice(0, 10)}” is not a 3-letter code` : 'has no currency',
    };
  if (!isKnownCurrency(currency))
    return { problem: `currency ${currency} is not one the payment service handles` };
  return currency;
}

/** A column's name for a message: as the file's header says it, bounded. */
const columnShown = (header: string | undefined, fallback: string) =>
  header ? (header.length > 40 ? `${header.slice(0, 39)}…` : header) : fallback;

/**
 * Why a transaction number cannot be used, as the start of a sentence, or undefined when it can:
 * shortened by Excel to scientific notation (its last digits lost), or not all digits.
 */
function unusableId(
  transactionNo: string,
  column: string,
): { cause: 'scientific_id' | 'id_not_digits'; says: string } {
  if (SCIENTIFIC.test(transactionNo))
    return {
      cause: 'scientific_id',
      says: `${column} “${transactionNo}” looks shortened by Excel (scientific notation): its last digits are lost`,
    };
  return { cause: 'id_not_digits', says: `${column} “${transactionNo.slice(0, 40)}” is not all digits` };
}

const ID_FIXES: Readonly<Record<'scientific_id' | 'id_not_digits', string>> = {
  scientific_id:
    'Map a reference column (order or invoice number) to match such rows by reference, or export the ledger again with that column as Text (in Excel: Data → From Text/CSV, column type Text)',
  id_not_digits: 'Map a reference column (order or invoice number) to match such rows by reference instead',
};

/**
 * Applies a mapping (assumed valid, see mappingIssues) to a parsed file. A row whose transaction number
 * cannot be used is keyed by its reference when it has one — and says so (`keyNote`) — else unusable.
 */
export function toLedgerRows(
  parsed: Pick<ParsedCsv, 'headers' | 'rows' | 'problems' | 'delimiter'>,
  mapping: ColumnMapping,
  formats: LedgerFormats = { decimal: '.', dateOrder: 'ymd' },
): LedgerImport {
  const col = (h: string | undefined) => (h === undefined ? -1 : parsed.headers.indexOf(h));
  const idx: FieldIndex = {
    transactionNo: col(mapping.transactionNo),
    reference: col(mapping.reference),
    amount: col(mapping.amount),
    currency: col(mapping.currency),
    date: col(mapping.date),
    status: col(mapping.status),
    refunded: col(mapping.refunded),
  };
  const rows: LedgerRow[] = [];
  const unusable: UnusableRow[] = parsed.problems.map((p) => ({
    line: p.line,
    reason: p.message,
    ...(p.cause ? { cause: p.cause } : {}),
    ...(p.cells ? { raw: escapeUnsafeText(p.cells.join(parsed.delimiter)).slice(0, RAW_MAX) } : {}),
  }));
  // A ledger repeats a handful of currency and status words: each is read once per file.
  // Keyed by the cell as written, so that a repeated cell is not trimmed and checked again, and every row
  // with the same status keeps the same string (not one copy per row, 100k of them kept with the rows).
  // A currency is kept with its exponent, for the amounts read in it.
  const currencies = new Map<string, { currency: Currency; exp: number } | { problem: string }>();
  const statuses = new Map<string, { text: string; status: LedgerStatus }>();
  const rawCell = (cells: readonly string[], i: number) => (i < 0 ? '' : (cells[i] ?? ''));
  const txColumn = columnShown(mapping.transactionNo, 'transaction number');
  const refColumn = columnShown(mapping.reference, 'reference');
  // Made once, not per row: a closure per row is measurable at 100k rows.
  let rec: CsvRecord;
  // A workbook's number cell is written with a dot, whatever the file's text cells use.
  const decimalOf = (r: CsvRecord, i: number) => (r.numbers?.includes(i) ? '.' : formats.decimal);
  const fail = (reason: string, cause: UnusableCause) => unusable.push(unusableOf(rec, idx, reason, cause));
  // A ledger's dates are a period's days, repeated row after row: each distinct cell is read once, and
  // every row with it keeps the same strings (not a copy per row: a million are kept with the rows).
  // Bounded, for a file that writes a time to the second in its date column.
  const dates = new Map<string, { date: string; day: string | undefined }>();
  const readDate = (raw: string) => {
    let read = dates.get(raw);
    if (read === undefined) {
      const text = raw.trim();
      const date = isIsoDayShape(text) ? text : escapeUnsafeText(text);
      read = { date, day: date ? parseLedgerDate(date, formats.dateOrder) : undefined };
      if (dates.size < DATES_KEPT) dates.set(raw, read);
    }
    return read;
  };
  for (rec of parsed.rows) {
    const cells = rec.cells;
    // A cell of digits (or a year-first day) has nothing to escape: the usual row skips that check.
    const txText = idx.transactionNo < 0 ? '' : (cells[idx.transactionNo] ?? '').trim();
    const txDigits = isDigits(txText);
    let transactionNo = txDigits ? txText : escapeUnsafeText(txText);
    const reference = cellOf(cells, idx.reference);
    let keyNote: string | undefined;
    if (transactionNo && !txDigits) {
      const id = unusableId(transactionNo, txColumn);
      if (!reference) {
        fail(`${id.says}, so it cannot be matched. ${ID_FIXES[id.cause]}`, id.cause);
        continue;
      }
      // The reference still identifies the payment: the row is checked by it, and says why.
      keyNote = `${id.says}: matched by ${refColumn} instead`;
      transactionNo = '';
    }
    if (!transactionNo && !reference) {
      fail('has neither a transaction number nor a reference', 'no_key');
      continue;
    }
    if (!transactionNo && reference.length > REFERENCE_MAX) {
      fail(`reference “${reference.slice(0, 40)}…” is longer than ${REFERENCE_MAX} characters`, 'no_key');
      continue;
    }
    const currencyRaw = rawCell(cells, idx.currency);
    let read = currencies.get(currencyRaw);
    if (read === undefined) {
      const code = readCurrency(cellOf(cells, idx.currency));
      read = typeof code === 'string' ? { currency: code, exp: currencyExponent(code) } : code;
      currencies.set(currencyRaw, read);
    }
    if ('problem' in read) {
      fail(read.problem, 'currency');
      continue;
    }
    const currency = read.currency;
    let amountMinor: number;
    let refundedMinor: number | undefined;
    try {
      // The usual amount (digits, a separator, a minus) as written: what the careful reading of the
      // trimmed, escaped cell would give, since such a cell has nothing to trim or escape.
      const amountDecimal = decimalOf(rec, idx.amount);
      amountMinor =
        plainAmount(rawCell(cells, idx.amount), read.exp, amountDecimal) ??
        parseLedgerAmount(cellOf(cells, idx.amount), currency, amountDecimal);
      const refundedText = cellOf(cells, idx.refunded);
      if (refundedText)
        refundedMinor = parseLedgerAmount(refundedText, currency, decimalOf(rec, idx.refunded));
    } catch (e) {
      fail(e instanceof MoneyParseError ? `amount: ${e.message}` : 'amount could not be read', 'amount');
      continue;
    }
    const { date, day } = readDate(rawCell(cells, idx.date));
    if (date && !day) {
      fail(
        `date “${date.slice(0, 30)}” is not a date (expected ${formats.dateOrder === 'ymd' ? '2025-04-30' : formats.dateOrder === 'dmy' ? '30/04/2025' : '04/30/2025'})`,
        'date',
      );
      continue;
    }
    const statusRaw = rawCell(cells, idx.status);
    let said = statuses.get(statusRaw);
    if (said === undefined) {
      const text = cellOf(cells, idx.status);
      said = { text, status: normaliseLedgerStatus(text) };
      statuses.set(statusRaw, said);
    }
    const { text: statusText, status } = said;
    if (transactionNo && reference && date && day && statusText && refundedMinor === undefined && !keyNote) {
      // The usual row, made in one piece (same properties, same order as below).
      rows.push({
        line: rec.line,
        amountMinor,
        currency,
        status,
        transactionNo,
        reference: reference.slice(0, REFERENCE_MAX),
        date: date.slice(0, 60),
        day,
        statusText: statusText.slice(0, 100),
      });
      continue;
    }
    const row: LedgerRow = { line: rec.line, amountMinor, currency, status };
    if (transactionNo) row.transactionNo = transactionNo;
    if (reference) row.reference = reference.slice(0, REFERENCE_MAX);
    if (date) row.date = date.slice(0, 60);
    if (day) row.day = day;
    if (statusText) row.statusText = statusText.slice(0, 100);
    if (refundedMinor !== undefined) row.refundedMinor = refundedMinor;
    if (keyNote) row.keyNote = keyNote.slice(0, 300);
    rows.push(row);
  }
  unusable.sort((a, b) => a.line - b.line);
  return { rows, unusable, dataRows: rows.length + unusable.length };
}

/** At most this many header names, each at most HEADER_SHOWN_MAX characters, are named in a message. */
const HEADERS_SHOWN = 6;
const HEADER_SHOWN_MAX = 40;

/**
 * Header names for a message, bounded whatever the file holds (a million columns, a name of a megabyte):
 * the first few, each cut, and how many more there are.
 */
export function headersShown(headers: readonly string[], shown = HEADERS_SHOWN): string {
  const names = headers
    .slice(0, shown)
    .map((h) => (h.length > HEADER_SHOWN_MAX ? `${h.slice(0, HEADER_SHOWN_MAX - 1)}…` : h));
  const more = headers.length - names.length;
  return `${names.join(', ')}${more > 0 ? ` and ${more.toLocaleString('en-US')} more` : ''}`;
}

/**
 * Whether a parsed file can be reconciled at all: undefined when it can, else a sentence that says why
 * and what to do (no header, a header and no data rows, more rows or columns than a run takes).
 */
export function ledgerFileProblem(
  parsed: Pick<ParsedCsv, 'headers' | 'dataRows'> & { headerLine?: number },
): string | undefined {
  if (parsed.headers.length === 0) return 'The file is empty: it has no header row.';
  const columns = ledgerColumnsProblem(parsed.headers.length, parsed.headerLine ?? 1);
  if (columns) return columns;
  if (parsed.dataRows === 0)
    return `The file has a header row (${headersShown(parsed.headers)}) but no data rows, so there is nothing to check. Export the ledger again with its rows.`;
  return ledgerRowsProblem(parsed.dataRows);
}
