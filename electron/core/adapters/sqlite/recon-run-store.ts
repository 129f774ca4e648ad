import { isKnownCurrency } from '../../../../shared/domain/currencies';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { LedgerRow } from '../../../../shared/recon/ledger';
import type { RunFacts } from '../../../../shared/recon/run';
import type { ReconItem } from '../../../../shared/recon/match';
import type { ReconSummary } from '../../../../shared/recon/summary';
import type {
  CachedAnswer,
  ColumnWindow,
  InputKind,
  ListWindow,
  PaymentColumns,
  RunInput,
  RunStore,
  StoredRun,
} from '../../services/reconciliation/run-store';
import type { Database, Row } from './database';
import { decodeItem, decodePage, PageEncoder } from './item-codec';
import { forgetReferents, runReferents } from './item-refs';
import { decodeLedgerChunk, encodeLedgerColumns } from './ledger-columns';
import { JsonColumnPayments, parseListColumns } from './list-columns';
import { encodeListPacked, readListPacked } from './list-packed';
import { inKnownCurrencies } from './stored';
import { objectColumns } from '../../services/reconciliation/payment-columns';

const KINDS: readonly InputKind[] = ['row', 'unusable', 'cached'];
/**
 * Report items per stored page (recon_item_pages, schema v13). A screen's page or an export's reads one
 * or two pages; a million items are a thousand rows instead of a million rows and index entries.
 */
export const ITEMS_PER_PAGE = 1000;

interface WindowRow {
  start_date: string;
  end_date: string;
  fetched_at: string;
  state: string;
  data: string | Uint8Array;
  /**
   * 'objects': JSON of whole transactions (before schema v10); 'columns': ./list-columns.ts (v10–v13);
   * 'packed': ./list-packed.ts (since v14).
   */
  layout: string;
}

/** A window of layout 'objects' as read before v10: all its payments, or none if one is unreadable. */
const objectsLayout = (transactions: Transaction[]) =>
  transactions.every(inKnownCurrencies) ? transactions : undefined;

/** The stored bytes of a 'packed' window (node:sqlite gives a BLOB as a Uint8Array). */
const packedBytes = (data: string | Uint8Array) => {
  if (typeof data === 'string') throw new Error('a packed list window is stored as text');
  return data;
};

/** A listed window's payments as stored: objects (before v10) or either layout of columns. */
function listedPayments(r: WindowRow): Transaction[] | PaymentColumns | undefined {
  if (r.layout === 'packed') return readListPacked(packedBytes(r.data), isKnownCurrency);
  if (r.layout === 'columns') {
    const parsed = parseListColumns(String(r.data), isKnownCurrency);
    return parsed && new JsonColumnPayments(parsed);
  }
  return objectsLayout(JSON.parse(String(r.data)) as Transaction[]);
}

/** Every payment of a window as read (listedPayments), each exactly as written. */
function allOf(p: Transaction[] | PaymentColumns): Transaction[] {
  if (Array.isArray(p)) return p;
  const c = p as PaymentColumns;
  const out = new Array<Transaction>(c.length);
  for (let at = 0; at < c.length; at += 1) out[at] = c.transaction(at);
  return out;
}

function storedRun(r: Row): StoredRun {
  const facts = JSON.parse(String(r['facts'])) as RunFacts;
  const run: StoredRun = {
    facts,
    started: Number(r['started']) === 1,
    keys: JSON.parse(String(r['keys'])) as string[],
  };
  if (r['summary'] && r['statement'])
    run.result = {
      summary: JSON.parse(String(r['summary'])) as ReconSummary,
      statement: JSON.parse(String(r['statement'])) as string[],
      items: Number(r['items'] ?? 0),
    };
  return run;
}

// Items in pages (v13) or, for a run stored before, a row each.
const SELECT_RUN = `SELECT j.*, (SELECT coalesce(sum(p.count), 0) FROM recon_item_pages p WHERE p.job_id = j.id)
    + (SELECT count(*) FROM recon_items i WHERE i.job_id = j.id) AS items
  FROM recon_jobs j`;

/** The pages holding items `offset` to `offset + limit - 1`: the one `offset` is in, and those after. */
const SELECT_PAGES = `SELECT first_seq, data FROM recon_item_pages
  WHERE job_id = ?1 AND first_seq < ?2 + ?3 AND first_seq >= coalesce(
    (SELECT max(first_seq) FROM recon_item_pages WHERE job_id = ?1 AND first_seq <= ?2), 0)
  ORDER BY first_seq`;

