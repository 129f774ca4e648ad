/**
 * A chunk of a run's ledger rows as columns (recon_inputs, kind 'row', since schema v12): one JSON array
 * per field of LedgerRow instead of one JSON object per row. The object form wrote and parsed every
 * key again for every row — at a million rows 190 MB of text, written when the ledger is handed over
 * and parsed again for the run and for every report item that refers to a row (./item-codec.ts). Few
 * valued fields (currency, status, the status as written) are dictionary coded.
 *
 * The stored text starts with `{`; a chunk stored as objects (every chunk before v12, and any chunk
 * whose entries are not plain ledger rows) is a JSON array and starts with `[`, and reads as before.
 * A chunk reads back exactly as handed over (test/unit/adapters/ledger-columns.property.test.ts).
 *
 * Since schema v13 a chunk is written smaller (at a million rows 89 MB became about half, written once
 * into the log and once into the file): the dates are dictionary coded too (a ledger's are a period's
 * days), `day` is the string "date" when every row's day is its date, and `rf` and `kn` are left out
 * when no row has one. A chunk written by v12 (every column an array) reads as before.
 */
import type { LedgerRow } from '../../../../shared/recon/ledger';

/** The stored shape; short names, written once per chunk. */
interface Columns {
  n: number;
  line: number[];
  no: Array<string | null>;
  ref: Array<string | null>;
  amt: number[];
  cur: Dict;
  /** An array (v12) or dictionary coded (v13). */
  date: Array<string | null> | Dict;
  /** As `date`, or (v13) 'date': each row's day is its date. */
  day: Array<string | null> | Dict | 'date';
  st: Dict;
  stx: Dict;
  /** Left out (v13) when no row has one. */
  rf?: Array<number | null>;
  kn?: Array<string | null>;
}

/** Distinct values once, then one index per row (-1: absent). */
interface Dict {
  d: string[];
  i: number[];
}

/** The fields of LedgerRow that are strings when present. */
const STRINGS = ['transactionNo', 'reference', 'date', 'day', 'statusText', 'keyNote'] as const;

/**
 * Whether `e` is a row this layout gives back exactly: known fields only, each of its type, none
 * present as undefined. Counted instead of looked up: the fields it has that are known and defined
 * must be all the keys it has (a key of another name, or one set to undefined, makes the counts
 * differ) — one pass over its keys without a lookup per key, at a million rows.
 */
function plainRow(e: unknown): e is LedgerRow {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  if (Object.getPrototypeOf(e) !== Object.prototype) return false;
  const r = e as Record<string, unknown>;
  if (typeof r['line'] !== 'number' || typeof r['amountMinor'] !== 'number') return false;
  if (typeof r['currency'] !== 'string' || typeof r['status'] !== 'string') return false;
  let known = 4;
  const rf = r['refundedMinor'];
  if (rf !== undefined) {
    if (typeof rf !== 'number') return false;
    known += 1;
  }
  for (const k of STRINGS) {
    const v = r[k];
    if (v === undefined) continue;
    if (typeof v !== 'string') return false;
    known += 1;
  }
  let keys = 0;
  for (const _ in r) keys += 1;
  return keys === known;
}

/** Distinct values once (`d`), and each row's index into them (`i`, -1: absent). */
class DictWriter {
  readonly col: Dict;
  private readonly ids = new Map<string, number>();
  // The value of the row before and its index: rows often repeat it, and then no lookup is made.
  private last: string | undefined;
  private lastId = -1;

  constructor(n: number) {
    this.col = { d: [], i: new Array<number>(n) };
  }

  set(row: number, v: string | undefined): void {
    if (v === undefined) {
      this.col.i[row] = -1;
      return;
    }
    if (v === this.last) {
      this.col.i[row] = this.lastId;
      return;
    }
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.col.d.length;
      this.ids.set(v, id);
      this.col.d.push(v);
    }
    this.last = v;
    this.lastId = id;
    this.col.i[row] = id;
  }
}

/**
 * The chunk as columns; undefined when an entry is not a plain ledger row (stored as JSON then).
 * Each column is made at its size and filled in one walk over the rows.
 */
