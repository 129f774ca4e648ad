/**
 * The matching engine (pure): ledger rows + what the service said about each → one item per row with
 * an outcome. Rows are matched by transactionNo when the ledger has one, else by reference. The ledger's
 * date is compared with the service's payment day (in the run's days) within a tolerance.
 *
 * Every item also carries its contribution to "ledger total − service total" per currency (`deltas`),
 * so the per-currency summary is an exact sum over items and each difference can be traced to rows.
 * Items for the other direction (service payments and refunds the ledger lacks) and for unusable rows
 * are made in ./two-way.ts and ./report.ts.
 */
import type { Currency } from '../domain/currencies';
import type { Transaction } from '../domain/transaction';
import { dayInZone, fixedOffsetMinutes } from '../domain/zones';
import { daysBetween, epochDay, instantMs } from './dates';
import { KeyIndex } from './key-index';
import type { LedgerRow, UnusableRow } from './ledger';

export const RECON_OUTCOMES = [
  'matched',
  'amount_mismatch',
  'currency_mismatch',
  'status_mismatch',
  'date_mismatch',
  'refunded_not_in_ledger',
  'missing_at_service',
  'duplicate_in_ledger',
  'missing_in_ledger',
  'refund_missing_in_ledger',
  'unreadable',
  'not_checked',
] as const;
export type ReconOutcome = (typeof RECON_OUTCOMES)[number];

export const OUTCOME_LABELS: Readonly<Record<ReconOutcome, string>> = {
  matched: 'Matched',
  amount_mismatch: 'Amount differs',
  currency_mismatch: 'Currency differs',
  status_mismatch: 'Status differs',
  date_mismatch: 'Date differs',
  refunded_not_in_ledger: 'Refunded at service, not in ledger',
  missing_at_service: 'Missing at service',
  duplicate_in_ledger: 'Duplicate in ledger',
  missing_in_ledger: 'Paid at service, not in ledger',
  refund_missing_in_ledger: 'Refund at service, not in ledger',
  unreadable: 'Unreadable row',
  not_checked: 'Not checked (lookup failed)',
};

/** What a lookup of one ledger key returned. */
export type ServiceLookup =
  | { kind: 'found'; transaction: Transaction }
  | { kind: 'not_found' }
  | { kind: 'failed'; code: string; message: string };

/** Where the service data of a row came from: a tran-query now, the period's list, or this app's cache. */
export type ServiceSource = 'lookup' | 'list' | 'cache';

/** A lookup with its provenance: what the row was compared with, and when that was fetched. */
export type ServiceAnswer = ServiceLookup & { source: ServiceSource; fetchedAt: string };

/** The service's side of an item, flattened for tables and CSV. */
export interface ServiceView {
  transactionNo: string;
  reference?: string;
  amountMinor: number;
  currency: Currency;
  status: string;
  /** Σ refunds in success or pending (money that left or is leaving). */
  refundedMinor: number;
  createdAt?: string;
  paidAt?: string;
  source: ServiceSource;
  fetchedAt: string;
}

/** One refund at the service (refund_missing_in_ledger items). */
export interface RefundView {
  refundTransactionNo: string;
  refundReference?: string;
  amountMinor: number;
  currency: Currency;
  status: string;
  createdAt?: string;
}

export interface CurrencyAmount {
  currency: Currency;
  amountMinor: number;
}

export interface ReconItem {
  /** The ledger line (header is line 1); absent for service payments and refunds the ledger lacks. */
  line?: number;
  outcome: ReconOutcome;
  matchedBy?: 'transactionNo' | 'reference';
  /** The ledger row, when it could be read. */
  ledger?: LedgerRow;
  /** The row that could not be read (outcome unreadable). */
  unusable?: UnusableRow;
  service?: ServiceView;
  /** The service's whole record of the payment as compared (kept with the report; not exported). */
  transaction?: Transaction;
  /** The refund the ledger lacks (outcome refund_missing_in_ledger). */
  refund?: RefundView;
  /**
   * Contribution to (ledger total − service total), per currency; zero entries left out. Read-only:
   * items that contribute nothing (most of a report) share one frozen empty list, NO_DELTAS.
   */
  deltas: readonly CurrencyAmount[];
  /** The line of the first row with the same transaction, for duplicates. */
  duplicateOfLine?: number;
  /** Ledger day − the service's payment day, in days (set whenever both are known). */
  dayOffset?: number;
  /** One sentence a person can act on. */
  detail: string;
}

