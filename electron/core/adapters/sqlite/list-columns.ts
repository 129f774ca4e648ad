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

/** The window's payments as the stored text of layout 'columns'. */
export function encodeListColumns(transactions: readonly Transaction[]): string {
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
  return JSON.stringify(c);
}

/** Thrown for stored text that is not a window of this layout (a damaged or foreign row). */
export class ListColumnsError extends Error {
  override name = 'ListColumnsError';
}

const dict = <T extends string>(col: DictColumn, at: number): T | undefined => {
  const id = col.i[at]!;
  return id < 0 ? undefined : (col.d[id] as T);
};

/** A window of layout 'columns' as parsed: its columns, and where each payment's refunds start. */
export interface ParsedListColumns {
  readonly n: number;
  /** Per payment: its first refund's position in the refunds' columns (made when first asked for). */
  refundStart?: Int32Array;
  /** @internal the stored columns */
  readonly c: Columns;
}

/**
 * Parses the stored text of layout 'columns'. `known` decides whether a currency code is one this app
 * handles: a window with any other is refused whole (undefined), as the object layout's reader does —
 * checked on the dictionaries, not per payment.
 */
export function parseListColumns(
  text: string,
  known: (currency: string) => boolean,
): ParsedListColumns | undefined {
  const c = JSON.parse(text) as Columns;
  if (typeof c !== 'object' || c === null || !Array.isArray(c.no) || c.no.length !== c.n)
    throw new ListColumnsError('a stored list window is not in the columns layout');
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
function paymentOf(c: Columns, at: number, r: number): Transaction {
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
