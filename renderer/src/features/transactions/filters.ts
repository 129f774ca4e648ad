import { COMMON_SCALE, type ListRow } from './list-row';

/** What the person filters the list by. Empty arrays and empty strings mean "any". */
export interface TransactionFilter {
  statuses: string[];
  currencies: string[];
  vendors: string[];
  /** Local calendar dates, YYYY-MM-DD, both inclusive (created time). */
  fromDate: string;
  toDate: string;
  /** Plain decimals in each row's own currency, both inclusive. */
  minAmount: string;
  maxAmount: string;
  /** Substring of transactionNo, reference, refund numbers or refund references. */
  text: string;
}

export const EMPTY_FILTER: TransactionFilter = {
  statuses: [],
  currencies: [],
  vendors: [],
  fromDate: '',
  toDate: '',
  minAmount: '',
  maxAmount: '',
  text: '',
};

const DECIMAL = /^\d+(?:\.(\d{1,4}))?$/;

/**
 * Parses an amount bound to the common 10^-4 scale without floating point ("12.3" → 123000).
 * Returns undefined for empty text, null for text that is not a plain non-negative decimal.
 */
export function parseAmountBound(text: string): number | undefined | null {
  const t = text.trim();
  if (t === '') return undefined;
  const m = DECIMAL.exec(t);
  if (!m) return null;
  const [whole = '0', frac = ''] = t.split('.');
  const digits = `${whole}${frac.padEnd(COMMON_SCALE, '0')}`;
  const n = Number.parseInt(digits, 10);
  return Number.isSafeInteger(n) ? n : null;
}

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;

/** Local calendar date → UTC ISO instant of its local midnight (plus `days`). Undefined when invalid. */
export function localDateToIso(text: string, days = 0): string | undefined {
  const m = DATE.exec(text);
  if (!m) return undefined;
  const d = new Date(Number(m[1]), Number(m[2]) - 1, Number(m[3]) + days);
  return Number.isNaN(d.getTime()) ? undefined : d.toISOString();
}

/** Problems with the filter a person should see (the list then ignores the bad part). */
export function filterProblems(f: TransactionFilter): string[] {
  const out: string[] = [];
  const min = parseAmountBound(f.minAmount);
  const max = parseAmountBound(f.maxAmount);
  if (min === null) out.push('The minimum amount must be a plain number such as 10 or 10.50.');
  if (max === null) out.push('The maximum amount must be a plain number such as 10 or 10.50.');
  if (typeof min === 'number' && typeof max === 'number' && min > max)
    out.push('The minimum amount is above the maximum.');
  if (f.fromDate && f.toDate && f.fromDate > f.toDate) out.push('The start date is after the end date.');
  return out;
}

/** True when any criterion is set. */
export function isFilterActive(f: TransactionFilter): boolean {
  return (
    f.statuses.length + f.currencies.length + f.vendors.length > 0 ||
    [f.fromDate, f.toDate, f.minAmount, f.maxAmount, f.text].some((s) => s.trim() !== '')
  );
}

/**
 * Compiles a filter into one predicate (sets and bounds prepared once, not per row). Unparseable
 * bounds are ignored rather than hiding everything; filterProblems reports them.
 */
export function compileFilter(f: TransactionFilter): (row: ListRow) => boolean {
  const statuses = f.statuses.length ? new Set(f.statuses) : undefined;
  const currencies = f.currencies.length ? new Set(f.currencies) : undefined;
  const vendors = f.vendors.length ? new Set(f.vendors) : undefined;
  const from = f.fromDate ? localDateToIso(f.fromDate) : undefined;
  const toExclusive = f.toDate ? localDateToIso(f.toDate, 1) : undefined;
  const min = parseAmountBound(f.minAmount) ?? undefined;
  const max = parseAmountBound(f.maxAmount) ?? undefined;
  const text = f.text.trim().toLowerCase();
  return (row) => {
    if (statuses && !statuses.has(row.status)) return false;
    if (currencies && !currencies.has(row.currency)) return false;
    if (vendors && !vendors.has(row.vendor ?? '')) return false;
    // ISO instants of the same format compare correctly as strings.
    if (from && !(row.createdAt && row.createdAt >= from)) return false;
    if (toExclusive && !(row.createdAt && row.createdAt < toExclusive)) return false;
    if (min !== undefined && row.amountScaled < min) return false;
    if (max !== undefined && row.amountScaled > max) return false;
    if (text && !row.haystack.includes(text)) return false;
    return true;
  };
}

/** The rows that pass the filter, in their original order. */
export function applyFilter(rows: readonly ListRow[], f: TransactionFilter): ListRow[] {
  if (!isFilterActive(f)) return rows.slice();
  return rows.filter(compileFilter(f));
}

/** Distinct values of a field, sorted, for the filter's choices. */
export function distinctValues(rows: readonly ListRow[], pick: (r: ListRow) => string | undefined): string[] {
  const set = new Set<string>();
  for (const r of rows) {
    const v = pick(r);
    if (v) set.add(v);
  }
  return [...set].sort();
}