/**
 * The deltas of an item that contributes nothing to the difference: one frozen empty list shared by all
 * of them, not one array per matched row (100k of them stay in memory with the report). Stored reports
 * read back with an empty array of their own each, which is the same content.
 */
export const NO_DELTAS: readonly CurrencyAmount[] = Object.freeze([]);

/** How dates are compared: the zone whose calendar days count, and the tolerance in days. */
export interface DateCheck {
  /** IANA zone of the run's days ('Etc/GMT-8' for the service's days). */
  zone: string;
  toleranceDays: number;
  /** How the days are named in sentences: "UTC+8", "Europe/Berlin". */
  zoneLabel: string;
}

/**
 * What the service said for a ledger key given by kind (its transaction number, or its reference):
 * the same answer as the key-string lookup gives for `tx:<value>` / `ref:<value>`, without that string.
 */
export type KeyedLookup = (byTx: boolean, value: string) => ServiceAnswer | undefined;

/**
 * The listed payments' fields the matching reads, by position (the same as reading them from
 * `transaction(position)`): a list held as columns answers them without making its payments.
 */
export interface ListedFacts {
  transactionNo(position: number): string;
  amountMinor(position: number): number;
  currency(position: number): Currency;
  status(position: number): string;
  /** Σ its refunds in success or pending in its own currency (ServiceView's refundedMinor). */
  refundedMinor(position: number): number;
  /**
   * `paidAt || createdAt || undefined`, or, when that text is exactly toISOString's form of an instant,
   * that instant (ms).
   */
  paymentTime(position: number): number | string | undefined;
}

/** ListedFacts read from the payments themselves. */
export function factsOf(transaction: (position: number) => Transaction): ListedFacts {
  return {
    transactionNo: (p) => transaction(p).transactionNo,
    amountMinor: (p) => transaction(p).amountMinor,
    currency: (p) => transaction(p).currency,
    status: (p) => transaction(p).status,
    refundedMinor: (p) => refundedOf(transaction(p)),
    paymentTime: (p) => {
      const tx = transaction(p);
      return tx.paidAt || tx.createdAt || undefined;
    },
  };
}

/** See MatchOptions.listed. */
export interface ListedIndex {
  size: number;
  at: (row: number) => number;
  positionOf: (transactionNo: string) => number | undefined;
  transaction: (position: number) => Transaction;
  /** The same fields as `transaction` gives, read without making the payment (default: from it). */
  facts?: ListedFacts;
  /**
   * Given: a row whose `at` is a position is answered by that very listed payment — found, source
   * 'list', fetched at this time — and lookupAt (or lookupBy, lookup) is asked only for the other rows:
   * no answer object is made for the listed payments (a million at a million rows, kept for the run).
   */
  fetchedAt?: (position: number) => string;
}

