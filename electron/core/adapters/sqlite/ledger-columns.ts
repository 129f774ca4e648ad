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

const KEYS = new Set([
  'line',
  'transactionNo',
  'reference',
  'amountMinor',
  'currency',
  'date',
  'day',
  'status',
  'statusText',
  'refundedMinor',
  'keyNote',
]);
const STRINGS = ['transactionNo', 'reference', 'currency', 'date', 'day', 'status', 'statusText', 'keyNote'];

/** Whether `e` is a row this layout gives back exactly: known fields only, each of its type. */
function plainRow(e: unknown): e is LedgerRow {
  if (typeof e !== 'object' || e === null || Array.isArray(e)) return false;
  const r = e as Record<string, unknown>;
  for (const k in r) if (!KEYS.has(k) || r[k] === undefined) return false;
  if (typeof r['line'] !== 'number' || typeof r['amountMinor'] !== 'number') return false;
  if (typeof r['currency'] !== 'string' || typeof r['status'] !== 'string') return false;
  if (r['refundedMinor'] !== undefined && typeof r['refundedMinor'] !== 'number') return false;
  for (const k of STRINGS) if (r[k] !== undefined && typeof r[k] !== 'string') return false;
  return Object.getPrototypeOf(r) === Object.prototype;
}

function dictWriter(): { col: Dict; add(v: string | undefined): void } {
  const ids = new Map<string, number>();
  const col: Dict = { d: [], i: [] };
  return {
    col,
    add(v) {
      if (v === undefined) {
        col.i.push(-1);
        return;
      }
      let id = ids.get(v);
      if (id === undefined) {
        id = col.d.length;
        ids.set(v, id);
        col.d.push(v);
      }
      col.i.push(id);
    },
  };
}

/** The chunk as columns; undefined when an entry is not a plain ledger row (stored as JSON then). */
export function encodeLedgerColumns(entries: readonly unknown[]): string | undefined {
  for (const e of entries) if (!plainRow(e)) return undefined;
  const rows = entries as readonly LedgerRow[];
  const cur = dictWriter();
  const st = dictWriter();
  const stx = dictWriter();
  const date = dictWriter();
  const day = dictWriter();
  const rf: Array<number | null> = [];
  const kn: Array<string | null> = [];
  let dayIsDate = true;
  let anyRf = false;
  let anyKn = false;
  const c: Columns = {
    n: rows.length,
    line: [],
    no: [],
    ref: [],
    amt: [],
    cur: cur.col,
    date: date.col,
    day: day.col,
    st: st.col,
    stx: stx.col,
  };
  for (const r of rows) {
    c.line.push(r.line);
    c.no.push(r.transactionNo ?? null);
    c.ref.push(r.reference ?? null);
    c.amt.push(r.amountMinor);
    cur.add(r.currency);
    date.add(r.date);
    day.add(r.day);
    if (r.day !== r.date) dayIsDate = false;
    st.add(r.status);
    stx.add(r.statusText);
    rf.push(r.refundedMinor ?? null);
    kn.push(r.keyNote ?? null);
    if (r.refundedMinor !== undefined) anyRf = true;
    if (r.keyNote !== undefined) anyKn = true;
  }
  if (dayIsDate) c.day = 'date';
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
