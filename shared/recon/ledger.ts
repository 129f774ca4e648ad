/**
 * Turns parsed CSV records into ledger rows using a column mapping. Each bad row becomes a problem
 * with its line number and is left out; good rows are kept. Amounts become integer minor units here
 * and nowhere else.
 */
import { isKnownCurrency } from '../domain/currencies';
import { MoneyParseError, parseMinor } from '../domain/money';
import type { CsvProblem, ParsedCsv } from '../csv/parser';
import type { ColumnMapping } from './mapping';

/** What the merchant's books say about a payment. `unpaid` covers cancelled / void / failed orders. */
export type LedgerStatus = 'paid' | 'refunded' | 'unpaid' | 'other';

export interface LedgerRow {
  /** First physical line of the record in the file (header is line 1). */
  line: number;
  transactionNo?: string;
  reference?: string;
  amountMinor: number;
  currency: string;
  /** The date as the merchant wrote it (informational; never used to match). */
  date?: string;
  /** Normalised; `paid` when the file has no status column (a ledger of sales). */
  status: LedgerStatus;
  statusText?: string;
  /** Refunded amount per the ledger, when such a column is mapped. */
  refundedMinor?: number;
}

export interface LedgerImport {
  rows: LedgerRow[];
  problems: CsvProblem[];
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

/**
 * Normalises the amount spellings spreadsheets produce to a plain decimal: "1,234.56", European
 * "1.234,56", decimal comma "12,30" and accounting negatives "(12.30)". Anything else is returned as is
 * for parseMinor to reject.
 */
export function normaliseAmountText(raw: string): string {
  let t = raw.trim().replace(/[\s\u00a0]/g, '');
  let negative = false;
  const paren = /^\((.*)\)$/.exec(t);
  if (paren) {
    negative = true;
    t = paren[1] ?? '';
  }
  if (/^-?\d{1,3}(,\d{3})+(\.\d+)?$/.test(t)) t = t.replace(/,/g, '');
  else if (/^-?\d{1,3}(\.\d{3})+,\d+$/.test(t)) t = t.replace(/\./g, '').replace(',', '.');
  else if (/^-?\d+,\d{1,2}$/.test(t)) t = t.replace(',', '.');
  return negative && !t.startsWith('-') ? `-${t}` : t;
}

const DIGITS = /^\d{1,32}$/;

/** Applies a mapping (assumed valid, see mappingIssues) to parsed records. */
export function toLedgerRows(
  parsed: Pick<ParsedCsv, 'headers' | 'rows'>,
  mapping: ColumnMapping,
): LedgerImport {
  const col = (h: string | undefined) => (h === undefined ? -1 : parsed.headers.indexOf(h));
  const idx = {
    transactionNo: col(mapping.transactionNo),
    reference: col(mapping.reference),
    amount: col(mapping.amount),
    currency: col(mapping.currency),
    date: col(mapping.date),
    status: col(mapping.status),
    refunded: col(mapping.refunded),
  };
  const rows: LedgerRow[] = [];
  const problems: CsvProblem[] = [];
  for (const rec of parsed.rows) {
    const get = (i: number) => (i < 0 ? '' : (rec.cells[i] ?? '').trim());
    const transactionNo = get(idx.transactionNo);
    const reference = get(idx.reference);
    const fail = (message: string) => problems.push({ line: rec.line, message });
    if (!transactionNo && !reference) {
      fail('has neither a transaction number nor a reference');
      continue;
    }
    if (transactionNo && !DIGITS.test(transactionNo)) {
      fail(`transaction number “${transactionNo.slice(0, 40)}” is not all digits`);
      continue;
    }
    const currency = get(idx.currency).toUpperCase();
    if (!/^[A-Z]{3}$/.test(currency)) {
      fail(currency ? `currency “${currency.slice(0, 10)}” is not a 3-letter code` : 'has no currency');
      continue;
    }
    if (!isKnownCurrency(currency)) {
      fail(`currency ${currency} is not one the payment service handles`);
      continue;
    }
    let amountMinor: number;
    let refundedMinor: number | undefined;
    try {
      const amountText = get(idx.amount);
      if (!amountText) throw new MoneyParseError('has no amount');
      amountMinor = parseMinor(normaliseAmountText(amountText), currency, { allowExtraZeros: true });
      const refundedText = get(idx.refunded);
      if (refundedText)
        refundedMinor = parseMinor(normaliseAmountText(refundedText), currency, { allowExtraZeros: true });
    } catch (e) {
      fail(e instanceof MoneyParseError ? `amount: ${e.message}` : 'amount could not be read');
      continue;
    }
    const statusText = get(idx.status);
    const date = get(idx.date);
    const row: LedgerRow = {
      line: rec.line,
      amountMinor,
      currency,
      status: normaliseLedgerStatus(statusText),
    };
    if (transactionNo) row.transactionNo = transactionNo;
    if (reference) row.reference = reference;
    if (date) row.date = date;
    if (statusText) row.statusText = statusText;
    if (refundedMinor !== undefined) row.refundedMinor = refundedMinor;
    rows.push(row);
  }
  return { rows, problems };
}