export interface MatchOptions {
  fmt: (amountMinor: number, currency: Currency) => string;
  /** When given, asked instead of `lookup` (with the same answers): no key string is made per row. */
  lookupBy?: KeyedLookup;
  /**
   * When given, asked instead of both with the position of the row in `rows` (the same answers): a
   * caller that has already found every row's answer hands it over without a key or a probe per row.
   */
  lookupAt?: (row: number) => ServiceAnswer | undefined;
  /**
   * The caller's index of the period's list, whose payments' numbers are all different: per row, the
   * position of the listed payment that is its answer (-1: none); a listed payment's position by its
   * number (undefined: not listed); the payment at a position. With it, a number the list holds is
   * numbered by its position, so the usual row costs no probe of matchLedger's own table.
   */
  listed?: ListedIndex;
  /**
   * With `listed`: set to 1 at the position of every listed payment whose number is the number of a
   * row's found answer (the service side of its item) — the payments the ledger has, marked while each
   * answer is at hand instead of in a second walk over a million items. Sized `listed.size`.
   */
  listedClaims?: Uint8Array;
  /** Omitted: dates are not compared. */
  dates?: DateCheck;
  /** Called with each item as soon as it is made (the report's summary is added up this way). */
  onItem?: (item: ReconItem) => void;
  /**
   * false: the items go to `onItem` only and matchLedger returns none (a caller that stores them as
   * they come does not keep a million of them alive until the end).
   */
  keepItems?: boolean;
  /**
   * With `listed`: asked for each matched row answered by the listed payment at `position` (its very
   * record, source 'list'), before its item is made. That item would be
   * `{ line, matchedBy, ledger: row, service: serviceView(tx, 'list', fetchedAt), transaction: tx,
   * dayOffset (when known), outcome: 'matched', detail: '', deltas: NO_DELTAS }`, with `tx` the listed
   * payment and `fetchedAt` its answer's: a caller that can store it by reference (the run's record) takes
   * it (true) and it is never made — nor its service side — and not handed to onItem; the summary takes
   * it through `onMatched`. false: the item is made as always.
   */
  onUsual?: (row: number, position: number, dayOffset: number | undefined) => boolean;
  /** With onUsual: the summary's share of a row onUsual took (summaryTally's addMatched). */
  onMatched?: (row: LedgerRow, service: ServiceFacts) => void;
}

/** What the classification and the summary read of the service's side. */
export type ServiceFacts = Pick<ServiceView, 'currency' | 'amountMinor' | 'status' | 'refundedMinor'>;

/** The currency an item belongs to in the summary ('' for an unreadable row with no usable currency). */
export function itemCurrency(item: ReconItem): Currency | '' {
  return (
    item.ledger?.currency ?? item.service?.currency ?? item.refund?.currency ?? item.unusable?.currency ?? ''
  );
}

/** The key a ledger row is looked up by: `tx:<transactionNo>` or `ref:<reference>`. */
export function lookupKey(row: Pick<LedgerRow, 'transactionNo' | 'reference'>): string {
  if (row.transactionNo) return `tx:${row.transactionNo}`;
  return `ref:${row.reference ?? ''}`;
}

/**
 * Calls `fn` with each distinct key of the ledger once, in first-seen order: its transaction number
 * (`byTx`) or its reference — the row's own strings, no `tx:`/`ref:` string made per row.
 */
export function forEachLedgerKey(
  rows: readonly LedgerRow[],
  fn: (byTx: boolean, value: string) => void,
): void {
  const seenTx = new Set<string>();
  const seenRef = new Set<string>();
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const byTx = Boolean(row.transactionNo);
    const value = byTx ? row.transactionNo! : (row.reference ?? '');
    const seen = byTx ? seenTx : seenRef;
    if (seen.has(value)) continue;
    seen.add(value);
    fn(byTx, value);
  }
}

/** The lookup key (see lookupKey) of a key given by kind. */
export const keyOf = (byTx: boolean, value: string) => (byTx ? `tx:${value}` : `ref:${value}`);

/** The distinct lookups a ledger needs, in first-seen order. */
export function ledgerKeys(
  rows: readonly LedgerRow[],
): Array<{ transactionNo: string } | { reference: string }> {
  const keys: Array<{ transactionNo: string } | { reference: string }> = [];
  forEachLedgerKey(rows, (byTx, value) => keys.push(byTx ? { transactionNo: value } : { reference: value }));
  return keys;
}

/** Refunds that count: money that left or is leaving. */
export const refundCounts = (status: string) => status === 'success' || status === 'pending';

