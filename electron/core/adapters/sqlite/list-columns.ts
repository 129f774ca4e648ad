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
import type { PaymentColumns } from '../../services/reconciliation/run-store';

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
export const NO_REFUNDS: readonly RefundRecord[] = Object.freeze([]);

/**
 * The fields of a payment and of a refund, in the schema's order (shared/domain/transaction.ts): the
 * order their properties are made in, so that a decoded payment is the very object that was listed.
 */
const PAYMENT_KEYS = [
  'transactionNo',
  'reference',
  'amountMinor',
  'currency',
  'settleCurrency',
  'status',
  'vendor',
  'transactionType',
  'createdAt',
  'paidAt',
  'cardLast4',
  'refunds',
] as const;
const REFUND_KEYS = [
  'refundTransactionNo',
  'refundReference',
  'refundAmountMinor',
  'currency',
  'settleCurrency',
  'status',
  'createdAt',
] as const;

/** Makes one record from every field's value in order; only the fields of its mask become properties. */
type Maker<T> = (...values: unknown[]) => T;

/**
 * The maker of records with exactly the fields of `mask` (bit k: keys[k] is present): one object
 * literal. A record made a property at a time grows its out-of-object property store two or three
 * times (garbage each time, a million times over) and is slower to make than one literal of them all —
 * but which optional fields a payment has varies, so each combination met gets its own literal, made
 * once, from this file's constant field names only (nothing stored ever reaches the code).
 */
function makerOf<T>(keys: readonly string[], mask: number): Maker<T> {
  const params = keys.map((_, k) => `v${k}`);
  const body = keys.flatMap((key, k) => (mask & (1 << k) ? [`${key}: v${k}`] : [])).join(', ');
  return new Function(...params, `return { ${body} };`) as Maker<T>;
}

/** Makers by mask, made when a combination is first met (at most 2^6 of payments, 2^3 of refunds). */
const paymentMakers: Array<Maker<Transaction> | undefined> = [];
const refundMakers: Array<Maker<RefundRecord> | undefined> = [];

/** The fields every payment / refund has (bits of PAYMENT_KEYS / REFUND_KEYS). */
const PAYMENT_ALWAYS = 0b1000_1010_1101;
const REFUND_ALWAYS = 0b010_1101;

// Every field of the schema is one of the keys (a field added there and not here fails to compile).
const paymentKeysComplete: Exclude<keyof Transaction, (typeof PAYMENT_KEYS)[number]> extends never
  ? true
  : never = true;
const refundKeysComplete: Exclude<keyof RefundRecord, (typeof REFUND_KEYS)[number]> extends never
  ? true
  : never = true;
void paymentKeysComplete;
void refundKeysComplete;

const has = (v: string | null | undefined): v is string => v !== null && v !== undefined;

/** A refund from its fields' values in the schema's order (undefined: absent), exactly as written. */
export function makeRefund(
  no: string,
  ref: string | null | undefined,
  amount: number,
  currency: Currency,
  settle: Currency | undefined,
  status: string,
  createdAt: string | null | undefined,
): RefundRecord {
  const mask =
    REFUND_ALWAYS |
    (has(ref) ? 1 << 1 : 0) |
    (settle !== undefined ? 1 << 4 : 0) |
    (has(createdAt) ? 1 << 6 : 0);
  const make = (refundMakers[mask] ??= makerOf<RefundRecord>(REFUND_KEYS, mask));
  return make(no, ref, amount, currency, settle, status, createdAt);
}

/** A payment from its fields' values in the schema's order (undefined: absent), exactly as written. */
export function makePayment(
  no: string,
  ref: string | null | undefined,
  amount: number,
  currency: Currency,
  settle: Currency | undefined,
  status: string,
  vendor: string | undefined,
  type: string,
  createdAt: string | null | undefined,
  paidAt: string | null | undefined,
  last4: string | null | undefined,
  refunds: RefundRecord[],
): Transaction {
  const mask =
    PAYMENT_ALWAYS |
    (has(ref) ? 1 << 1 : 0) |
    (settle !== undefined ? 1 << 4 : 0) |
    (vendor !== undefined ? 1 << 6 : 0) |
    (has(createdAt) ? 1 << 8 : 0) |
    (has(paidAt) ? 1 << 9 : 0) |
    (has(last4) ? 1 << 10 : 0);
  const make = (paymentMakers[mask] ??= makerOf<Transaction>(PAYMENT_KEYS, mask));
  return make(no, ref, amount, currency, settle, status, vendor, type, createdAt, paidAt, last4, refunds);
}

