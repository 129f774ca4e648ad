/**
 * The run's own stored records a report item refers to (schema v12, ./item-codec.ts): its ledger rows
 * (recon_inputs, kind 'row', chunk by chunk in order) and its list windows (recon_windows). Read when an
 * item is read — a page of the report, an export, the close — a chunk or a window at a time, and kept
 * for the next page: the rows of a page are next to each other in the ledger, and their payments mostly
 * in a few windows. One run's at a time per database, for as long as its items are being read; what a
 * run refers to never changes once it has started, and writing a run's record or windows forgets what
 * was kept of it (`forgetReferents`).
 */
import { isKnownCurrency } from '../../../../shared/domain/currencies';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { LedgerRow } from '../../../../shared/recon/ledger';
import type { Database } from './database';
import { ItemRefError, type Referents } from './item-codec';
import { decodeLedgerChunk } from './ledger-columns';
import { listPaymentAt, parseListColumns, type ParsedListColumns } from './list-columns';
import { type PackedPayments, readListPacked } from './list-packed';

/** Ledger chunks (5,000 rows each from the app and CLI) and windows kept per run. */
const CHUNKS_KEPT = 16;
const WINDOWS_KEPT = 4;

type Window =
  | { kind: 'columns'; w: ParsedListColumns }
  | { kind: 'packed'; w: PackedPayments }
  | { kind: 'objects'; transactions: Transaction[] };

/** Keeps at most `max` entries, dropping the one used longest ago. */
function keep<K, V>(map: Map<K, V>, key: K, value: V, max: number): V {
  map.set(key, value);
  if (map.size > max) map.delete(map.keys().next().value as K);
  return value;
}

function used<K, V>(map: Map<K, V>, key: K): V | undefined {
  const v = map.get(key);
  if (v !== undefined) {
    map.delete(key);
    map.set(key, v);
  }
  return v;
}

function createReferents(db: Database, runId: string): Referents {
  /** Per chunk of rows, in order: its seq and the position of its first row. */
  let chunks: Array<{ seq: number; first: number; count: number }> | undefined;
  const rowChunks = new Map<number, LedgerRow[]>();
  const windows = new Map<string, Window>();
  const damaged = (what: string) =>
    new ItemRefError(
      `The stored record of reconciliation run ${runId} is damaged: an item refers to ${what}, which the run does not hold.`,
    );

  const chunkList = () => {
    if (chunks) return chunks;
    let first = 0;
    chunks = db
      .all<{ seq: number; count: number }>(
        "SELECT seq, count FROM recon_inputs WHERE job_id = ? AND kind = 'row' ORDER BY seq",
        runId,
      )
      .map((r) => {
        const c = { seq: Number(r.seq), first, count: Number(r.count) };
        first += c.count;
        return c;
      });
    return chunks;
  };

  return {
    row(index) {
      const list = chunkList();
      // The last chunk whose first row is at or before `index`.
      let lo = 0;
      let hi = list.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (list[mid]!.first <= index) lo = mid;
        else hi = mid - 1;
      }
      const c = list[lo];
      if (!c || index < c.first || index >= c.first + c.count) throw damaged(`ledger row ${index}`);
      let rows = used(rowChunks, c.seq);
      if (!rows) {
        const r = db.get<{ data: string }>(
          'SELECT data FROM recon_inputs WHERE job_id = ? AND seq = ?',
          runId,
          c.seq,
        );
        if (!r) throw damaged(`ledger row ${index}`);
        rows = keep(rowChunks, c.seq, decodeLedgerChunk(r.data), CHUNKS_KEPT);
      }
      const row = rows[index - c.first];
      if (!row) throw damaged(`ledger row ${index}`);
      return row;
    },
    listed(window, at) {
      let w = used(windows, window);
      if (!w) {
        const r = db.get<{ state: string; data: string | Uint8Array; layout: string }>(
          'SELECT state, data, layout FROM recon_windows WHERE job_id = ? AND start_date = ?',
          runId,
          window,
        );
        if (!r || r.state !== 'listed') throw damaged(`the list window of ${window}`);
        let read: Window | undefined;
        if (r.layout === 'packed') {
          const packed = typeof r.data === 'string' ? undefined : readListPacked(r.data, isKnownCurrency);
          if (packed) read = { kind: 'packed', w: packed };
        } else if (r.layout === 'columns') {
          const parsed = parseListColumns(String(r.data), isKnownCurrency);
          if (parsed) read = { kind: 'columns', w: parsed };
        } else read = { kind: 'objects', transactions: JSON.parse(String(r.data)) as Transaction[] };
        if (!read) throw damaged(`the list window of ${window}`);
        w = keep(windows, window, read, WINDOWS_KEPT);
      }
      const tx =
        w.kind === 'columns'
          ? listPaymentAt(w.w, at)
          : w.kind === 'packed'
            ? Number.isInteger(at) && at >= 0 && at < w.w.length
              ? w.w.transaction(at)
              : undefined
            : w.transactions[at];
      if (!tx) throw damaged(`payment ${at} of the list window of ${window}`);
      return tx;
    },
  };
}

/** One run's referents per database: the last run read, forgotten once no item of it was read for a while. */
const kept = new WeakMap<
  Database,
  { runId: string; refs: Referents; timer?: ReturnType<typeof setTimeout> }
>();

/**
 * A run's parsed list is kept while its items are being read (pages of a screen, an export), not for
 * the life of the process: at a million payments it is a few hundred MB.
 */
const KEPT_IDLE_MS = 30_000;

/** The referents of a run's items (kept for the next read of the same run). */
export function runReferents(db: Database, runId: string): Referents {
  let k = kept.get(db);
  if (!k || k.runId !== runId) {
    if (k?.timer) clearTimeout(k.timer);
    k = { runId, refs: createReferents(db, runId) };
    kept.set(db, k);
  }
  if (k.timer) clearTimeout(k.timer);
  const entry = k;
  entry.timer = setTimeout(() => {
    if (kept.get(db) === entry) kept.delete(db);
  }, KEPT_IDLE_MS);
  // Never what keeps the process alive.
  entry.timer.unref?.();
  return entry.refs;
}

/** Forgets what was kept of a run (its record, its windows or its ledger are being written). */
export function forgetReferents(db: Database, runId: string): void {
  const k = kept.get(db);
  if (k?.runId !== runId) return;
  if (k.timer) clearTimeout(k.timer);
  kept.delete(db);
}