/** The service's side of an item, from a transaction and where it came from. */
/** Σ the payment's refunds in success or pending, in its own currency (ServiceView's refundedMinor). */
function refundedOf(tx: Transaction): number {
  // Refunds reported in another currency cannot be added to this one (see refundBlocker).
  let refundedMinor = 0;
  for (let i = 0; i < tx.refunds.length; i += 1) {
    const r = tx.refunds[i]!;
    if (refundCounts(r.status) && r.currency === tx.currency) refundedMinor += r.refundAmountMinor;
  }
  return refundedMinor;
}

export function serviceView(tx: Transaction, source: ServiceSource, fetchedAt: string): ServiceView {
  const refundedMinor = refundedOf(tx);
  const { transactionNo, amountMinor, currency, status, reference, createdAt, paidAt } = tx;
  // The usual shapes made in one piece (same properties, same order as below): one view per row.
  if (paidAt && !reference) {
    if (createdAt)
      return {
        transactionNo,
        amountMinor,
        currency,
        status,
        refundedMinor,
        source,
        fetchedAt,
        createdAt,
        paidAt,
      };
    return { transactionNo, amountMinor, currency, status, refundedMinor, source, fetchedAt, paidAt };
  }
  const v: ServiceView = { transactionNo, amountMinor, currency, status, refundedMinor, source, fetchedAt };
  if (tx.reference) v.reference = tx.reference;
  if (tx.createdAt) v.createdAt = tx.createdAt;
  if (tx.paidAt) v.paidAt = tx.paidAt;
  return v;
}

/**
 * Whether `view` has the very properties and values serviceView(tx, view.source, view.fetchedAt) would
 * give — the same answer as comparing with a view made again, without making one (asked for every item
 * stored: a million views at a million rows, made only to be compared and dropped). Keep it in step
 * with serviceView: test/unit/recon/service-view.property.test.ts compares the two.
 */
export function isServiceViewOf(view: ServiceView, tx: Transaction): boolean {
  if (
    view.transactionNo !== tx.transactionNo ||
    view.amountMinor !== tx.amountMinor ||
    view.currency !== tx.currency ||
    view.status !== tx.status
  )
    return false;
  // serviceView keeps only non-empty optional texts: each one the view must have, or not have at all.
  let keys = 7;
  if (tx.reference) {
    if (view.reference !== tx.reference) return false;
    keys += 1;
  }
  if (tx.createdAt) {
    if (view.createdAt !== tx.createdAt) return false;
    keys += 1;
  }
  if (tx.paidAt) {
    if (view.paidAt !== tx.paidAt) return false;
    keys += 1;
  }
  let refundedMinor = 0;
  for (let i = 0; i < tx.refunds.length; i += 1) {
    const r = tx.refunds[i]!;
    if (refundCounts(r.status) && r.currency === tx.currency) refundedMinor += r.refundAmountMinor;
  }
  if (view.refundedMinor !== refundedMinor) return false;
  // No property beyond those (counted, not listed: views are plain objects, every key for-in gives is
  // their own). The seven always made are compared above or are the view's own source and fetch time.
  for (const _ in view) keys -= 1;
  return keys === 0;
}

/** The instant the service took the payment (paid, else created). */
export const paymentTime = (s: Pick<ServiceView, 'paidAt' | 'createdAt'>) => s.paidAt ?? s.createdAt;

/** The ledger counts a row's amount unless it says the order was never paid. */
const ledgerCounts = (row: LedgerRow) => row.status !== 'unpaid';
/** The service's money is what it holds as paid. */
export const serviceCounts = (s: Pick<ServiceView, 'status'>) => s.status === 'success';

