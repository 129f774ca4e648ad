/**
 * One window of the service's list as columns (schema v10, layout 'columns' of recon_windows): one JSON
 * array per field of Transaction instead of one JSON object per payment. At a million payments the
 * object form is 284 MB of text whose every key is parsed again for every payment, and whose every
 * currency, status and type is a string of its own; here
 * - a field is one array, so no key is written or parsed per payment;
 * - a field of few values (currencies, statuses, types, vendors) is dictionary coded: the distinct
 *   values once, then one small integer per payment, and every payment shares the dictionary's strings;
 * - refunds are flat columns of their own, with each payment's count.
 *
 * Since schema v14 the columns are written packed (encodeListColumns, see "Packed" below): a number or
 * dictionary column is the base64 of a typed array instead of a JSON array of numbers (ten of them a
 * payment, parsed one by one and then held as arrays of a million entries), and a column of strings
 * none of which is present is not written at all. Windows stored as JSON columns (v10–v13) are read
 * as before.
 *
 * It round-trips a window exactly: every field of the schema, an optional field absent stays absent
 * (null in a column), '' stays ''. test/unit/adapters/list-columns.property.test.ts checks that.
 */
import type { Currency } from '../../../../shared/domain/currencies';
import type { RefundRecord, Transaction } from '../../../../shared/domain/transaction';

/** A dictionary-coded column: the distinct values, then one index per entry (-1: absent). */
interface DictColumn {
  d: string[];
  i: number[];
}

/** A dictionary-coded column as read: entry `at` is `d[i[at] - o]`, absent when that is negative. */
interface ReadDict {
  d: readonly string[];
  i: ArrayLike<number>;
  /** What an index is offset by: 0 in the JSON layout (-1 absent), 1 packed (0 absent, unsigned). */
  o: number;
}

/** A column of optional strings as read: null (or undefined) for an absent value. */
type Strings = ArrayLike<string | null | undefined>;

/** The columns as read, from either stored form: numbers may be typed arrays, dictionaries offset. */
interface ReadColumns {
  n: number;
  no: ArrayLike<string>;
  ref: Strings;
  amt: ArrayLike<number>;
  cur: ReadDict;
  scur: ReadDict;
  st: ReadDict;
  ven: ReadDict;
  typ: ReadDict;
  cat: Strings;
  pat: Strings;
  c4: Strings;
  rn: ArrayLike<number>;
  rno: ArrayLike<string>;
  rref: Strings;
  ramt: ArrayLike<number>;
  rcur: ReadDict;
  rscur: ReadDict;
  rst: ReadDict;
  rat: Strings;
}

/** The stored shape. Short names: they are written once per window, not per payment. */
interface Columns {
  /** Payments in the window. */
  n: number;
  no: string[];
  ref: Array<string | null>;
  amt: number[];
  cur: DictColumn;
  scur: DictColumn;
  st: DictColumn;
  ven: DictColumn;
  typ: DictColumn;
  cat: Array<string | null>;
  pat: Array<string | null>;
  c4: Array<string | null>;
  /** Refunds per payment; the refunds' columns below hold them in payment order. */
  rn: number[];
  rno: string[];
  rref: Array<string | null>;
  ramt: number[];
  rcur: DictColumn;
  rscur: DictColumn;
  rst: DictColumn;
  rat: Array<string | null>;
}

class DictWriter {
  private readonly ids = new Map<string, number>();
  readonly col: DictColumn = { d: [], i: [] };
  add(v: string | undefined): void {
    if (v === undefined) {
      this.col.i.push(-1);
      return;
    }
    let id = this.ids.get(v);
    if (id === undefined) {
      id = this.col.d.length;
      this.ids.set(v, id);
      this.col.d.push(v);
    }
    this.col.i.push(id);
  }
}