export function encodeLedgerColumns(entries: readonly unknown[]): string | undefined {
  for (let i = 0; i < entries.length; i += 1) if (!plainRow(entries[i])) return undefined;
  const rows = entries as readonly LedgerRow[];
  const n = rows.length;
  const cur = new DictWriter(n);
  const st = new DictWriter(n);
  const stx = new DictWriter(n);
  const date = new DictWriter(n);
  const day = new DictWriter(n);
  const line = new Array<number>(n);
  const no = new Array<string | null>(n);
  const ref = new Array<string | null>(n);
  const amt = new Array<number>(n);
  const rf = new Array<number | null>(n);
  const kn = new Array<string | null>(n);
  let dayIsDate = true;
  let anyRf = false;
  let anyKn = false;
  for (let i = 0; i < n; i += 1) {
    const r = rows[i]!;
    line[i] = r.line;
    no[i] = r.transactionNo ?? null;
    ref[i] = r.reference ?? null;
    amt[i] = r.amountMinor;
    cur.set(i, r.currency);
    date.set(i, r.date);
    if (r.day !== r.date) dayIsDate = false;
    st.set(i, r.status);
    stx.set(i, r.statusText);
    const refunded = r.refundedMinor;
    rf[i] = refunded ?? null;
    if (refunded !== undefined) anyRf = true;
    const note = r.keyNote;
    kn[i] = note ?? null;
    if (note !== undefined) anyKn = true;
  }
  // The day column is written only when some row's day is not its date; then it is made whole.
  if (!dayIsDate) for (let i = 0; i < n; i += 1) day.set(i, rows[i]!.day);
  const c: Columns = {
    n,
    line,
    no,
    ref,
    amt,
    cur: cur.col,
    date: date.col,
    day: dayIsDate ? 'date' : day.col,
    st: st.col,
    stx: stx.col,
  };
  if (anyRf) c.rf = rf;
  if (anyKn) c.kn = kn;
  return JSON.stringify(c);
}

/** A column of strings as stored (an array, or dictionary coded), as an array (null: absent). */
function strings(col: Array<string | null> | Dict, n: number): Array<string | null> {
  if (Array.isArray(col)) return col;
  const out = new Array<string | null>(n);
  for (let i = 0; i < n; i += 1) {
    const id = col.i[i]!;
    out[i] = id >= 0 ? col.d[id]! : null;
  }
  return out;
}

/** Thrown for stored text that is not a chunk of this layout (a damaged row). */
export class LedgerColumnsError extends Error {
  override name = 'LedgerColumnsError';
}

/** A stored chunk of rows: columns (`{`) or, as before v12, the JSON of the rows (`[`). */
export function decodeLedgerChunk(text: string): LedgerRow[] {
  if (text.charCodeAt(0) !== 123 /* { */) return JSON.parse(text) as LedgerRow[];
  const c = JSON.parse(text) as Columns;
  if (!Array.isArray(c.line) || c.line.length !== c.n)
    throw new LedgerColumnsError('a stored chunk of the ledger is not in the columns layout');
  const out = new Array<LedgerRow>(c.n);
  const cur = c.cur.d;
  const st = c.st.d;
  const stx = c.stx.d;
  const dates = strings(c.date, c.n);
  const days = c.day === 'date' ? dates : strings(c.day, c.n);
  for (let i = 0; i < c.n; i += 1) {
    const transactionNo = c.no[i];
    const reference = c.ref[i];
    const date = dates[i];
    const day = days[i];
    const sx = c.stx.i[i]!;
    const rf = c.rf?.[i];
    const kn = c.kn?.[i];
    const line = c.line[i]!;
    const amountMinor = c.amt[i]!;
    const currency = cur[c.cur.i[i]!] as LedgerRow['currency'];
    const status = st[c.st.i[i]!] as LedgerRow['status'];
    if (
      transactionNo != null &&
      reference != null &&
      date != null &&
      day != null &&
      sx >= 0 &&
      rf == null &&
      kn == null
    ) {
      // The usual row, made in one piece (the importer's order, shared/recon/ledger.ts).
      out[i] = {
        line,
        amountMinor,
        currency,
        status,
        transactionNo,
        reference,
        date,
        day,
        statusText: stx[sx]!,
      };
      continue;
    }
    const row: LedgerRow = { line, amountMinor, currency, status };
    if (transactionNo != null) row.transactionNo = transactionNo;
    if (reference != null) row.reference = reference;
    if (date != null) row.date = date;
    if (day != null) row.day = day;
    if (sx >= 0) row.statusText = stx[sx]!;
    if (rf != null) row.refundedMinor = rf;
    if (kn != null) row.keyNote = kn;
    out[i] = row;
  }
  return out;
}