/** Decides the outcome of a row whose transaction the service has (and no earlier row claimed). */
function classify(
  row: LedgerRow,
  s: ServiceFacts & Pick<ServiceView, 'paidAt' | 'createdAt'>,
  fmt: (m: number, c: Currency) => string,
  dates: DateCheck | undefined,
  dayOffset: number | undefined,
): { outcome: ReconOutcome; detail: string } {
  if (row.currency !== s.currency) {
    return {
      outcome: 'currency_mismatch',
      detail: `Ledger has ${fmt(row.amountMinor, row.currency)}, the service has ${fmt(s.amountMinor, s.currency)}.`,
    };
  }
  if (row.amountMinor !== s.amountMinor) {
    return {
      outcome: 'amount_mismatch',
      detail: `Ledger has ${fmt(row.amountMinor, row.currency)}, the service has ${fmt(s.amountMinor, s.currency)} (difference ${fmt(row.amountMinor - s.amountMinor, row.currency)}).`,
    };
  }
  if (ledgerCounts(row) && !serviceCounts(s)) {
    return {
      outcome: 'status_mismatch',
      detail: `Ledger says ${row.statusText ?? 'paid'}, the service says ${s.status}: no money was received for it.`,
    };
  }
  if (row.status === 'unpaid' && serviceCounts(s)) {
    return {
      outcome: 'status_mismatch',
      detail: `Ledger says ${row.statusText ?? 'unpaid'}, but the service received the payment.`,
    };
  }
  const ledgerRefund = row.refundedMinor;
  if (
    s.refundedMinor > 0 &&
    (ledgerRefund === undefined ? row.status !== 'refunded' : ledgerRefund < s.refundedMinor)
  ) {
    return {
      outcome: 'refunded_not_in_ledger',
      detail: `The service refunded ${fmt(s.refundedMinor, s.currency)}${ledgerRefund ? `, the ledger records ${fmt(ledgerRefund, row.currency)}` : ', the ledger records no refund'}.`,
    };
  }
  if (
    (row.status === 'refunded' && s.refundedMinor === 0) ||
    (ledgerRefund !== undefined && ledgerRefund > s.refundedMinor)
  ) {
    return {
      outcome: 'status_mismatch',
      detail: `Ledger records a refund the service does not have (service refunded ${fmt(s.refundedMinor, s.currency)}).`,
    };
  }
  if (dates && dayOffset !== undefined && Math.abs(dayOffset) > dates.toleranceDays) {
    const paid = paymentTime(s);
    return {
      outcome: 'date_mismatch',
      detail: `Ledger date ${row.day} is ${Math.abs(dayOffset)} day${Math.abs(dayOffset) === 1 ? '' : 's'} ${dayOffset > 0 ? 'after' : 'before'} the service's payment day ${paid ? dayInZone(Date.parse(paid), dates.zone) : ''} (${dates.zoneLabel}); up to ${dates.toleranceDays} day${dates.toleranceDays === 1 ? '' : 's'} apart is accepted.`,
    };
  }
  return MATCHED;
}

/**
 * matchLedger's result for a row its listed payment answers (ListedIndex.fetchedAt): found, from the
 * list; its transaction and fetch time are the listed payment's. Never handed out.
 */
const LISTED: ServiceAnswer = Object.freeze({
  kind: 'found',
  source: 'list',
  fetchedAt: '',
  transaction: Object.freeze({}) as Transaction,
}) as ServiceAnswer;

/** classify's answer for the usual row: one object, not one per row (read, never kept or changed). */
const MATCHED: { readonly outcome: ReconOutcome; readonly detail: string } = Object.freeze({
  outcome: 'matched',
  detail: '',
});

const DAY_MS = 86_400_000;
/** Instants whose calendar day has a four-digit year: the arithmetic below writes the same days. */
const FOUR_DIGIT_YEARS = { from: Date.UTC(1000, 0, 1), to: Date.UTC(10_000, 0, 1) };

/**
 * Ledger day − the service's payment day in the run's zone, when both are known: daysBetween of the
 * two calendar days, as whole-day numbers. In a zone with one offset all year (UTC, the service's
 * UTC+8) the service's day is arithmetic on the instant; other zones ask Intl for it.
 */