/** The window's payments as columns (the shape of the JSON layout; encodeListColumns packs them). */
function columnsOf(transactions: readonly Transaction[]): Columns {
  const cur = new DictWriter();
  const scur = new DictWriter();
  const st = new DictWriter();
  const ven = new DictWriter();
  const typ = new DictWriter();
  const rcur = new DictWriter();
  const rscur = new DictWriter();
  const rst = new DictWriter();
  const c: Columns = {
    n: transactions.length,
    no: [],
    ref: [],
    amt: [],
    cur: cur.col,
    scur: scur.col,
    st: st.col,
    ven: ven.col,
    typ: typ.col,
    cat: [],
    pat: [],
    c4: [],
    rn: [],
    rno: [],
    rref: [],
    ramt: [],
    rcur: rcur.col,
    rscur: rscur.col,
    rst: rst.col,
    rat: [],
  };
  for (const t of transactions) {
    c.no.push(t.transactionNo);
    c.ref.push(t.reference ?? null);
    c.amt.push(t.amountMinor);
    cur.add(t.currency);
    scur.add(t.settleCurrency);
    st.add(t.status);
    ven.add(t.vendor);
    typ.add(t.transactionType);
    c.cat.push(t.createdAt ?? null);
    c.pat.push(t.paidAt ?? null);
    c.c4.push(t.cardLast4 ?? null);
    c.rn.push(t.refunds.length);
    for (const r of t.refunds) {
      c.rno.push(r.refundTransactionNo);
      c.rref.push(r.refundReference ?? null);
      c.ramt.push(r.refundAmountMinor);
      rcur.add(r.currency);
      rscur.add(r.settleCurrency);
      rst.add(r.status);
      c.rat.push(r.createdAt ?? null);
    }
  }
  return c;
}

/*
 * Packed (schema v14): MARK, a JSON header line, then the columns' sections one after the other, each
 * `len` UTF-16 units long (the text is stored and read back as the same string, so lengths hold):
 * - string columns (STRINGS, in that order): the JSON array of the values (null: absent), or nothing
 *   when every value is absent (named in `none`). JSON, not one string split at a separator: JSON.parse
 *   makes each value a string of its own, where split's would be slices that keep the whole window's
 *   text alive and are slower to hash and compare in every step after (measured).
 * - amounts (amt, ramt): the base64 of their Float64Array (every integer of minor units exactly).
 * - counts and dictionary indices (INTS, in that order): the base64 of an unsigned typed array of the
 *   width the largest value needs (`w`: 1, 2 or 4 bytes); a dictionary index is stored plus one, so
 *   that 0 is an absent value.
 * Little-endian, as every platform Refund Desk runs on.
 */
const MARK = '\u0002packed1\n';
const STRINGS = ['no', 'ref', 'cat', 'pat', 'c4', 'rno', 'rref', 'rat'] as const;
const DICTS = ['cur', 'scur', 'st', 'ven', 'typ', 'rcur', 'rscur', 'rst'] as const;
type StringName = (typeof STRINGS)[number];
/** The columns with a value per refund (the others have one per payment). */
const PER_REFUND: ReadonlySet<string> = new Set(['rno', 'rref', 'rat', 'rcur', 'rscur', 'rst']);
type DictName = (typeof DICTS)[number];

interface PackedHeader {
  n: number;
  /** Refunds in the window. */
  r: number;
  /** Each dictionary column's distinct values. */
  d: Record<DictName, string[]>;
  /** Bytes per value of rn, then of each dictionary column's indices (DICTS order). */
  w: number[];
  /** String columns without any value present (no section text). */
  none: StringName[];
  /** Each section's length: STRINGS, amt, ramt, rn, DICTS. */
  len: number[];
}

const base64 = (a: ArrayBufferView): string =>
  Buffer.from(a.buffer, a.byteOffset, a.byteLength).toString('base64');

function packInts(values: readonly number[], plus: number): { w: number; text: string } {
  let max = 0;
  for (const v of values) if (v + plus > max) max = v + plus;
  const w = max < 0x100 ? 1 : max < 0x10000 ? 2 : 4;
  const a =
    w === 1
      ? new Uint8Array(values.length)
      : w === 2
        ? new Uint16Array(values.length)
        : new Uint32Array(values.length);
  for (let k = 0; k < values.length; k += 1) a[k] = values[k]! + plus;
  return { w, text: base64(a) };
}

/** The window's payments as the stored text of layout 'columns' (packed, schema v14). */
export function encodeListColumns(transactions: readonly Transaction[]): string {
  const c = columnsOf(transactions);
  const sections: string[] = [];
  const none: StringName[] = [];
  for (const name of STRINGS) {
    const values = c[name];
    if (values.length > 0 && values.every((v) => v === null)) {
      none.push(name);
      sections.push('');
    } else sections.push(JSON.stringify(values));
  }
  sections.push(base64(Float64Array.from(c.amt)), base64(Float64Array.from(c.ramt)));
  const w: number[] = [];
  for (const [values, plus] of [[c.rn, 0], ...DICTS.map((d) => [c[d].i, 1] as const)] as const) {
    const p = packInts(values, plus);
    w.push(p.w);
    sections.push(p.text);
  }
  const d = Object.fromEntries(DICTS.map((name) => [name, c[name].d])) as Record<DictName, string[]>;
  const header: PackedHeader = { n: c.n, r: c.rno.length, d, w, none, len: sections.map((x) => x.length) };
  return `${MARK}${JSON.stringify(header)}\n${sections.join('')}`;
}

