import type { ListRow } from '../../db/owner';
import type { ColumnSpec } from './columns';

/**
 * One column's sort keys over a list's rows, as typed arrays indexed by row (sorting.ts sorts row
 * indexes by them with a radix sort). Built once per column per list and kept while the list is the
 * same array: the other direction, and every later sort by the column, reuse them.
 *
 * Values are encoded so that unsigned order of (hi, lo) is exactly the order the list has always used
 * (compare() in sorting.ts): numbers numerically, strings by UTF-16 code units. ISO instants of the one
 * shape the cache holds compare as their digits do, so they are read as two numbers (the date's digits
 * and the time of day's) instead of being ranked as strings.
 */
export interface ColumnKeys {
  /** Low 32 bits of each row's value (ascending order of the column). */
  lo: Uint32Array;
  /** High 32 bits, or null when every row has the same (no pass needed). */
  hi: Uint32Array | null;
  /** 1 where the row has no value (sorted last in both directions), or null when none is missing. */
  missing: Uint32Array | null;
  /** Rank of the row's group (money: its currency, A–Z), or null when the column has no groups. */
  group: Uint32Array | null;
}

const TWO_32 = 2 ** 32;
const cache = new WeakMap<readonly ListRow[], Map<string, ColumnKeys>>();

/** The column's keys for these rows, built on first use. */
export function columnKeys(rows: readonly ListRow[], spec: ColumnSpec): ColumnKeys {
  let byColumn = cache.get(rows);
  if (!byColumn) {
    byColumn = new Map();
    cache.set(rows, byColumn);
  }
  let keys = byColumn.get(spec.id);
  if (!keys) {
    keys = spec.id === 'transactionNo' ? numberKeys(rows) : buildKeys(rows, spec);
    byColumn.set(spec.id, keys);
  }
  return keys;
}

/** Rows by transaction number (the last tie-break of every order), kept per list. */
const byNumber = new WeakMap<readonly ListRow[], Uint32Array>();

/**
 * Row indexes in transaction-number order. The list is read in that order (the primary key), so this
 * is usually 0…n-1 after one check; rows merged in later (appended) are sorted on their own and merged.
 */
export function numberOrder(rows: readonly ListRow[]): Uint32Array {
  const known = byNumber.get(rows);
  if (known) return known;
  const n = rows.length;
  let sorted = 1;
  while (sorted < n && rows[sorted - 1]!.transactionNo < rows[sorted]!.transactionNo) sorted += 1;
  const out = new Uint32Array(n);
  if (sorted >= n) {
    for (let i = 0; i < n; i += 1) out[i] = i;
  } else {
    const tail = Array.from({ length: n - sorted }, (_, i) => sorted + i);
    const no = (i: number) => rows[i]!.transactionNo;
    tail.sort((a, b) => (no(a) < no(b) ? -1 : no(a) > no(b) ? 1 : 0));
    let a = 0;
    let b = 0;
    for (let i = 0; i < n; i += 1)
      out[i] = b >= tail.length || (a < sorted && no(a) <= no(tail[b]!)) ? a++ : tail[b++]!;
  }
  byNumber.set(rows, out);
  return out;
}

/** The transaction number's keys: each row's place in number order (no string is ranked again). */
function numberKeys(rows: readonly ListRow[]): ColumnKeys {
  const order = numberOrder(rows);
  const lo = new Uint32Array(rows.length);
  for (let r = 0; r < order.length; r += 1) lo[order[r]!] = r;
  return { lo, hi: null, missing: null, group: null };
}

type Mode = 'int' | 'float' | 'iso' | 'rank';

/**
 * One pass over the rows, encoding as it goes in the mode the first value suggests; a value that does
 * not fit (a fraction among integers, a string that is not an ISO instant) starts over in a mode that
 * takes every value. No array of the values is made: at 1M rows it cost more than the encoding.
 */
