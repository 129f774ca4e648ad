/**
 * The period's payments, read through the service's date-range list (trans-list, the same call as
 * "Sync by date": ≤ 15 UTC+8 days per window). Each window is stored as it arrives, with when it was
 * fetched, so a resumed run reads only the windows it does not have. Where the service does not offer
 * the list the run carries on one-way and says so; where it cannot be reached the run pauses and says why.
 */
import { isAppError } from '../../../../shared/domain/errors';
import { KeyIndex, keyHash } from '../../../../shared/recon/key-index';
import type { ListedFacts, ServiceAnswer } from '../../../../shared/recon/match';
import type { Currency } from '../../../../shared/domain/currencies';
import type { ListedPayment, ListedSource } from '../../../../shared/recon/two-way';
import type { Transaction } from '../../../../shared/domain/transaction';
import { serviceDateToMs } from '../../../../shared/protocol/time';
import type { GatewayClient } from '../gateway/client';
import { notOffered } from '../transactions/sync';
import { objectColumns } from './payment-columns';
import type { ColumnWindow, ListWindow, PaymentColumns } from './run-store';

/** Failures of a window that say the connection or credentials are at fault: pause, retry on resume. */
export const SYSTEMIC = new Set(['network', 'timeout', 'unavailable', 'unauthorized', 'forbidden']);

export type WindowOutcome =
  | { kind: 'stored'; window: ListWindow }
  | { kind: 'systemic'; code: string; message: string }
  | { kind: 'failed'; message: string };

/** Fetches one window; never throws for the service's answers. */
export async function fetchWindow(
  gateway: Pick<GatewayClient, 'listTransactions'>,
  w: { startDate: string; endDate: string },
  now: () => number,
  signal: AbortSignal,
): Promise<WindowOutcome> {
  const startMs = serviceDateToMs(w.startDate);
  const endMs = serviceDateToMs(w.endDate);
  if (startMs === undefined || endMs === undefined) return { kind: 'failed', message: 'bad window' };
  try {
    const transactions = await gateway.listTransactions({ startMs, endMs }, { signal });
    const fetchedAt = new Date(now()).toISOString();
    return { kind: 'stored', window: { ...w, fetchedAt, state: 'listed', transactions } };
  } catch (e) {
    if (!isAppError(e)) return { kind: 'failed', message: 'the list could not be read inside Refund Desk' };
    const unsupported = notOffered(e);
    if (unsupported)
      return {
        kind: 'stored',
        window: {
          ...w,
          fetchedAt: new Date(now()).toISOString(),
          state: 'unsupported',
          message: unsupported.message,
        },
      };
    // A payment in a currency this app does not handle: asking again gives the same answer.
    if (e.details?.unsupportedCurrency !== undefined) return { kind: 'failed', message: e.message };
    if (SYSTEMIC.has(e.code)) return { kind: 'systemic', code: e.code, message: e.message };
    return { kind: 'failed', message: `the service refused its list (${e.message})` };
  }
}

/** Where a run's list stands, from the windows it needs and those stored. */
export function listingOf(
  needed: ReadonlyArray<{ startDate: string }>,
  stored: readonly AnyWindow[],
): { state: 'none' | 'complete' | 'unsupported' | 'incomplete'; done: number; message?: string } {
  if (needed.length === 0) return { state: 'none', done: 0 };
  const unsupported = stored.find((w) => w.state === 'unsupported');
  if (unsupported && unsupported.state === 'unsupported')
    return { state: 'unsupported', done: stored.length, message: unsupported.message };
  const have = new Set(stored.filter((w) => w.state === 'listed').map((w) => w.startDate));
  const done = needed.filter((w) => have.has(w.startDate)).length;
  return done === needed.length ? { state: 'complete', done } : { state: 'incomplete', done };
}

/**
 * Where each listed payment is stored: its window (index into `windows`, their start dates) and its
 * position among that window's transactions — what a report item refers to (run-store ItemRefs).
 */
