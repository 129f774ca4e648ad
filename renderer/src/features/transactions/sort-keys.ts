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

/** The column's keys for these rows: built already (prepareKeys), or now. */
export function columnKeys(rows: readonly ListRow[], spec: ColumnSpec): ColumnKeys {
  return builderFor(rows, spec).finish();
}

/** Group ranks by list and grouping function. */
const groupsBy = new WeakMap<readonly ListRow[], Map<unknown, Uint32Array>>();

/** Builders by list and column; a finished builder holds its keys. */
const builders = new WeakMap<readonly ListRow[], Map<string, KeyBuilder>>();

function builderFor(rows: readonly ListRow[], spec: ColumnSpec): KeyBuilder {
  let byColumn = builders.get(rows);
  if (!byColumn) {
    byColumn = new Map();
    builders.set(rows, byColumn);
  }
  let b = byColumn.get(spec.id);
  if (!b) {
    b = new KeyBuilder(rows, spec);
    byColumn.set(spec.id, b);
  }
  return b;
}

/** True when the column's keys for these rows are built. */
export function hasKeys(rows: readonly ListRow[], spec: ColumnSpec): boolean {
  return builders.get(rows)?.get(spec.id)?.done ?? false;
}

/**
 * Builds these columns' keys a slice of rows at a time, with `pause()` between slices, so a million
 * rows are prepared without a long task; a sort asked for meanwhile finishes its column at once.
 */
export async function prepareKeys(
  rows: readonly ListRow[],
  specs: readonly ColumnSpec[],
  pause: () => Promise<void>,
  slice = KEY_SLICE,
): Promise<void> {
  for (const spec of specs) {
    const b = builderFor(rows, spec);
    while (!b.done) {
      b.step(slice);
      await pause();
    }
  }
}

/** Rows per slice of prepareKeys: about 10–20 ms of work on a slow machine. */
export const KEY_SLICE = 25_000;

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
 * One pass over the rows, a slice at a time, encoding as it goes in the mode the first value suggests;
 * a value that does not fit (a fraction among integers, a string that is not an ISO instant) starts
 * over in a mode that takes every value. No array of the values is made: at 1M rows that cost more
 * than the encoding.
 */
class KeyBuilder {
  private next = 0;
  private mode: Mode | undefined;
  private lo: Uint32Array;
  private hi: Uint32Array;
  private missing: Uint32Array | null = null;
  private ranks: Ranker;
  private groups: Ranker | undefined;
  private keys: ColumnKeys | undefined;
  private readonly f = new Float64Array(1);
  private readonly u = new Uint32Array(this.f.buffer);

  constructor(
    private readonly rows: readonly ListRow[],
    private readonly spec: ColumnSpec,
  ) {
    this.lo = new Uint32Array(rows.length);
    this.hi = new Uint32Array(rows.length);
    this.ranks = new Ranker(rows.length);
    this.groups = this.needsGroups() ? new Ranker(rows.length) : undefined;
    if (spec.id === 'transactionNo') this.keys = numberKeys(rows);
  }

  /** Grouped, and no other column has ranked these rows' groups by the same function yet. */
  private needsGroups(): boolean {
    const by = this.spec.sortGroup;
    return by !== undefined && !groupsBy.get(this.rows)?.has(by);
  }

  get done(): boolean {
    return this.keys !== undefined;
  }

  /** Starts over in `mode`. */
  private restart(mode: Mode): void {
    this.next = 0;
    this.mode = mode;
    this.lo.fill(0);
    this.hi.fill(0);
    this.missing = null;
    this.ranks = new Ranker(this.rows.length);
    this.groups = this.needsGroups() ? new Ranker(this.rows.length) : undefined;
  }

  /** Encodes up to `count` more rows. */
  step(count: number): void {
    if (this.keys) return;
    const { rows, spec, f, u } = this;
    const n = rows.length;
    const end = Math.min(n, this.next + count);
    for (let i = this.next; i < end; i += 1) {
      const row = rows[i]!;
      if (this.groups && spec.sortGroup) this.groups.add(i, spec.sortGroup(row));
      const v = spec.sortValue(row);
      if (v === undefined) {
        (this.missing ??= new Uint32Array(n))[i] = 1;
        continue;
      }
      this.mode ??= typeof v === 'number' ? 'int' : isIsoInstant(v) ? 'iso' : 'rank';
      const mode = this.mode;
      if (mode === 'int') {
        if (typeof v !== 'number') return this.restart('rank');
        if (!(v >= 0 && Number.isSafeInteger(v))) return this.restart('float');
        this.hi[i] = Math.floor(v / TWO_32);
        this.lo[i] = v >>> 0;
      } else if (mode === 'float') {
        if (typeof v !== 'number') return this.restart('rank');
        // The bits of the double, flipped so that unsigned order is numeric order; -0 sorts as 0, as
        // a - b says. Little-endian (every platform Chromium runs on): sign and exponent are in u[1].
        f[0] = v === 0 ? 0 : v;
        if (u[1]! & 0x80000000) {
          this.hi[i] = ~u[1]! >>> 0;
          this.lo[i] = ~u[0]! >>> 0;
        } else {
          this.hi[i] = (u[1]! | 0x80000000) >>> 0;
          this.lo[i] = u[0]!;
        }
      } else if (mode === 'iso') {
        if (typeof v !== 'string' || !isIsoInstant(v)) return this.restart('rank');
        // Fixed-width digit fields compare as their digit strings do: YYYYMMDD above, hhmmssSSS below.
        this.hi[i] = digits(v, 0, 4) * 10_000 + digits(v, 5, 2) * 100 + digits(v, 8, 2);
        this.lo[i] =
          digits(v, 11, 2) * 10_000_000 +
          digits(v, 14, 2) * 100_000 +
          digits(v, 17, 2) * 1000 +
          digits(v, 20, 3);
      } else this.ranks.add(i, v);
    }
    this.next = end;
    if (end < n) return;
    if (this.mode === 'rank') this.ranks.write(this.lo, this.missing);
    let group: Uint32Array | null = null;
    if (spec.sortGroup) {
      // Columns grouped by the same function (money: by currency) share one array of group ranks.
      const shared = groupsBy.get(rows) ?? new Map<unknown, Uint32Array>();
      groupsBy.set(rows, shared);
      group = shared.get(spec.sortGroup) ?? null;
      if (!group) {
        group = new Uint32Array(n);
        // Ranked here unless another column finished ranking them while this one was being built.
        (this.groups ?? rankAll(rows, spec.sortGroup)).write(group, null);
        shared.set(spec.sortGroup, group);
      }
    }
    this.keys = { lo: this.lo, hi: constant(this.hi) ? null : this.hi, missing: this.missing, group };
  }

  finish(): ColumnKeys {
    while (!this.keys) this.step(this.rows.length);
    return this.keys;
  }
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

function rankAll(rows: readonly ListRow[], pick: (r: ListRow) => string): Ranker {
  const r = new Ranker(rows.length);
  for (let i = 0; i < rows.length; i += 1) r.add(i, pick(rows[i]!));
  return r;
}
