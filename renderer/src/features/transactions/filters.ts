import { isKnownCurrency } from '../../../../shared/domain/currencies';
import { MoneyParseError, parseMinor } from '../../../../shared/domain/money';
import { dayStartInZone } from '../../../../shared/domain/zones';
import type { ListRow } from '../../db/owner';

/** What the person filters the list by. Empty arrays and empty strings mean "any". */
export interface TransactionFilter {
  statuses: string[];
  /** Derived refund states (RefundedState); a refund record, which has none, never matches. */
  refunded: string[];
  currencies: string[];
  vendors: string[];
  /** Calendar dates, YYYY-MM-DD, both inclusive (created time), in the chosen time zone. */
  fromDate: string;
  toDate: string;
  /** Plain decimals in the one chosen currency, both inclusive. */
  minAmount: string;
  maxAmount: string;
  /** Substring of transactionNo, reference, refund numbers or refund references. */
  text: string;
}

export const EMPTY_FILTER: TransactionFilter = {
  statuses: [],
  refunded: [],
  currencies: [],
  vendors: [],
  fromDate: '',
  toDate: '',
  minAmount: '',
  maxAmount: '',
  text: '',
};

/** What the filter is read against: the zone its dates are in, and the currencies cached. */
export interface FilterContext {
  /** IANA zone of the dates (the person's chosen zone). */
  zone: string;
  /** Every currency in the cache: with only one, amounts can be filtered without choosing it. */
  cachedCurrencies: readonly string[];
}

/**
 * The one currency amount bounds are in: the currency filter's single choice, or the only currency
 * cached. Amounts in different currencies do not compare (10 means ten dollars or ten rupiah), so with
 * several currencies and none chosen there is none, and the amount filter says it needs one.
 */
export function amountCurrency(f: TransactionFilter, ctx: Pick<FilterContext, 'cachedCurrencies'>) {
  if (f.currencies.length === 1) return f.currencies[0];
  if (f.currencies.length === 0 && ctx.cachedCurrencies.length === 1) return ctx.cachedCurrencies[0];
  return undefined;
}

/**
 * Parses an amount bound exactly in the currency's minor units (no floats). Undefined for empty text,
 * null for text that is not a plain non-negative amount in that currency.
 */
export function parseAmountBound(text: string, currency: string): number | undefined | null {
  const t = text.trim();
  if (t === '') return undefined;
  if (t.startsWith('-') || !isKnownCurrency(currency)) return null;
  try {
    return parseMinor(t, currency);
  } catch (e) {
    if (e instanceof MoneyParseError) return null;
    throw e;
  }
}

/** Problems with the filter a person should see (the list then ignores the bad part). */
export function filterProblems(f: TransactionFilter, ctx: Pick<FilterContext, 'cachedCurrencies'>): string[] {
  const out: string[] = [];
  const hasBounds = f.minAmount.trim() !== '' || f.maxAmount.trim() !== '';
  const currency = amountCurrency(f, ctx);
  if (hasBounds && !currency) {
    out.push('Choose one currency to filter by amount: amounts in different currencies do not compare.');
  } else if (currency) {
    const min = parseAmountBound(f.minAmount, currency);
    const max = parseAmountBound(f.maxAmount, currency);
    const example = currency === 'JPY' || currency === 'KRW' || currency === 'IDR' ? '1000' : '10.50';
    if (min === null) out.push(`The minimum must be a plain ${currency} amount such as ${example}.`);
    if (max === null) out.push(`The maximum must be a plain ${currency} amount such as ${example}.`);
    if (typeof min === 'number' && typeof max === 'number' && min > max)
      out.push('The minimum amount is above the maximum.');
  }
  if (f.fromDate && f.toDate && f.fromDate > f.toDate) out.push('The start date is after the end date.');
  return out;
}

/** True when any criterion is set. */
export function isFilterActive(f: TransactionFilter): boolean {
  return (
    f.statuses.length + f.refunded.length + f.currencies.length + f.vendors.length > 0 ||
    [f.fromDate, f.toDate, f.minAmount, f.maxAmount, f.text].some((s) => s.trim() !== '')
  );
}

/**
 * Compiles a filter into one predicate (sets and bounds prepared once, not per row). Unusable bounds
 * are ignored rather than hiding everything; filterProblems reports them.
 */
export function compileFilter(f: TransactionFilter, ctx: FilterContext): (row: ListRow) => boolean {
  const statuses = f.statuses.length ? new Set(f.statuses) : undefined;
  const refunded = f.refunded.length ? new Set(f.refunded) : undefined;
  const currencies = f.currencies.length ? new Set(f.currencies) : undefined;
  const vendors = f.vendors.length ? new Set(f.vendors) : undefined;
  const fromMs = f.fromDate ? dayStartInZone(f.fromDate, ctx.zone) : undefined;
  const toMs = f.toDate ? dayStartInZone(f.toDate, ctx.zone, 1) : undefined;
  const from = fromMs === undefined ? undefined : new Date(fromMs).toISOString();
  const toExclusive = toMs === undefined ? undefined : new Date(toMs).toISOString();
  const currency = amountCurrency(f, ctx);
  const min = currency ? (parseAmountBound(f.minAmount, currency) ?? undefined) : undefined;
  const max = currency ? (parseAmountBound(f.maxAmount, currency) ?? undefined) : undefined;
  const text = f.text.trim().toLowerCase();
  return (row) => {
    if (statuses && !statuses.has(row.status)) return false;
    if (refunded && !(row.refunded && refunded.has(row.refunded))) return false;
    if (currencies && !currencies.has(row.currency)) return false;
    if (vendors && !vendors.has(row.vendor ?? '')) return false;
    // ISO instants of the same format compare correctly as strings.
    if (from && !(row.createdAt && row.createdAt >= from)) return false;
    if (toExclusive && !(row.createdAt && row.createdAt < toExclusive)) return false;
    if ((min !== undefined || max !== undefined) && row.currency !== currency) return false;
    if (min !== undefined && row.amountMinor < min) return false;
    if (max !== undefined && row.amountMinor > max) return false;
    if (text && !row.haystack.includes(text)) return false;
    return true;
  };
}

/** The rows that pass the filter, in their original order. */
export function applyFilter(rows: readonly ListRow[], f: TransactionFilter, ctx: FilterContext): ListRow[] {
  if (!isFilterActive(f)) return rows.slice();
  return rows.filter(compileFilter(f, ctx));
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
