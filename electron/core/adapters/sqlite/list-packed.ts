/**
 * One window of the service's list packed as binary columns (schema v14, layout 'packed' of
 * recon_windows). Layout 'columns' (./list-columns.ts) is one JSON text of arrays: at a million payments
 * 115 MB whose parse was the largest single cost of a run, and whose times came back as two million
 * strings kept for the whole run. Here
 * - amounts and times are Float64 columns (a time as its instant, when its text is exactly what
 *   toISOString writes for that instant — the service's times always are; any other text is kept as
 *   written, beside the column), read in place without parsing;
 * - fields of few values (currencies, statuses, types, vendors) are dictionary coded, the dictionary in
 *   the header and one Int16 (or Int32) per payment;
 * - texts (numbers, references, card digits) are one Latin-1 (or UTF-16) text per column with each
 *   entry's length; a column is cut into strings only when first read (the numbers at once; the rest
 *   for the few payments a report item holds).
 *
 * Bytes: the sections (each at a multiple of 8), then the header's JSON, then its length (u32) and the
 * magic "RDP1". Typed arrays read the platform's byte order; the header says which one wrote it, and a
 * window written in the other is refused (read as damaged) rather than misread.
 *
 * It round-trips a window exactly (test/unit/adapters/list-packed.property.test.ts): every field, an
 * optional field absent stays absent, '' stays ''; a payment read back has its properties in the
 * schema's order, as decodeListColumns makes them.
 */
import type { Currency } from '../../../../shared/domain/currencies';
import type { RefundRecord, Transaction } from '../../../../shared/domain/transaction';
import { instantMs, isoInstant, ISO_INSTANTS } from '../../../../shared/recon/dates';
import { keyHashesOfBytes } from '../../../../shared/recon/key-index';
import type { PaymentColumns } from '../../services/reconciliation/run-store';
import { ListColumnsError, makePayment, makeRefund, NO_REFUNDS } from './list-columns';

const MAGIC = 0x31504452; // "RDP1" little-endian
const LITTLE = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1;

type NumKind = 'f64' | 'i32' | 'i16';
interface Section {
  k: NumKind;
  o: number;
  n: number;
}
interface TextSection {
  /** The entries' lengths (-1: absent). */
  len: Section;
  /** The text's bytes. */
  o: number;
  b: number;
  e: 'latin1' | 'utf16le';
}
interface DictSection {
  d: string[];
  i: Section;
}
interface TimeSection {
  ms: Section;
  /** Entries whose text is not toISOString's of an instant: [position, text]. */
  x: Array<[number, string]>;
}

/** The header: small things as JSON; everything per payment in sections. */
interface Header {
  le: boolean;
  n: number;
  r: number;
  no: TextSection;
  ref: TextSection;
  amt: Section;
  cur: DictSection;
  scur: DictSection;
  st: DictSection;
  ven: DictSection;
  typ: DictSection;
  cat: TimeSection;
  pat: TimeSection;
  c4: TextSection;
  rn: Section;
  rno: TextSection;
  rref: TextSection;
  ramt: Section;
  rcur: DictSection;
  rscur: DictSection;
  rst: DictSection;
  rat: TimeSection;
}