function dayOffsets(
  dates: DateCheck | undefined,
): (day: string | undefined, paid: string | number | undefined) => number | undefined {
  if (!dates) return () => undefined;
  const fixed = fixedOffsetMinutes(dates.zone);
  // `paid` as an instant is the one its text would be read as (ListedFacts.paymentTime).
  return (day, paid) => {
    if (!day || paid === undefined || paid === '') return undefined;
    const ms = typeof paid === 'number' ? paid : undefined;
    const wall = fixed === undefined ? NaN : (ms ?? instantMs(paid as string)) + fixed * 60_000;
    if (!(wall >= FOUR_DIGIT_YEARS.from && wall < FOUR_DIGIT_YEARS.to))
      return daysBetween(dayInZone(ms ?? Date.parse(paid as string), dates.zone), day);
    return epochDay(day) - Math.floor(wall / DAY_MS);
  };
}

/**
 * The row's contribution to (ledger total − service total), per currency, zero entries left out: the
 * ledger's amount unless it says unpaid, less the service's amount when it holds the payment as paid.
 * The ledger's currency comes first.
 */
function deltasOf(row: LedgerRow, service: ServiceView | undefined): readonly CurrencyAmount[] {
  const ledger = ledgerCounts(row) ? row.amountMinor : 0;
  const paid = service && serviceCounts(service) ? service.amountMinor : 0;
  if (paid === 0 || service === undefined || service.currency === row.currency) {
    const sum = ledger - paid;
    return sum === 0 ? NO_DELTAS : [{ currency: row.currency, amountMinor: sum }];
  }
  const out: CurrencyAmount[] = [];
  if (ledger !== 0) out.push({ currency: row.currency, amountMinor: ledger });
  out.push({ currency: service.currency, amountMinor: -paid });
  return out;
}

/**
 * Matches every ledger row. `lookup` returns what the service said for a row's key (see lookupKey),
 * with where that came from; undefined is treated as not looked up. `opts.fmt` formats amounts inside
 * detail sentences; `opts.dates` compares the ledger's dates. One item per row and nothing else per
 * row: details are written only for exceptions.
 */
