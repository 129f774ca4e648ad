/**
 * The period's payments, read through the service's date-range list (trans-list, the same call as
 * "Sync by date": ≤ 15 UTC+8 days per window). Each window is stored as it arrives, with when it was
 * fetched, so a resumed run reads only the windows it does not have. Where the service does not offer
 * the list the run carries on one-way and says so; where it cannot be reached the run pauses and says why.
 */
import { isAppError } from '../../../../shared/domain/errors';
import type { ServiceAnswer } from '../../../../shared/recon/match';
import type { ListedPayment } from '../../../../shared/recon/two-way';
import { serviceDateToMs } from '../../../../shared/protocol/time';
import type { GatewayClient } from '../gateway/client';
import { notOffered } from '../transactions/sync';
import type { ListWindow } from './run-store';

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
  stored: readonly ListWindow[],
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

/** Listed payments of the stored windows, each once (a payment is in one window only), and their places. */
/** A listed payment that is also the answer the list gives for it (run.ts hands it to the matching). */
export type ListedAnswer = ListedPayment & ServiceAnswer & { kind: 'found'; source: 'list' };

export function listedWithPlaces(stored: readonly ListWindow[]): {
  listed: ListedAnswer[];
  places: ListedPlaces;
  index: ListIndex;
} {
  // A payment is in one window only, so a number seen twice is rare: each number is put in the map
  // (one probe), and only when the map ends up smaller than the payments put in — some number came
  // twice and the later one took its place — is the list made again, asking the map before each.
  return listedOnce(stored, false) ?? listedOnce(stored, true)!;
}

function listedOnce(
  stored: readonly ListWindow[],
  repeats: boolean,
): { listed: ListedAnswer[]; places: ListedPlaces; index: ListIndex } | undefined {
  const out: ListedAnswer[] = [];
  // Each payment's number → its position: which payments were seen, and the index's map by number.
  const seen = new Map<string, number>();
  const windows: string[] = [];
  let total = 0;
  for (const w of stored) if (w.state === 'listed') total += w.transactions.length;
  const window = new Uint16Array(total);
  const at = new Int32Array(total);
  for (const w of stored) {
    if (w.state !== 'listed') continue;
    const wi = windows.push(w.startDate) - 1;
    const txs = w.transactions;
    for (let k = 0; k < txs.length; k += 1) {
      const transaction = txs[k]!;
      // Refund records are not payments of the period; a record of unknown type stays in, so a listed
      // payment never goes missing from the report because the service left its type out.
      if (transaction.transactionType === 'refund') continue;
      if (repeats && seen.has(transaction.transactionNo)) continue;
      seen.set(transaction.transactionNo, out.length);
      window[out.length] = wi;
      at[out.length] = k;
      // Made as the list's answer too (kind, source): the matching asks for it by this very object.
      out.push({ kind: 'found', transaction, source: 'list', fetchedAt: w.fetchedAt } as ListedAnswer);
    }
  }
  if (seen.size !== out.length) return undefined;
  return { listed: out, places: { windows, window, at }, index: indexWith(seen, out) };
}

/** Listed payments of the stored windows, each once (a payment is in one window only). */
export function listedPayments(stored: readonly ListWindow[]): ListedPayment[] {
  return listedWithPlaces(stored).listed;
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

export function listIndex(listed: readonly ListedPayment[]): ListIndex {
  const byTx = new Map<string, number>();
  for (let i = 0; i < listed.length; i += 1) byTx.set(listed[i]!.transaction.transactionNo, i);
  return indexWith(byTx, listed);
}

/**
 * The index, given the map by number (each listed payment's number → its position). The map by
 * reference is made when a key by reference is first asked for: a ledger whose every row has its
 * transaction number (the usual one) never asks, and a million references are not hashed for nothing.
 */
function indexWith(byTx: Map<string, number>, listed: readonly ListedPayment[]): ListIndex {
  let refs: Map<string, number> | undefined;
  const byRef = (): Map<string, number> => {
    if (refs) return refs;
    const made = new Map<string, number>();
    const repeated = new Set<string>();
    for (let i = 0; i < listed.length; i += 1) {
      const ref = listed[i]!.transaction.reference;
      if (!ref || repeated.has(ref)) continue;
      if (made.has(ref)) {
        made.delete(ref);
        repeated.add(ref);
      } else made.set(ref, i);
    }
    refs = made;
    return made;
  };
  const positionBy = (tx: boolean, value: string) => (tx ? byTx.get(value) : byRef().get(value));
  const position = (key: string) =>
    key.charCodeAt(0) === T && key.startsWith('tx:') ? byTx.get(key.slice(3)) : byRef().get(key.slice(4));
  return { positionBy, position, has: (key) => position(key) !== undefined };
}