class Writer {
  private readonly parts: Uint8Array[] = [];
  private size = 0;
  private add(bytes: Uint8Array): number {
    const at = this.size;
    this.parts.push(bytes);
    this.size += bytes.byteLength;
    const pad = (8 - (this.size % 8)) % 8;
    if (pad > 0) {
      this.parts.push(new Uint8Array(pad));
      this.size += pad;
    }
    return at;
  }
  nums(k: NumKind, values: ArrayLike<number>): Section {
    const a =
      k === 'f64'
        ? Float64Array.from(values)
        : k === 'i32'
          ? Int32Array.from(values)
          : Int16Array.from(values);
    return { k, o: this.add(new Uint8Array(a.buffer)), n: a.length };
  }
  text(values: ReadonlyArray<string | undefined>): TextSection {
    const lens = new Int32Array(values.length);
    let wide = false;
    const present: string[] = [];
    for (let i = 0; i < values.length; i += 1) {
      const v = values[i];
      if (v === undefined) {
        lens[i] = -1;
        continue;
      }
      lens[i] = v.length;
      present.push(v);
      if (!wide) for (let c = 0; c < v.length; c += 1) if (v.charCodeAt(c) > 0xff) wide = true;
    }
    const e = wide ? 'utf16le' : 'latin1';
    const bytes = Buffer.from(present.join(''), e);
    const len = this.nums('i32', lens);
    return {
      len,
      o: this.add(new Uint8Array(bytes.buffer, bytes.byteOffset, bytes.byteLength)),
      b: bytes.byteLength,
      e,
    };
  }
  dict(values: ReadonlyArray<string | undefined>): DictSection {
    const ids = new Map<string, number>();
    const d: string[] = [];
    const idx = new Int32Array(values.length);
    for (let i = 0; i < values.length; i += 1) {
      const v = values[i];
      if (v === undefined) {
        idx[i] = -1;
        continue;
      }
      let id = ids.get(v);
      if (id === undefined) {
        id = d.push(v) - 1;
        ids.set(v, id);
      }
      idx[i] = id;
    }
    return { d, i: this.nums(d.length <= 0x7fff ? 'i16' : 'i32', idx) };
  }
  time(values: ReadonlyArray<string | undefined>): TimeSection {
    const ms = new Float64Array(values.length);
    const x: Array<[number, string]> = [];
    for (let i = 0; i < values.length; i += 1) {
      const v = values[i];
      ms[i] = NaN;
      if (v === undefined) continue;
      // Only a text that is exactly the instant's toISOString is kept as the instant.
      const t = v.length === 24 ? instantMs(v) : NaN;
      if (t >= ISO_INSTANTS.from && t < ISO_INSTANTS.to && Number.isInteger(t) && isoInstant(t) === v)
        ms[i] = t;
      else x.push([i, v]);
    }
    return { ms: this.nums('f64', ms), x };
  }
  end(header: Header): Uint8Array {
    const json = Buffer.from(JSON.stringify(header), 'utf8');
    const out = new Uint8Array(this.size + json.byteLength + 8);
    let at = 0;
    for (const p of this.parts) {
      out.set(p, at);
      at += p.byteLength;
    }
    out.set(json, at);
    const tail = new DataView(out.buffer, at + json.byteLength, 8);
    tail.setUint32(0, json.byteLength, true);
    tail.setUint32(4, MAGIC, true);
    return out;
  }
}

/** The window's payments as the stored bytes of layout 'packed'. */
export function encodeListPacked(transactions: readonly Transaction[]): Uint8Array {
  const w = new Writer();
  const refunds: RefundRecord[] = [];
  for (const t of transactions) for (const r of t.refunds) refunds.push(r);
  const col = <T, V>(list: readonly T[], f: (x: T) => V) => list.map(f);
  const header: Header = {
    le: LITTLE,
    n: transactions.length,
    r: refunds.length,
    no: w.text(col(transactions, (t) => t.transactionNo)),
    ref: w.text(col(transactions, (t) => t.reference)),
    amt: w.nums(
      'f64',
      col(transactions, (t) => t.amountMinor),
    ),
    cur: w.dict(col(transactions, (t) => t.currency)),
    scur: w.dict(col(transactions, (t) => t.settleCurrency)),
    st: w.dict(col(transactions, (t) => t.status)),
    ven: w.dict(col(transactions, (t) => t.vendor)),
    typ: w.dict(col(transactions, (t) => t.transactionType)),
    cat: w.time(col(transactions, (t) => t.createdAt)),
    pat: w.time(col(transactions, (t) => t.paidAt)),
    c4: w.text(col(transactions, (t) => t.cardLast4)),
    rn: w.nums(
      'i32',
      col(transactions, (t) => t.refunds.length),
    ),
    rno: w.text(col(refunds, (r) => r.refundTransactionNo)),
    rref: w.text(col(refunds, (r) => r.refundReference)),
    ramt: w.nums(
      'f64',
      col(refunds, (r) => r.refundAmountMinor),
    ),
    rcur: w.dict(col(refunds, (r) => r.currency)),
    rscur: w.dict(col(refunds, (r) => r.settleCurrency)),
    rst: w.dict(col(refunds, (r) => r.status)),
    rat: w.time(col(refunds, (r) => r.createdAt)),
  };
  return w.end(header);
}

const damaged = () => new ListColumnsError('a stored list window is not in the packed layout');

/** A dictionary-coded column as read. */
class Dict {
  constructor(
    readonly d: readonly string[],
    readonly i: Int16Array | Int32Array,
  ) {}
  at<T extends string>(k: number): T | undefined {
    const id = this.i[k]!;
    return id < 0 ? undefined : (this.d[id] as T);
  }
}