/** The refund at `r` of the refunds' columns, exactly as written. */
function refundOf(c: Columns, r: number): RefundRecord {
  return makeRefund(
    c.rno[r]!,
    c.rref[r],
    c.ramt[r]!,
    dict<Currency>(c.rcur, r)!,
    dict<Currency>(c.rscur, r),
    dict(c.rst, r)!,
    c.rat[r],
  );
}

/** The payment at `at` (its refunds from position `r` of the refunds' columns), exactly as written. */
function paymentOf(c: Columns, at: number, r: number): Transaction {
  const count = c.rn[at]!;
  // A list made with its first refund in it is as long as it needs (one, mostly); one made empty and
  // pushed to reserves room for sixteen (192 bytes where 64 do, measured), kept for the whole run.
  let refunds = NO_REFUNDS as RefundRecord[];
  if (count > 0) {
    refunds = [refundOf(c, r)];
    for (let k = 1; k < count; k += 1) refunds.push(refundOf(c, r + k));
  }
  return makePayment(
    c.no[at]!,
    c.ref[at],
    c.amt[at]!,
    dict<Currency>(c.cur, at)!,
    dict<Currency>(c.scur, at),
    dict(c.st, at)!,
    dict(c.ven, at),
    dict(c.typ, at)!,
    c.cat[at],
    c.pat[at],
    c.c4[at],
    refunds,
  );
}

/**
 * One payment of a parsed window, exactly as written (a report item that refers to it, see
 * ./item-codec.ts); undefined when the window has no payment `at`.
 */
export function listPaymentAt(w: ParsedListColumns, at: number): Transaction | undefined {
  if (!Number.isInteger(at) || at < 0 || at >= w.n) return undefined;
  return paymentOf(w.c, at, refundStarts(w)[at]!);
}

/** Per payment, where its refunds start in the refunds' columns (made once per window). */
function refundStarts(w: ParsedListColumns): Int32Array {
  let starts = w.refundStart;
  if (!starts) {
    starts = w.refundStart = new Int32Array(w.n);
    let r = 0;
    for (let i = 0; i < w.n; i += 1) {
      starts[i] = r;
      r += w.c.rn[i]!;
    }
  }
  return starts;
}

/**
 * A window of layout 'columns' read field by field (PaymentColumns): what a run reads of a list stored
 * by schema v10–v13, without an object per payment.
 */
export class JsonColumnPayments implements PaymentColumns {
  readonly length: number;
  private readonly c: Columns;
  private readonly refundId: number;
  private readonly refunded: Float64Array;
  private readonly starts: Int32Array;

  constructor(private readonly w: ParsedListColumns) {
    const c = (this.c = w.c);
    this.length = w.n;
    this.refundId = c.typ.d.indexOf('refund');
    this.starts = refundStarts(w);
    this.refunded = new Float64Array(w.n);
    for (let k = 0; k < w.n; k += 1) {
      const count = c.rn[k]!;
      if (count === 0) continue;
      const currency = dict(c.cur, k);
      let sum = 0;
      for (let j = this.starts[k]!; j < this.starts[k]! + count; j += 1) {
        const status = dict(c.rst, j);
        if ((status === 'success' || status === 'pending') && dict(c.rcur, j) === currency) sum += c.ramt[j]!;
      }
      this.refunded[k] = sum;
    }
  }
  transactionNo(at: number): string {
    return this.c.no[at]!;
  }
  reference(at: number): string | undefined {
    return this.c.ref[at] ?? undefined;
  }
  isRefund(at: number): boolean {
    return this.refundId >= 0 && this.c.typ.i[at] === this.refundId;
  }
  amountMinor(at: number): number {
    return this.c.amt[at]!;
  }
  currency(at: number): Currency {
    return dict<Currency>(this.c.cur, at)!;
  }
  status(at: number): string {
    return dict(this.c.st, at)!;
  }
  refundedMinor(at: number): number {
    return this.refunded[at]!;
  }
  paymentTime(at: number): string | undefined {
    return this.c.pat[at] || this.c.cat[at] || undefined;
  }
  transaction(at: number): Transaction {
    return paymentOf(this.c, at, this.starts[at]!);
  }
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
