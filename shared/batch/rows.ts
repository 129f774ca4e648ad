/**
 * Turns a parsed batch file (CSV or workbook — shared/csv/xlsx-read.ts, the reconciliation's workbook
 * reader — both read into the CSV reader's records) into refund rows,
 * the way the reconciliation importer turns a ledger into ledger rows (shared/recon/ledger.ts): every
 * data row ends up in exactly one of `rows` or `unusable` (rows read + rows that cannot be used = data
 * rows), each unusable one with its line and a reason a person can act on. Amounts become integer minor
 * units here (the ledger's amount reader and decimal-separator evidence), or the word `full`.
 */
import type { CsvRecord, ParsedCsv } from '../csv/parser';
import { currencyExponent, isKnownCurrency, type Currency } from '../domain/currencies';
import { MoneyParseError } from '../domain/money';
import { escapeUnsafeText } from '../domain/text';
import {
  decimalTally,
  decimalVerdict,
  parseLedgerAmount,
  tallyDecimal,
  type DecimalEvidence,
  type DecimalSeparator,
} from '../recon/amounts';
import type { BatchField, BatchMapping } from './mapping';

/** One usable row of a batch file: what its sender asks to be refunded. */
export interface BatchRow {
  /** First line of the record in the file (a workbook: its row number). */
  line: number;
  transactionNo?: string;
  reference?: string;
  /** The amount to refund in minor units, or `full`: whatever remains when the row's turn comes. */
  amount: { minor: number } | 'full';
  currency: Currency;
  reason: string;
  /** The sender's own reference for the row (claim number, ticket): part of its idempotency key. */
  rowRef?: string;
}

/** A data row that cannot be used, with its line and why (never dropped). */
export interface BatchUnusable {
  line: number;
  reason: string;
  /** The row as read (cells joined), capped, escaped: what can be shown of it. */
  raw?: string;
}

export interface BatchFileRows {
  rows: BatchRow[];
  unusable: BatchUnusable[];
  /** rows.length + unusable.length. */
  dataRows: number;
}

const DIGITS = /^\d{1,32}$/;
const SCIENTIFIC = /^[-+]?\d+(?:[.,]\d+)?E[+-]?\d+$/i;
const RAW_MAX = 300;
/** As the refund dialog's note (shared/ipc/contract/refunds.ts). */
export const BATCH_REASON_MAX = 500;
const REFERENCE_MAX = 128;
const ROW_REF_MAX = 100;
const FULL = /^full$/i;

type FieldIndex = Record<BatchField, number>;

const cellOf = (cells: readonly string[], i: number) =>
  i < 0 ? '' : escapeUnsafeText((cells[i] ?? '').trim());

/** The decimal separator the amount column shows (the word `full` says nothing about it). */
export function batchDecimalEvidence(
  parsed: Pick<ParsedCsv, 'headers' | 'rows'>,
  mapping: BatchMapping,
): DecimalEvidence {
  const amount = mapping.amount === undefined ? -1 : parsed.headers.indexOf(mapping.amount);
  const ev = decimalTally();
  if (amount >= 0)
    for (const { cells, numbers } of parsed.rows) {
      const v = cells[amount] ?? '';
      // A workbook's number cell is written with a dot whatever the file's text cells use.
      if (!FULL.test(v.trim()) && !numbers?.includes(amount)) tallyDecimal(ev, v);
    }
  return decimalVerdict(ev);
}