/** A time column as read: the instant, else the text kept as written, else absent. */
class Times {
  private readonly x: Map<number, string> | undefined;
  constructor(
    readonly ms: Float64Array,
    x: Array<[number, string]>,
  ) {
    this.x = x.length > 0 ? new Map(x) : undefined;
  }
  /** The instant, the text, or undefined. */
  value(k: number): number | string | undefined {
    if (this.x) {
      const s = this.x.get(k);
      if (s !== undefined) return s;
    }
    const v = this.ms[k]!;
    return v === v ? v : undefined;
  }
  text(k: number): string | undefined {
    const v = this.value(k);
    return typeof v === 'number' ? isoInstant(v) : v;
  }
}

/**
 * A text column as read: the text decoded once, each entry cut from it when asked for (where each one
 * starts is summed once, from the lengths).
 */
class TextColumn {
  private readonly text: string;
  private readonly starts: Float64Array;
  constructor(
    bytes: Uint8Array,
    s: TextSection,
    readonly lens: Int32Array,
  ) {
    this.text = Buffer.from(bytes.buffer, bytes.byteOffset + s.o, s.b).toString(s.e);
    this.starts = new Float64Array(lens.length);
    let p = 0;
    for (let k = 0; k < lens.length; k += 1) {
      this.starts[k] = p;
      if (lens[k]! > 0) p += lens[k]!;
    }
    if (p !== this.text.length) throw damaged();
  }
  at(k: number): string | undefined {
    const len = this.lens[k]!;
    if (len < 0) return undefined;
    const from = this.starts[k]!;
    return this.text.slice(from, from + len);
  }
}

/** A window of layout 'packed' as read: its columns, in place in the stored bytes. */
export class PackedPayments implements PaymentColumns {
  readonly length: number;
  private readonly no: string[];
  private readonly amt: Float64Array;
  private readonly cur: Dict;
  private readonly scur: Dict;
  private readonly st: Dict;
  private readonly ven: Dict;
  private readonly typ: Dict;
  private readonly rn: Int32Array;
  private readonly ramt: Float64Array;
  private readonly rcur: Dict;
  private readonly rscur: Dict;
  private readonly rst: Dict;
  private readonly rat: Times;
  private readonly refundId: number;
  private readonly cat: Times;
  private readonly pat: Times;
  private readonly refunded: Float64Array;
  private readonly refundStart: Int32Array;
  private readonly lazy = new Map<string, TextColumn>();

  constructor(
    private readonly bytes: Uint8Array,
    private readonly h: Header,
  ) {
    this.length = h.n;
    this.no = this.texts(h.no) as string[];
    this.amt = this.nums(h.amt) as Float64Array;
    this.cur = this.dict(h.cur);
    this.scur = this.dict(h.scur);
    this.st = this.dict(h.st);
    this.ven = this.dict(h.ven);
    this.typ = this.dict(h.typ);
    this.refundId = h.typ.d.indexOf('refund');
    this.cat = this.times(h.cat);
    this.pat = this.times(h.pat);
    const rn = (this.rn = this.nums(h.rn) as Int32Array);
    const ramt = (this.ramt = this.nums(h.ramt) as Float64Array);
    const rcur = (this.rcur = this.dict(h.rcur));
    this.rscur = this.dict(h.rscur);
    const rst = (this.rst = this.dict(h.rst));
    this.rat = this.times(h.rat);
    this.refundStart = new Int32Array(h.n);
    this.refunded = new Float64Array(h.n);
    // Σ refunds that count, once per payment with any (most have none).
    let r = 0;
    for (let k = 0; k < h.n; k += 1) {
      this.refundStart[k] = r;
      const count = rn[k]!;
      if (count === 0) continue;
      const currency = this.cur.at(k);
      let sum = 0;
      for (let j = r; j < r + count; j += 1) {
        const status = rst.at(j);
        if ((status === 'success' || status === 'pending') && rcur.at(j) === currency) sum += ramt[j]!;
      }
      this.refunded[k] = sum;
      r += count;
    }
    if (r !== h.r || this.no.length !== h.n) throw damaged();
  }