export function matchLedger(
  rows: readonly LedgerRow[],
  lookup: (key: string) => ServiceAnswer | undefined,
  opts: MatchOptions,
): ReconItem[] {
  const { fmt, dates, lookupBy, lookupAt, listed } = opts;
  const claims = listed ? opts.listedClaims : undefined;
  const dayOffsetOf = dayOffsets(dates);
  // Every ledger key and service transaction number gets a small integer once, and which line came
  // first is kept per integer in arrays. A row keyed by transaction number shares its integer with the
  // service's transaction of that number, so the usual row (the service answers with the transaction
  // asked for) costs one probe here. Transaction numbers and references are kept apart: the same text
  // is a different key.
  // With the caller's index of the list, a listed number's integer is its position there, and the
  // other numbers come after them.
  const NONE = -1;
  const L = listed?.size ?? 0;
  // Sized for the rows the list cannot number (every row when there is no list).
  const txIds = new KeyIndex(Math.max(16, rows.length - L));
  const refIds = new KeyIndex();
  /** Per transaction number: the first row keyed by it, and the first row the service matched to it. */
  const txKeyLine: number[] = L > 0 ? new Array<number>(L).fill(NONE) : [];
  const txServiceLine: number[] = L > 0 ? new Array<number>(L).fill(NONE) : [];
  /** Per reference: the first row keyed by it. */
  const refKeyLine: number[] = [];
  const txId = (transactionNo: string) => {
    if (listed) {
      const p = listed.positionOf(transactionNo);
      if (p !== undefined) return p;
    }
    const id = L + txIds.idOf(transactionNo);
    if (id === txKeyLine.length) {
      txKeyLine.push(NONE);
      txServiceLine.push(NONE);
    }
    return id;
  };
  const refId = (reference: string) => {
    const id = refIds.idOf(reference);
    if (id === refKeyLine.length) refKeyLine.push(NONE);
    return id;
  };
  // First, for every row: its key's integer, the service's answer, the integer of the transaction the
  // service answered with, and the day offset — in a loop that allocates nothing. These are probes of
  // large hash tables and reads of the service's records and strings, none of it in any cache; with
  // nothing between them the processor waits for several at once, where in the loop below each would
  // wait alone between one item's allocations and the next (a fifth less report time at 100k rows).
  const n = rows.length;
  // The listed payments answer their rows themselves (ListedIndex.fetchedAt): such a row's result is
  // LISTED, its answer made only if its item needs one.
  const listedAnswers = listed?.fetchedAt !== undefined;
  const keyIds = new Int32Array(n);
  const serviceTxIds = new Int32Array(n);
  const results: Array<ServiceAnswer | undefined> = new Array<ServiceAnswer | undefined>(n);
  const offsets: Array<number | undefined> = new Array<number | undefined>(n);
  const facts = listed ? (listed.facts ?? factsOf(listed.transaction)) : undefined;
  for (let i = 0; i < n; i += 1) {
    const row = rows[i]!;
    const byTx = Boolean(row.transactionNo);
    // The listed payment that answers the row, checked: its very record is the answer below.
    const p = listed ? listed.at(i) : NONE;
    const keyId = byTx
      ? p >= 0 && facts!.transactionNo(p) === row.transactionNo
        ? p
        : txId(row.transactionNo ?? '')
      : refId(row.reference ?? '');
    keyIds[i] = keyId;
    if (p >= 0 && listedAnswers) {
      // Answered by the listed payment itself (LISTED), read from the list's fields.
      results[i] = LISTED;
      serviceTxIds[i] = p;
      offsets[i] = dayOffsetOf(row.day, facts!.paymentTime(p));
      continue;
    }
    const result = lookupAt
      ? lookupAt(i)
      : lookupBy
        ? lookupBy(byTx, byTx ? row.transactionNo! : (row.reference ?? ''))
        : lookup(lookupKey(row));
    results[i] = result;
    if (result?.kind !== 'found') {
      serviceTxIds[i] = NONE;
      continue;
    }
    const tx = result.transaction;
    const serviceTxId =
      p >= 0 && tx === listed!.transaction(p)
        ? p
        : byTx && tx.transactionNo === row.transactionNo
          ? keyId
          : txId(tx.transactionNo);
    serviceTxIds[i] = serviceTxId;
    // What paymentTime reads from the service view made of tx (which keeps only non-empty times).
    offsets[i] = dayOffsetOf(row.day, tx.paidAt || tx.createdAt || undefined);
  }
  // A number the list holds has its position as its integer (txId): the answers' listed payments.
  if (claims)
    for (let i = 0; i < n; i += 1) {
      const id = serviceTxIds[i]!;
      if (id >= 0 && id < L) claims[id] = 1;
    }
  const items: ReconItem[] = [];
  const onItem = opts.onItem;
  const keep = opts.keepItems !== false || !onItem;
  const onUsual = listed && !keep ? opts.onUsual : undefined;
  const onMatched = opts.onMatched;
  /** The service's side of the row being classified on the usual path: one object, reused. */
  const scratch: ServiceFacts = { currency: 'USD', amountMinor: 0, status: 'success', refundedMinor: 0 };
  const emit = (item: ReconItem) => {
    if (keep) items.push(item);
    if (onItem) onItem(item);
  };
  for (let i = 0; i < n; i += 1) {
    const row = rows[i]!;
    const matchedBy = row.transactionNo ? 'transactionNo' : 'reference';
    const byTx = Boolean(row.transactionNo);
    const keyId = keyIds[i]!;
    const keyLines = byTx ? txKeyLine : refKeyLine;
    let result = results[i];
    const serviceTxId = serviceTxIds[i]!;
    // The usual row answered by its very listed payment: classified from the payment's own fields
    // (a scratch object, not a view), and if it matches and the caller takes it, nothing is made for it.
    if (
      onUsual &&
      result?.kind === 'found' &&
      result.source === 'list' &&
      serviceTxId >= 0 &&
      serviceTxId < L
    ) {
      const keyLine = keyLines[keyId] ?? NONE;
      if (
        keyLine === NONE &&
        (txServiceLine[serviceTxId] ?? NONE) === NONE &&
        listed!.at(i) === serviceTxId &&
        (result === LISTED || listed!.transaction(serviceTxId) === result.transaction)
      ) {
        // The very listed payment: its fields read from the list (the same as from the payment).
        scratch.currency = facts!.currency(serviceTxId);
        scratch.amountMinor = facts!.amountMinor(serviceTxId);
        scratch.status = facts!.status(serviceTxId);
        scratch.refundedMinor = facts!.refundedMinor(serviceTxId);
        const dayOffset = offsets[i];
        if (classify(row, scratch, fmt, dates, dayOffset) === MATCHED && onUsual(i, serviceTxId, dayOffset)) {
          keyLines[keyId] = row.line;
          txServiceLine[serviceTxId] = row.line;
          onMatched?.(row, scratch);
          continue;
        }
      }
    }
    // The listed payment's answer, made for the item that needs it (what the list's answer object was).
    if (result === LISTED) {
      const p = listed!.at(i);
      result = {
        kind: 'found',
        transaction: listed!.transaction(p),
        source: 'list',
        fetchedAt: listed!.fetchedAt!(p),
      };
    }
    const service =
      result?.kind === 'found' ? serviceView(result.transaction, result.source, result.fetchedAt) : undefined;
    const keyLine = keyLines[keyId] ?? NONE;
    const txLine = serviceTxId === NONE ? NONE : (txServiceLine[serviceTxId] ?? NONE);
    const earlier = keyLine === NONE ? undefined : keyLine;
    const earlierTx = txLine === NONE ? undefined : txLine;
    if (earlier !== undefined || earlierTx !== undefined) {
      // The first row already accounts for the service's money; this one only adds ledger money.
      const first = earlier ?? earlierTx ?? 0;
      const item = {
        line: row.line,
        matchedBy,
        ledger: row,
        outcome: 'duplicate_in_ledger',
        duplicateOfLine: first,
      } as ReconItem;
      if (service) item.service = service;
      item.detail = `Same transaction as line ${first}: the ledger counts it twice.`;
      item.deltas = deltasOf(row, undefined);
      emit(item);
      continue;
    }
    keyLines[keyId] = row.line;
    if (!result || result.kind === 'failed') {
      emit({
        line: row.line,
        matchedBy,
        ledger: row,
        outcome: 'not_checked',
        detail: result
          ? `The lookup failed (${result.code}): ${result.message} Use “Re-check rows not checked” to try again.`
          : 'Not looked up: the run was cancelled or stopped before this row.',
        deltas: deltasOf(row, undefined),
      });
      continue;
    }
    if (result.kind === 'not_found' || !service) {
      emit({
        line: row.line,
        matchedBy,
        ledger: row,
        outcome: 'missing_at_service',
        detail: `The service has no payment with this ${matchedBy === 'transactionNo' ? 'transaction number' : 'reference'}.`,
        deltas: deltasOf(row, undefined),
      });
      continue;
    }
    txServiceLine[serviceTxId] = row.line;
    const dayOffset = offsets[i];
    const { outcome, detail } = classify(row, service, fmt, dates, dayOffset);
    // Properties in the order items have always been stored in; the usual item made in one piece.
    if (result.source !== 'cache' && dayOffset !== undefined) {
      emit({
        line: row.line,
        matchedBy,
        ledger: row,
        service,
        transaction: result.transaction,
        dayOffset,
        outcome,
        detail,
        deltas: deltasOf(row, service),
      });
      continue;
    }
    const item = { line: row.line, matchedBy, ledger: row, service } as ReconItem;
    if (result.source !== 'cache') item.transaction = result.transaction;
    if (dayOffset !== undefined) item.dayOffset = dayOffset;
    item.outcome = outcome;
    item.detail = detail;
    item.deltas = deltasOf(row, service);
    emit(item);
  }
  return items;
}