function buildKeys(rows: readonly ListRow[], spec: ColumnSpec, forced?: Mode): ColumnKeys {
  const n = rows.length;
  const lo = new Uint32Array(n);
  const hi = new Uint32Array(n);
  let missing: Uint32Array | null = null;
  let mode = forced;
  const ranks = new Ranker(n);
  const f = new Float64Array(1);
  const u = new Uint32Array(f.buffer);
  for (let i = 0; i < n; i += 1) {
    const v = spec.sortValue(rows[i]!);
    if (v === undefined) {
      missing ??= new Uint32Array(n);
      missing[i] = 1;
      continue;
    }
    mode ??= typeof v === 'number' ? 'int' : isIsoInstant(v) ? 'iso' : 'rank';
    if (mode === 'int') {
      if (typeof v !== 'number') return buildKeys(rows, spec, 'rank');
      if (!(v >= 0 && Number.isSafeInteger(v))) return buildKeys(rows, spec, 'float');
      hi[i] = Math.floor(v / TWO_32);
      lo[i] = v >>> 0;
    } else if (mode === 'float') {
      if (typeof v !== 'number') return buildKeys(rows, spec, 'rank');
      // The bits of the double, flipped so that unsigned order is numeric order; -0 sorts as 0, as
      // a - b says. Little-endian (every platform Chromium runs on): sign and exponent are in u[1].
      f[0] = v === 0 ? 0 : v;
      if (u[1]! & 0x80000000) {
        hi[i] = ~u[1]! >>> 0;
        lo[i] = ~u[0]! >>> 0;
      } else {
        hi[i] = (u[1]! | 0x80000000) >>> 0;
        lo[i] = u[0]!;
      }
    } else if (mode === 'iso') {
      if (typeof v !== 'string' || !isIsoInstant(v)) return buildKeys(rows, spec, 'rank');
      // Fixed-width digit fields compare as their digit strings do: YYYYMMDD above, hhmmssSSS below.
      hi[i] = digits(v, 0, 4) * 10_000 + digits(v, 5, 2) * 100 + digits(v, 8, 2);
      lo[i] =
        digits(v, 11, 2) * 10_000_000 +
        digits(v, 14, 2) * 100_000 +
        digits(v, 17, 2) * 1000 +
        digits(v, 20, 3);
    } else ranks.add(i, v);
  }
  if (mode === 'rank') ranks.write(lo, missing);
  return {
    lo,
    hi: constant(hi) ? null : hi,
    missing,
    group: spec.sortGroup ? groupRanks(rows, spec.sortGroup) : null,
  };
}

function constant(a: Uint32Array): boolean {
  const first = a[0];
  for (let i = 1; i < a.length; i += 1) if (a[i] !== first) return false;
  return true;
}

const ISO_SHAPE = '0000-00-00T00:00:00.000Z';

/** "2026-08-01T12:00:00.000Z": the one shape of instant the cache holds (Date.toISOString). */
function isIsoInstant(s: string): boolean {
  if (s.length !== 24) return false;
  for (let i = 0; i < 24; i += 1) {
    const c = s.charCodeAt(i);
    const want = ISO_SHAPE.charCodeAt(i);
    if (want === 48 /* 0 */ ? c < 48 || c > 57 : c !== want) return false;
  }
  return true;
}

function digits(s: string, at: number, count: number): number {
  let v = 0;
  for (let i = at; i < at + count; i += 1) v = v * 10 + (s.charCodeAt(i) - 48);
  return v;
}

/**
 * Any other values: each distinct one's rank among them, in the order compare() gives. Distinct values
 * are few in most such columns (statuses, vendors, currencies), so what is sorted is those, not rows.
 */
class Ranker {
  private readonly ids = new Map<string | number, number>();
  private readonly distinct: Array<string | number> = [];
  private ofRow: Uint32Array | undefined;

  constructor(private readonly n: number) {}

  add(i: number, v: string | number): void {
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.distinct.length;
      this.ids.set(v, id);
      this.distinct.push(v);
    }
    (this.ofRow ??= new Uint32Array(this.n))[i] = id;
  }

  /** Each row's rank into `out` (rows flagged in `missing` are left alone). */
  write(out: Uint32Array, missing: Uint32Array | null): void {
    const { distinct } = this;
    const order = distinct.map((_, i) => i);
    order.sort((a, b) => {
      const x = distinct[a]!;
      const y = distinct[b]!;
      if (typeof x === 'number' && typeof y === 'number') return x - y;
      return String(x) < String(y) ? -1 : String(x) > String(y) ? 1 : 0;
    });
    const rank = new Uint32Array(distinct.length);
    order.forEach((id, r) => (rank[id] = r));
    const ofRow = this.ofRow;
    if (!ofRow) return;
    for (let i = 0; i < out.length; i += 1) if (!missing?.[i]) out[i] = rank[ofRow[i]!]!;
  }
}

/** Groups (currencies) ranked A–Z. */
function groupRanks(rows: readonly ListRow[], pick: (r: ListRow) => string): Uint32Array {
  const ranks = new Ranker(rows.length);
  for (let i = 0; i < rows.length; i += 1) ranks.add(i, pick(rows[i]!));
  const out = new Uint32Array(rows.length);
  ranks.write(out, null);
  return out;
}