  private nums(s: Section): Float64Array | Int32Array | Int16Array {
    const { buffer, byteOffset } = this.bytes;
    const at = byteOffset + s.o;
    if (s.k === 'f64') return new Float64Array(buffer, at, s.n);
    if (s.k === 'i32') return new Int32Array(buffer, at, s.n);
    return new Int16Array(buffer, at, s.n);
  }
  private dict(s: DictSection): Dict {
    return new Dict(s.d, this.nums(s.i) as Int16Array | Int32Array);
  }
  private times(s: TimeSection): Times {
    return new Times(this.nums(s.ms) as Float64Array, s.x);
  }
  private texts(s: TextSection): Array<string | undefined> {
    const column = new TextColumn(this.bytes, s, this.nums(s.len) as Int32Array);
    const out = new Array<string | undefined>(column.lens.length);
    for (let k = 0; k < out.length; k += 1) out[k] = column.at(k);
    return out;
  }
  /** A text column other than the numbers: each entry cut when asked for (a report item's few). */
  private column(name: 'ref' | 'c4' | 'rno' | 'rref'): TextColumn {
    let c = this.lazy.get(name);
    if (!c) {
      const s = this.h[name];
      c = new TextColumn(this.bytes, s, this.nums(s.len) as Int32Array);
      this.lazy.set(name, c);
    }
    return c;
  }

  transactionNo(at: number): string {
    return this.no[at]!;
  }
  numberHashes(): Int32Array {
    const s = this.h.no;
    return keyHashesOfBytes(this.bytes, s.o, this.nums(s.len), s.e === 'utf16le');
  }
  reference(at: number): string | undefined {
    return this.column('ref').at(at);
  }
  isRefund(at: number): boolean {
    return this.refundId >= 0 && this.typ.i[at] === this.refundId;
  }
  amountMinor(at: number): number {
    return this.amt[at]!;
  }
  currency(at: number): Currency {
    return this.cur.at<Currency>(at)!;
  }
  status(at: number): string {
    return this.st.at(at)!;
  }
  refundedMinor(at: number): number {
    return this.refunded[at]!;
  }
  paymentTime(at: number): number | string | undefined {
    const paid = this.pat.value(at);
    if (paid !== undefined && paid !== '') return paid;
    const created = this.cat.value(at);
    return created === '' ? undefined : created;
  }

  private refundAt(j: number): RefundRecord {
    return makeRefund(
      this.column('rno').at(j)!,
      this.column('rref').at(j),
      this.ramt[j]!,
      this.rcur.at<Currency>(j)!,
      this.rscur.at<Currency>(j),
      this.rst.at(j)!,
      this.rat.text(j),
    );
  }

  transaction(at: number): Transaction {
    const count = this.rn[at]!;
    let refunds = NO_REFUNDS as RefundRecord[];
    if (count > 0) {
      const r = this.refundStart[at]!;
      refunds = [this.refundAt(r)];
      for (let k = 1; k < count; k += 1) refunds.push(this.refundAt(r + k));
    }
    return makePayment(
      this.no[at]!,
      this.column('ref').at(at),
      this.amt[at]!,
      this.cur.at<Currency>(at)!,
      this.scur.at<Currency>(at),
      this.st.at(at)!,
      this.ven.at(at),
      this.typ.at(at)!,
      this.cat.text(at),
      this.pat.text(at),
      this.column('c4').at(at),
      refunds,
    );
  }

  /** Every payment, each exactly as written. */
  transactions(): Transaction[] {
    const out = new Array<Transaction>(this.length);
    for (let at = 0; at < this.length; at += 1) out[at] = this.transaction(at);
    return out;
  }
}

/**
 * Reads the stored bytes of layout 'packed'. `known` decides whether a currency code is one this app
 * handles: a window with any other is refused whole (undefined), as the other layouts' readers do.
 */
export function readListPacked(
  stored: Uint8Array,
  known: (currency: string) => boolean,
): PackedPayments | undefined {
  // Typed arrays over the bytes need the sections aligned as written: a view that is not is copied.
  const bytes = stored.byteOffset % 8 === 0 ? stored : stored.slice();
  if (bytes.byteLength < 8) throw damaged();
  const tail = new DataView(bytes.buffer, bytes.byteOffset + bytes.byteLength - 8, 8);
  if (tail.getUint32(4, true) !== MAGIC) throw damaged();
  const len = tail.getUint32(0, true);
  const from = bytes.byteLength - 8 - len;
  if (from < 0) throw damaged();
  const h = JSON.parse(Buffer.from(bytes.buffer, bytes.byteOffset + from, len).toString('utf8')) as Header;
  if (h.le !== LITTLE) throw damaged();
  for (const col of [h.cur, h.scur, h.rcur, h.rscur]) if (!col.d.every(known)) return undefined;
  return new PackedPayments(bytes, h);
}