/** Applies a mapping (assumed valid, see batchMappingIssues) to a parsed file. */
export function toBatchRows(
  parsed: Pick<ParsedCsv, 'headers' | 'rows' | 'problems' | 'delimiter'>,
  mapping: BatchMapping,
  decimal: DecimalSeparator = '.',
): BatchFileRows {
  const col = (h: string | undefined) => (h === undefined ? -1 : parsed.headers.indexOf(h));
  const idx: FieldIndex = {
    transactionNo: col(mapping.transactionNo),
    reference: col(mapping.reference),
    amount: col(mapping.amount),
    currency: col(mapping.currency),
    reason: col(mapping.reason),
    rowRef: col(mapping.rowRef),
  };
  const rawOf = (cells: readonly string[]) =>
    escapeUnsafeText(cells.join(parsed.delimiter)).slice(0, RAW_MAX);
  const unusable: BatchUnusable[] = parsed.problems.map((p) => ({
    line: p.line,
    reason: p.message,
    ...(p.cells ? { raw: rawOf(p.cells) } : {}),
  }));
  const rows: BatchRow[] = [];
  const fail = (rec: CsvRecord, reason: string) =>
    unusable.push({ line: rec.line, reason, raw: rawOf(rec.cells) });
  for (const rec of parsed.rows) {
    const cells = rec.cells;
    const transactionNo = cellOf(cells, idx.transactionNo);
    const reference = cellOf(cells, idx.reference);
    if (!transactionNo && !reference) {
      fail(rec, 'has neither a transaction number nor a merchant reference');
      continue;
    }
    if (transactionNo && !DIGITS.test(transactionNo)) {
      fail(
        rec,
        SCIENTIFIC.test(transactionNo)
          ? `transaction number “${transactionNo}” was shortened by a spreadsheet to scientific notation, so its last digits are lost. Save the list again with that column formatted as Text`
          : `transaction number “${transactionNo.slice(0, 40)}” is not all digits`,
      );
      continue;
    }
    if (reference.length > REFERENCE_MAX) {
      fail(rec, `merchant reference “${reference.slice(0, 40)}…” is longer than ${REFERENCE_MAX} characters`);
      continue;
    }
    const currencyText = cellOf(cells, idx.currency).toUpperCase();
    if (!/^[A-Z]{3}$/.test(currencyText)) {
      fail(
        rec,
        currencyText ? `currency “${currencyText.slice(0, 10)}” is not a 3-letter code` : 'has no currency',
      );
      continue;
    }
    if (!isKnownCurrency(currencyText)) {
      fail(rec, `currency ${currencyText} is not one the payment service handles`);
      continue;
    }
    const currency = currencyText;
    const amountText = cellOf(cells, idx.amount);
    let amount: BatchRow['amount'];
    if (FULL.test(amountText)) amount = 'full';
    else {
      let minor: number;
      try {
        minor = parseLedgerAmount(amountText, currency, rec.numbers?.includes(idx.amount) ? '.' : decimal);
      } catch (e) {
        fail(
          rec,
          e instanceof MoneyParseError
            ? `amount: ${e.message} (write an amount with at most ${currencyExponent(currency)} decimals, or the word “full”)`
            : 'amount could not be read',
        );
        continue;
      }
      if (minor <= 0) {
        fail(rec, `amount “${amountText.slice(0, 30)}” is not greater than zero`);
        continue;
      }
      amount = { minor };
    }
    const reason = cellOf(cells, idx.reason);
    if (!reason) {
      fail(rec, 'has no reason: every refund is recorded with its reason');
      continue;
    }
    if (reason.length > BATCH_REASON_MAX) {
      fail(rec, `reason is longer than ${BATCH_REASON_MAX} characters`);
      continue;
    }
    const rowRef = cellOf(cells, idx.rowRef);
    if (rowRef.length > ROW_REF_MAX) {
      fail(rec, `row reference “${rowRef.slice(0, 40)}…” is longer than ${ROW_REF_MAX} characters`);
      continue;
    }
    rows.push({
      line: rec.line,
      ...(transactionNo ? { transactionNo } : {}),
      ...(reference ? { reference } : {}),
      amount,
      currency,
      reason,
      ...(rowRef ? { rowRef } : {}),
    });
  }
  unusable.sort((a, b) => a.line - b.line);
  return { rows, unusable, dataRows: rows.length + unusable.length };
}