/**
 * The ledger rows a run was handed in this process, chunk by chunk (by the chunk's seq), so the run
 * that starts next is given them as they are instead of parsing again what was just stored (at a
 * million rows half a second, and a million new objects). Only chunks stored as columns, which read
 * back exactly as handed over (./ledger-columns.ts); the stored chunks stay the run's durable copy,
 * read after a restart. One run's at a time; let go once read, or HANDED_IDLE_MS after the last chunk
 * (a draft never started does not hold its ledger in memory).
 */
interface HandedRows {
  runId: string;
  chunks: Map<number, LedgerRow[]>;
  timer?: ReturnType<typeof setTimeout>;
}
const HANDED_IDLE_MS = 60_000;

/**
 * Reconciliation run records in the app database (schema v3; list windows as columns since v10; report
 * items in pages of ITEMS_PER_PAGE since v13, runs stored before read from their row per item).
 */
export function createSqliteRunStore(db: Database): RunStore {
  const counts = (runId: string): Record<InputKind, number> => {
    const out: Record<InputKind, number> = { row: 0, unusable: 0, cached: 0 };
    for (const r of db.all<{ kind: InputKind; n: number }>(
      'SELECT kind, sum(count) AS n FROM recon_inputs WHERE job_id = ? GROUP BY kind',
      runId,
    ))
      out[r.kind] = Number(r.n);
    return out;
  };
  let handed: HandedRows | undefined;
  const forgetHanded = (runId: string) => {
    if (handed?.runId !== runId) return;
    if (handed.timer) clearTimeout(handed.timer);
    handed = undefined;
  };
  const remove = (runId: string) =>
    db.immediate(() => {
      forgetReferents(db, runId);
      forgetHanded(runId);
      db.run('DELETE FROM recon_exceptions WHERE run_id = ?', runId);
      for (const t of ['recon_item_pages', 'recon_items', 'recon_windows', 'recon_inputs', 'recon_results'])
        db.run(`DELETE FROM ${t} WHERE job_id = ?`, runId);
      db.run('DELETE FROM recon_jobs WHERE id = ?', runId);
    });
  /**
   * Writes a run's result, its items as `write` makes them: a page of ITEMS_PER_PAGE items per row
   * (schema v13; at a million items a row per item — its binding, step and index entry — was most of
   * the time to write the record), each page written once full and its items let go, all in one
   * transaction.
   */
  const saveAsMade: RunStore['saveResultAsMade'] = (runId, write, refs) => {
    forgetReferents(db, runId);
    return db.immediate(() => {
      db.run('DELETE FROM recon_items WHERE job_id = ?', runId);
      db.run('DELETE FROM recon_item_pages WHERE job_id = ?', runId);
      const insert = db.stmt(
        'INSERT INTO recon_item_pages (job_id, first_seq, count, unmatched, data) VALUES (?, ?, ?, ?, ?)',
      );
      const page = new PageEncoder(refs);
      let first = 0;
      const flush = () => {
        const count = page.count;
        const { data, unmatched } = page.end();
        insert.run(runId, first, count, unmatched.length > 0 ? JSON.stringify(unmatched) : null, data);
        first += count;
      };
      const { facts, summary, statement } = write(
        (item) => {
          page.add(item);
          if (page.count === ITEMS_PER_PAGE) flush();
        },
        (fetchedAt, row, listed, dayOffset) => {
          page.addUsual(fetchedAt, row, listed, dayOffset);
          if (page.count === ITEMS_PER_PAGE) flush();
        },
      );
      if (page.count > 0) flush();
      db.run(
        'UPDATE recon_jobs SET facts = ?, summary = ?, statement = ?, ended_as = ?, started = 1 WHERE id = ?',
        JSON.stringify(facts),
        JSON.stringify(summary),
        JSON.stringify(statement),
        facts.endedAs ?? 'completed',
        runId,
      );
      return first;
    });
  };
  /**
   * The run's windows in order, their payments as stored, one window read at a time. A packed window's
   * columns are read in place in its bytes (kept for the run instead of the payments made of them); a
   * window of an earlier layout is parsed and its text let go.
   */
  const readStored = (runId: string) => {
    const out: Array<
      | {
          startDate: string;
          endDate: string;
          fetchedAt: string;
          state: 'listed';
          payments: Transaction[] | PaymentColumns;
        }
      | { startDate: string; endDate: string; fetchedAt: string; state: 'unsupported'; message: string }
    > = [];
    for (const { start_date } of db.all<{ start_date: string }>(
      'SELECT start_date FROM recon_windows WHERE job_id = ? ORDER BY start_date',
      runId,
    )) {
      const r = db.get<WindowRow>(
        'SELECT * FROM recon_windows WHERE job_id = ? AND start_date = ?',
        runId,
        start_date,
      );
      if (!r) continue;
      const base = { startDate: r.start_date, endDate: r.end_date, fetchedAt: r.fetched_at };
      if (r.state !== 'listed') {
        out.push({ ...base, state: 'unsupported', message: JSON.parse(String(r.data)) as string });
        continue;
      }
      // A window with a currency this app does not handle is left out (the run lists it again).
      const payments = listedPayments(r);
      if (payments) out.push({ ...base, state: 'listed', payments });
    }
    return out;
  };
  return {
    create(facts) {
      db.immediate(() =>
        db.run(
          `INSERT INTO recon_jobs (id, profile_id, label, created_at, keys, ended_as, facts, started)
           VALUES (?, ?, ?, ?, '[]', NULL, ?, 0)`,
          facts.runId,
          facts.profileId,
          facts.label,
          facts.createdAt,
          JSON.stringify(facts),
        ),
      );
    },
    addInput(runId, kind, entries) {
      if (!KINDS.includes(kind)) throw new Error(`unknown input kind ${kind}`);
      // Ledger rows as columns (./ledger-columns.ts); anything else as its JSON.
      const columns = kind === 'row' ? encodeLedgerColumns(entries) : undefined;
      const out = db.immediate(() => {
        const next = db.get<{ n: number }>(
          'SELECT coalesce(max(seq), -1) + 1 AS n FROM recon_inputs WHERE job_id = ?',
          runId,
        );
        const seq = Number(next?.n ?? 0);
        db.run(
          'INSERT INTO recon_inputs (job_id, seq, kind, count, data) VALUES (?, ?, ?, ?, ?)',
          runId,
          seq,
          kind,
          entries.length,
          columns ?? JSON.stringify(entries),
        );
        return { seq, counts: counts(runId) };
      });
      // Kept once stored (a chunk that failed to store is not the run's).
      if (columns !== undefined) {
        if (handed?.runId !== runId) {
          if (handed?.timer) clearTimeout(handed.timer);
          handed = { runId, chunks: new Map() };
        }
        const h = handed;
        h.chunks.set(out.seq, entries.slice() as LedgerRow[]);
        if (h.timer) clearTimeout(h.timer);
        h.timer = setTimeout(() => {
          if (handed === h) handed = undefined;
        }, HANDED_IDLE_MS);
        // Never what keeps the process alive.
        h.timer.unref?.();
      }
      return out.counts;
    },
    readInputCounts: counts,
    readInput(runId) {
      const input: RunInput = { rows: [], unusable: [], cached: [] };
      const kept = handed?.runId === runId ? handed.chunks : undefined;
      forgetHanded(runId);
      for (const { seq, kind } of db.all<{ seq: number; kind: InputKind }>(
        'SELECT seq, kind FROM recon_inputs WHERE job_id = ? ORDER BY seq',
        runId,
      )) {
        // The chunk as handed over in this process, else as stored (one chunk's text at a time).
        const stored = () =>
          String(
            db.get<{ data: string }>('SELECT data FROM recon_inputs WHERE job_id = ? AND seq = ?', runId, seq)
              ?.data,
          );
        const entries =
          kind === 'row'
            ? (kept?.get(Number(seq)) ?? decodeLedgerChunk(stored()))
            : (JSON.parse(stored()) as unknown[]);
        // One push per entry: a stored chunk spread into push's arguments can overflow the call stack.
        if (kind === 'row') for (const e of entries as RunInput['rows']) input.rows.push(e);
        else if (kind === 'unusable') for (const e of entries as RunInput['unusable']) input.unusable.push(e);
        else
          for (const c of entries as CachedAnswer[])
            if (inKnownCurrencies(c.transaction)) input.cached.push(c);
      }
      return input;
    },
    markStarted(runId, keys) {
      db.immediate(() =>
        db.run('UPDATE recon_jobs SET started = 1, keys = ? WHERE id = ?', JSON.stringify(keys), runId),
      );
    },
    setKeys(runId, keys) {
      db.immediate(() => db.run('UPDATE recon_jobs SET keys = ? WHERE id = ?', JSON.stringify(keys), runId));
    },
    saveWindow(runId, w) {
      forgetReferents(db, runId);
      // A listed window packed (./list-packed.ts); the unsupported window's sentence as before.
      const listed = w.state === 'listed';
      const data = listed ? encodeListPacked(w.transactions) : JSON.stringify(w.message);
      db.immediate(() =>
        db.run(
          `INSERT OR REPLACE INTO recon_windows (job_id, start_date, end_date, fetched_at, state, data, layout)
           VALUES (?, ?, ?, ?, ?, ?, ?)`,
          runId,
          w.startDate,
          w.endDate,
          w.fetchedAt,
          w.state,
          data,
          listed ? 'packed' : 'objects',
        ),
      );
    },
    readWindows(runId) {
      return readStored(runId).map((w): ListWindow => {
        if (w.state !== 'listed') return w;
        const { payments, ...base } = w;
        return { ...base, transactions: allOf(payments) };
      });
    },
    readWindowColumns(runId) {
      return readStored(runId).map((w): ColumnWindow =>
        w.state === 'listed' && Array.isArray(w.payments)
          ? { ...w, payments: objectColumns(w.payments as Transaction[]) }
          : (w as ColumnWindow),
      );
    },
    saveResult(runId, { facts, summary, statement, items }, refs) {
      saveAsMade(
        runId,
        (put) => {
          for (let i = 0; i < items.length; i += 1) put(items[i]!);
          return { facts, summary, statement };
        },
        refs,
      );
    },
    saveResultAsMade: saveAsMade,
    get(runId) {
      const r = db.get(`${SELECT_RUN} WHERE j.id = ? AND j.facts IS NOT NULL`, runId);
      return r ? storedRun(r) : undefined;
    },
    list(profileId) {
      return (
        profileId === undefined
          ? db.all(`${SELECT_RUN} WHERE j.facts IS NOT NULL ORDER BY j.created_at DESC`)
          : db.all(
              `${SELECT_RUN} WHERE j.profile_id = ? AND j.facts IS NOT NULL ORDER BY j.created_at DESC`,
              profileId,
            )
      ).map(storedRun);
    },
    readItems(runId, offset, limit) {
      const refs = runReferents(db, runId);
      if (limit <= 0) return [];
      const pages = db.all<{ first_seq: number; data: string }>(SELECT_PAGES, runId, offset, limit);
      if (pages.length > 0) {
        const out: ReconItem[] = [];
        for (const p of pages) {
          const texts = JSON.parse(p.data) as string[];
          const first = Number(p.first_seq);
          const from = Math.max(0, offset - first);
          const to = Math.min(texts.length, offset + limit - first);
          for (const item of decodePage(texts, from, to, refs)) out.push(item);
        }
        return out;
      }
      // A run stored before v13: a row per item.
      return db
        .all<{ data: string }>(
          'SELECT data FROM recon_items WHERE job_id = ? AND seq >= ? ORDER BY seq LIMIT ?',
          runId,
          offset,
          limit,
        )
        .map((r) => decodeItem(r.data, refs));
    },
    copyWindows(fromRunId, toRunId) {
      forgetReferents(db, toRunId);
      db.immediate(() =>
        db.run(
          `INSERT OR REPLACE INTO recon_windows (job_id, start_date, end_date, fetched_at, state, data, layout)
           SELECT ?, start_date, end_date, fetched_at, state, data, layout FROM recon_windows WHERE job_id = ?`,
          toRunId,
          fromRunId,
        ),
      );
    },
    remove,
    pruneDrafts(beforeIso) {
      const ids = db
        .all<{ id: string }>(
          'SELECT id FROM recon_jobs WHERE started = 0 AND facts IS NOT NULL AND created_at < ?',
          beforeIso,
        )
        .map((r) => r.id);
      for (const id of ids) remove(id);
      return ids.length;
    },
  };
}