export interface ListedPlaces {
  windows: string[];
  window: Uint16Array;
  at: Int32Array;
}

/** The answer the list gives for a listed payment: found, from the list, fetched with its window. */
export type ListedAnswer = ListedPayment & ServiceAnswer & { kind: 'found'; source: 'list' };

/**
 * The period's listed payments by position, read from their windows' columns (PaymentColumns): no
 * object per payment. A payment is made only when asked for (`transaction`, for the few a report item
 * holds) and then kept, so that asking again gives the very same object (the report's references to
 * the list compare payments by identity). Keeping a million payments as objects, their times as
 * strings, was a third of a run at a million payments.
 */
export class ListedList implements ListedSource, ListedFacts {
  private readonly made = new Map<number, Transaction>();

  constructor(
    private readonly cols: readonly PaymentColumns[],
    /** Per payment, its window (an index into `cols` and `fetched`). */
    private readonly window: Uint16Array,
    /** Per payment, its position in its window. */
    private readonly at: Int32Array,
    private readonly fetched: readonly string[],
    readonly length: number,
  ) {}

  transaction(k: number): Transaction {
    let tx = this.made.get(k);
    if (tx === undefined) {
      tx = this.cols[this.window[k]!]!.transaction(this.at[k]!);
      this.made.set(k, tx);
    }
    return tx;
  }

  transactionNo(k: number): string {
    return this.cols[this.window[k]!]!.transactionNo(this.at[k]!);
  }

  reference(k: number): string | undefined {
    return this.cols[this.window[k]!]!.reference(this.at[k]!);
  }

  amountMinor(k: number): number {
    return this.cols[this.window[k]!]!.amountMinor(this.at[k]!);
  }

  currency(k: number): Currency {
    return this.cols[this.window[k]!]!.currency(this.at[k]!);
  }

  status(k: number): string {
    return this.cols[this.window[k]!]!.status(this.at[k]!);
  }

  refundedMinor(k: number): number {
    return this.cols[this.window[k]!]!.refundedMinor(this.at[k]!);
  }

  paymentTime(k: number): number | string | undefined {
    return this.cols[this.window[k]!]!.paymentTime(this.at[k]!);
  }

  fetchedAt(k: number): string {
    return this.fetched[this.window[k]!]!;
  }

  /** The list's answer for payment `k`, made when asked (for a key that names it). */
  answer(k: number): ListedAnswer {
    return {
      kind: 'found',
      transaction: this.transaction(k),
      source: 'list',
      fetchedAt: this.fetchedAt(k),
    };
  }
}

/** A window as listedWithPlaces reads it: its payments as objects (ListWindow) or as columns. */
export type AnyWindow = ListWindow | ColumnWindow;

const columnsOf = (w: AnyWindow & { state: 'listed' }): PaymentColumns =>
  'payments' in w ? w.payments : objectColumns(w.transactions);