/** Thrown for stored text that is not a window of this layout (a damaged or foreign row). */
export class ListColumnsError extends Error {
  override name = 'ListColumnsError';
}

const damaged = () => new ListColumnsError('a stored list window is not in the columns layout');

const dict = <T extends string>(col: ReadDict, at: number): T | undefined => {
  const id = col.i[at]! - col.o;
  return id < 0 ? undefined : (col.d[id] as T);
};

/** A window of layout 'columns' as parsed: its columns, and where each payment's refunds start. */
export interface ParsedListColumns {
  readonly n: number;
  /** Per payment: its first refund's position in the refunds' columns (made when first asked for). */
  refundStart?: Int32Array;
  /** @internal the stored columns */
  readonly c: ReadColumns;
}

/** The bytes of a base64 section, in a buffer of their own aligned for any typed array. */
function bytesOf(text: string): ArrayBuffer {
  const b = Buffer.from(text, 'base64');
  // Buffer.from may hand out a slice of a shared pool (small sections): copied out, aligned.
  return b.byteOffset === 0 && b.byteLength === b.buffer.byteLength
    ? (b.buffer as ArrayBuffer)
    : new Uint8Array(b).buffer;
}

function intsOf(text: string, w: number | undefined, count: number): ArrayLike<number> {
  const bytes = bytesOf(text);
  const a =
    w === 1
      ? new Uint8Array(bytes)
      : w === 2
        ? new Uint16Array(bytes)
        : w === 4
          ? new Uint32Array(bytes)
          : undefined;
  if (a?.length !== count) throw damaged();
  return a;
}

function numbersOf(text: string, count: number): Float64Array {
  const bytes = bytesOf(text);
  if (bytes.byteLength !== count * 8) throw damaged();
  return new Float64Array(bytes);
}

/** A column without any value present: any position of it reads as absent (undefined). */
const NONE: Strings = Object.freeze([]);

function stringsOf(text: string, none: boolean, count: number): Strings {
  if (none) return NONE;
  const a = JSON.parse(text) as unknown;
  if (!Array.isArray(a) || a.length !== count) throw damaged();
  return a as Strings;
}

/** The columns of a packed window (see "Packed" above). */
function unpack(text: string): ReadColumns {
  const eol = text.indexOf('\n', MARK.length);
  if (eol < 0) throw damaged();
  const h = JSON.parse(text.slice(MARK.length, eol)) as PackedHeader;
  if (typeof h !== 'object' || h === null || !Array.isArray(h.len) || h.len.length !== STRINGS.length + 11)
    throw damaged();
  let pos = eol + 1;
  const section = (k: number): string => {
    const s = text.slice(pos, pos + h.len[k]!);
    pos += h.len[k]!;
    return s;
  };
  const strings = {} as Record<StringName, Strings>;
  STRINGS.forEach((name, k) => {
    strings[name] = stringsOf(section(k), h.none.includes(name), PER_REFUND.has(name) ? h.r : h.n);
  });
  const amt = numbersOf(section(STRINGS.length), h.n);
  const ramt = numbersOf(section(STRINGS.length + 1), h.r);
  const rn = intsOf(section(STRINGS.length + 2), h.w[0], h.n);
  const dicts = {} as Record<DictName, ReadDict>;
  DICTS.forEach((name, k) => {
    const i = intsOf(section(STRINGS.length + 3 + k), h.w[k + 1], PER_REFUND.has(name) ? h.r : h.n);
    dicts[name] = { d: h.d[name], i, o: 1 };
  });
  if (pos !== text.length) throw damaged();
  return { n: h.n, ...strings, amt, ramt, rn, ...dicts } as ReadColumns;
}

/** The columns of a window stored as JSON columns (v10–v13). */
function fromJson(text: string): ReadColumns {
  const c = JSON.parse(text) as Columns;
  if (typeof c !== 'object' || c === null || !Array.isArray(c.no) || c.no.length !== c.n) throw damaged();
  const read = (col: DictColumn): ReadDict => ({ d: col.d, i: col.i, o: 0 });
  return {
    ...c,
    cur: read(c.cur),
    scur: read(c.scur),
    st: read(c.st),
    ven: read(c.ven),
    typ: read(c.typ),
    rcur: read(c.rcur),
    rscur: read(c.rscur),
    rst: read(c.rst),
  };
}

