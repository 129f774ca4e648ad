import type { ListRow } from './list-row';

/** Running sums of one currency: every status, and successful payments only. */
export interface CurrencySums {
  allCount: number;
  allGross: number;
  allRefunded: number;
  successCount: number;
  successGross: number;
  successRefunded: number;
}

/**
 * What the list needs to know about all of its rows beyond the rows themselves, gathered in one pass
 * (and, while the cache is read page by page, one page at a time): the filter's choices, what each
 * column will have to show at its widest (column-widths.ts measures these few texts, never the rows),
 * and the per-currency sums the totals strip shows when nothing is filtered.
 */
export interface ListStats {
  count: number;
  currencies: Set<string>;
  vendors: Set<string>;
  longestNo: string;
  longestReference: string;
  /** Every status the rows have, with the refund states seen beside it. */
  statuses: Map<string, Set<string | undefined>>;
  /** The largest amount, refunded and refundable amount of each currency. */
  widestMoney: Map<string, { amount: number; refunded: number; remaining: number }>;
  sums: Map<string, CurrencySums>;
  /** A sum left the safe-integer range: the totals are computed (and refused) row by row instead. */
  unsafe: boolean;
}

export function emptyStats(): ListStats {
  return {
    count: 0,
    currencies: new Set(),
    vendors: new Set(),
    longestNo: '',
    longestReference: '',
    statuses: new Map(),
    widestMoney: new Map(),
    sums: new Map(),
    unsafe: false,
  };
}

/** total + v, noting (as totals.ts refuses) a sum that leaves the safe-integer range. */
function add(s: ListStats, total: number, v: number): number {
  const sum = total + v;
  if (sum > Number.MAX_SAFE_INTEGER || sum < -Number.MAX_SAFE_INTEGER) s.unsafe = true;
  return sum;
}

/** Adds rows[from, to) to `s`. */
export function addToStats(s: ListStats, rows: readonly ListRow[], from = 0, to = rows.length): ListStats {
  for (let i = from; i < to; i += 1) {
    const r = rows[i]!;
    s.count += 1;
    s.currencies.add(r.currency);
    if (r.vendor) s.vendors.add(r.vendor);
    if (r.transactionNo.length > s.longestNo.length) s.longestNo = r.transactionNo;
    if (r.reference && r.reference.length > s.longestReference.length) s.longestReference = r.reference;
    let refunded = s.statuses.get(r.status);
    if (!refunded) s.statuses.set(r.status, (refunded = new Set()));
    refunded.add(r.refunded);
    let w = s.widestMoney.get(r.currency);
    if (!w) s.widestMoney.set(r.currency, (w = { amount: -1, refunded: -1, remaining: -1 }));
    const amount = Math.abs(r.amountMinor);
    if (amount > w.amount) w.amount = amount;
    const back = Math.abs(r.refundedMinor);
    if (back > w.refunded) w.refunded = back;
    const left = Math.abs(r.remainingMinor);
    if (left > w.remaining) w.remaining = left;
    let m = s.sums.get(r.currency);
    if (!m) {
      m = { allCount: 0, allGross: 0, allRefunded: 0, successCount: 0, successGross: 0, successRefunded: 0 };
      s.sums.set(r.currency, m);
    }
    m.allCount += 1;
    m.allGross = add(s, m.allGross, r.amountMinor);
    m.allRefunded = add(s, m.allRefunded, r.refundedMinor);
    if (r.status === 'success') {
      m.successCount += 1;
      m.successGross = add(s, m.successGross, r.amountMinor);
      m.successRefunded = add(s, m.successRefunded, r.refundedMinor);
    }
  }
  return s;
}

const known = new WeakMap<readonly ListRow[], ListStats>();

/** The stats of these rows: gathered already while they were read, or now in one pass. */
export function statsOf(rows: readonly ListRow[]): ListStats {
  let s = known.get(rows);
  if (!s) {
    s = addToStats(emptyStats(), rows);
    known.set(rows, s);
  }
  return s;
}

/** Records stats gathered while `rows` were read, so statsOf need not pass over them again. */
export function rememberStats(rows: readonly ListRow[], s: ListStats): void {
  known.set(rows, s);
}