/** Listed payments of the stored windows, each once (a payment is in one window only), and their places. */
export function listedWithPlaces(stored: readonly AnyWindow[]): {
  listed: ListedList;
  places: ListedPlaces;
  index: ListIndex;
} {
  const fetched: string[] = [];
  const windows: string[] = [];
  const cols: PaymentColumns[] = [];
  let total = 0;
  for (const w of stored) if (w.state === 'listed') total += columnsOf(w).length;
  // Each payment's number → its position: which payments were seen, and the index by number. Numbers
  // get integers in first-seen order and a payment's position is the next one, so one probe of a
  // table sized once for the whole list both tells a number seen before and files a new one — where a
  // Map of a million fresh strings, grown step by step, was most of this function's time.
  const seen = new KeyIndex(total);
  const window = new Uint16Array(total);
  const at = new Int32Array(total);
  let count = 0;
  let hashes: Int32Array<ArrayBufferLike> = new Int32Array(0);
  for (const w of stored) {
    if (w.state !== 'listed') continue;
    const wi = windows.push(w.startDate) - 1;
    fetched.push(w.fetchedAt);
    const c = columnsOf(w);
    cols.push(c);
    const n = c.length;
    // A window's numbers hashed first, then filed (KeyIndex.idOfHashed): the filings, each a probe of a
    // table far larger than the processor's caches, then wait for memory together instead of in turn.
    const given = c.numberHashes?.();
    if (given) hashes = given;
    else {
      if (hashes.length < n) hashes = new Int32Array(n);
      for (let k = 0; k < n; k += 1) hashes[k] = keyHash(c.transactionNo(k));
    }
    for (let k = 0; k < n; k += 1) {
      // Refund records are not payments of the period; a record of unknown type stays in, so a listed
      // payment never goes missing from the report because the service left its type out.
      if (c.isRefund(k)) continue;
      // A payment is in one window only; a number seen again keeps its first payment.
      if (seen.idOfHashed(c.transactionNo(k), hashes[k]!) !== count) continue;
      window[count] = wi;
      at[count] = k;
      count += 1;
    }
  }
  const listed = new ListedList(cols, window, at, fetched, count);
  return {
    listed,
    places: { windows, window, at },
    index: indexWith(seen, listed),
  };
}

/** Listed payments of the stored windows, each once (a payment is in one window only). */
export function listedPayments(stored: readonly AnyWindow[]): ListedPayment[] {
  const { listed } = listedWithPlaces(stored);
  const out: ListedPayment[] = [];
  for (let k = 0; k < listed.length; k += 1)
    out.push({ transaction: listed.transaction(k), fetchedAt: listed.fetchedAt(k) });
  return out;
}

/**
 * Which listed payment a ledger key names: by transaction number always, by reference when the
 * reference is unique in the list. Kept by the numbers and references themselves — one Map per kind of
 * key, no `tx:` / `ref:` string made per payment or per row — as positions in `listed`, so whatever is
 * made per payment can be made when it is first asked for and kept beside it (see run.ts).
 */
export interface ListIndex {
  /** The position in `listed` of the payment a key names: its transaction number or its reference. */
  positionBy(byTx: boolean, value: string): number | undefined;
  /** The same for a key string (`tx:<no>` / `ref:<reference>`, shared/recon/match lookupKey). */
  position(key: string): number | undefined;
  has(key: string): boolean;
}

/** `t` of `tx:`: a key is `tx:<no>` or `ref:<reference>` (shared/recon/match lookupKey). */
const T = 116;

/**
 * The index, given each listed payment's number's integer, which is its position (its first
 * payment's, for a number listed twice). The map by
 * reference is made when a key by reference is first asked for: a ledger whose every row has its
 * transaction number (the usual one) never asks, and a million references are not hashed for nothing.
 */
function indexWith(byTx: KeyIndex, listed: ListedList): ListIndex {
  const txAt = (value: string) => {
    const p = byTx.find(value);
    return p < 0 ? undefined : p;
  };
  let refs: Map<string, number> | undefined;
  const byRef = (): Map<string, number> => {
    if (refs) return refs;
    const made = new Map<string, number>();
    const repeated = new Set<string>();
    for (let i = 0; i < listed.length; i += 1) {
      const ref = listed.reference(i);
      if (!ref || repeated.has(ref)) continue;
      if (made.has(ref)) {
        made.delete(ref);
        repeated.add(ref);
      } else made.set(ref, i);
    }
    refs = made;
    return made;
  };
  const positionBy = (tx: boolean, value: string) => (tx ? txAt(value) : byRef().get(value));
  const position = (key: string) =>
    key.charCodeAt(0) === T && key.startsWith('tx:') ? txAt(key.slice(3)) : byRef().get(key.slice(4));
  return { positionBy, position, has: (key) => position(key) !== undefined };
}