/**
 * Parses the stored text of layout 'columns', packed or JSON. `known` decides whether a currency code
 * is one this app handles: a window with any other is refused whole (undefined), as the object layout's
 * reader does — checked on the dictionaries, not per payment.
 */
export function parseListColumns(
  text: string,
  known: (currency: string) => boolean,
): ParsedListColumns | undefined {
  let c: ReadColumns;
  try {
    c = text.startsWith(MARK) ? unpack(text) : fromJson(text);
  } catch (e) {
    if (e instanceof ListColumnsError) throw e;
    // Text that does not parse at all: a damaged row, said as such.
    throw damaged();
  }
  for (const col of [c.cur, c.scur, c.rcur, c.rscur]) if (!col.d.every(known)) return undefined;
  return { n: c.n, c };
}

/**
 * The refunds of every payment without any: one frozen empty list shared by all of them (most of a
 * million payments), not an array each kept with the list for the whole run. Frozen, so that code
 * that would add to one payment's refunds fails loudly instead of adding to all of them.
 */
const NO_REFUNDS: readonly RefundRecord[] = Object.freeze([]);

/** The payment at `at` (its refunds from position `r` of the refunds' columns), exactly as written. */
function paymentOf(c: ReadColumns, at: number, r: number): Transaction {
  // Properties in the schema's order (shared/domain/transaction.ts), optional ones only when stored.
  const t = { transactionNo: c.no[at]! } as Transaction;
  const ref = c.ref[at];
  if (ref !== null && ref !== undefined) t.reference = ref;
  t.amountMinor = c.amt[at]!;
  t.currency = dict<Currency>(c.cur, at)!;
  const scur = dict<Currency>(c.scur, at);
  if (scur !== undefined) t.settleCurrency = scur;
  t.status = dict<Transaction['status']>(c.st, at)!;
  const ven = dict(c.ven, at);
  if (ven !== undefined) t.vendor = ven;
  t.transactionType = dict<Transaction['transactionType']>(c.typ, at)!;
  const cat = c.cat[at];
  if (cat !== null && cat !== undefined) t.createdAt = cat;
  const pat = c.pat[at];
  if (pat !== null && pat !== undefined) t.paidAt = pat;
  const c4 = c.c4[at];
  if (c4 !== null && c4 !== undefined) t.cardLast4 = c4;
  const count = c.rn[at]!;
  if (count === 0) {
    t.refunds = NO_REFUNDS as RefundRecord[];
    return t;
  }
  const refunds: RefundRecord[] = [];
  for (let k = count; k > 0; k -= 1, r += 1) {
    const x = { refundTransactionNo: c.rno[r]! } as RefundRecord;
    const rref = c.rref[r];
    if (rref !== null && rref !== undefined) x.refundReference = rref;
    x.refundAmountMinor = c.ramt[r]!;
    x.currency = dict<Currency>(c.rcur, r)!;
    const rscur = dict<Currency>(c.rscur, r);
    if (rscur !== undefined) x.settleCurrency = rscur;
    x.status = dict<RefundRecord['status']>(c.rst, r)!;
    const rat = c.rat[r];
    if (rat !== null && rat !== undefined) x.createdAt = rat;
    refunds.push(x);
  }
  t.refunds = refunds;
  return t;
}

/**
 * One payment of a parsed window, exactly as written (a report item that refers to it, see
 * ./item-codec.ts); undefined when the window has no payment `at`.
 */
export function listPaymentAt(w: ParsedListColumns, at: number): Transaction | undefined {
  if (!Number.isInteger(at) || at < 0 || at >= w.n) return undefined;
  let starts = w.refundStart;
  if (!starts) {
    starts = w.refundStart = new Int32Array(w.n);
    let r = 0;
    for (let i = 0; i < w.n; i += 1) {
      starts[i] = r;
      r += w.c.rn[i]!;
    }
  }
  return paymentOf(w.c, at, starts[at]!);
}

/** The window's payments from the stored text of layout 'columns', each exactly as it was written. */
export function decodeListColumns(
  text: string,
  known: (currency: string) => boolean,
): Transaction[] | undefined {
  const w = parseListColumns(text, known);
  if (!w) return undefined;
  const { c } = w;
  const out = new Array<Transaction>(c.n);
  let r = 0;
  for (let at = 0; at < c.n; at += 1) {
    out[at] = paymentOf(c, at, r);
    r += c.rn[at]!;
  }
  return out;
}
