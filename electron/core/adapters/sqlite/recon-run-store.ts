import { isKnownCurrency } from '../../../../shared/domain/currencies';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { RunFacts } from '../../../../shared/recon/run';
import type { ReconSummary } from '../../../../shared/recon/summary';
import type {
  CachedAnswer,
  InputKind,
  ListWindow,
  RunInput,
  RunStore,
  StoredRun,
} from '../../services/reconciliation/run-store';
import type { Database, Row } from './database';
import { decodeItem, encodeItem } from './item-codec';
import { forgetReferents, runReferents } from './item-refs';
import { decodeLedgerChunk, encodeLedgerColumns } from './ledger-columns';
import { decodeListColumns, encodeListColumns } from './list-columns';
import { inKnownCurrencies } from './stored';

const KINDS: readonly InputKind[] = ['row', 'unusable', 'cached'];
/** Report items written per INSERT statement (5 values each; SQLite allows 32,766). */
const ITEMS_PER_INSERT = 200;

interface WindowRow {
  start_date: string;
  end_date: string;
  fetched_at: string;
  state: string;
  data: string;
  /** 'objects': JSON of whole transactions (before schema v10); 'columns': ./list-columns.ts. */
  layout: string;
}

/** A window of layout 'objects' as read before v10: all its payments, or none if one is unreadable. */
const objectsLayout = (transactions: Transaction[]) =>
  transactions.every(inKnownCurrencies) ? transactions : undefined;

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

const SELECT_RUN = `SELECT j.*, (SELECT count(*) FROM recon_items i WHERE i.job_id = j.id) AS items
  FROM recon_jobs j`;

/** Reconciliation run records in the app database (schema v3; list windows as columns since v10). */
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
  const remove = (runId: string) =>
    db.immediate(() => {
      forgetReferents(db, runId);
      db.run('DELETE FROM recon_exceptions WHERE run_id = ?', runId);
      for (const t of ['recon_items', 'recon_windows', 'recon_inputs', 'recon_results'])
        db.run(`DELETE FROM ${t} WHERE job_id = ?`, runId);
      db.run('DELETE FROM recon_jobs WHERE id = ?', runId);
    });
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
      return db.immediate(() => {
        const next = db.get<{ n: number }>(
          'SELECT coalesce(max(seq), -1) + 1 AS n FROM recon_inputs WHERE job_id = ?',
          runId,
        );
        db.run(
          'INSERT INTO recon_inputs (job_id, seq, kind, count, data) VALUES (?, ?, ?, ?, ?)',
          runId,
          Number(next?.n ?? 0),
          kind,
          entries.length,
          // Ledger rows as columns (./ledger-columns.ts); anything else as its JSON.
          (kind === 'row' ? encodeLedgerColumns(entries) : undefined) ?? JSON.stringify(entries),
        );
        return counts(runId);
      });
    },
    readInputCounts: counts,
    readInput(runId) {
      const input: RunInput = { rows: [], unusable: [], cached: [] };
      for (const r of db.all<{ kind: InputKind; data: string }>(
        'SELECT kind, data FROM recon_inputs WHERE job_id = ? ORDER BY seq',
        runId,
      )) {
        const entries = r.kind === 'row' ? decodeLedgerChunk(r.data) : (JSON.parse(r.data) as unknown[]);
        // One push per entry: a stored chunk spread into push's arguments can overflow the call stack.
        if (r.kind === 'row') for (const e of entries as RunInput['rows']) input.rows.push(e);
        else if (r.kind === 'unusable')
          for (const e of entries as RunInput['unusable']) input.unusable.push(e);
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
      // A listed window as columns (./list-columns.ts); the unsupported window's sentence as before.
      const listed = w.state === 'listed';
      const data = listed ? encodeListColumns(w.transactions) : JSON.stringify(w.message);
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
          listed ? 'columns' : 'objects',
        ),
      );
    },
    readWindows(runId) {
      // One window's text at a time (read, decoded, let go): at a million payments the whole list's text
      // never sits in memory beside the payments made of it.
      const out: ListWindow[] = [];
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
          out.push({ ...base, state: 'unsupported', message: JSON.parse(r.data) as string });
          continue;
        }
        // A window with a currency this app does not handle is left out (the run lists it again).
        const transactions =
          r.layout === 'columns'
            ? decodeListColumns(r.data, isKnownCurrency)
            : objectsLayout(JSON.parse(r.data) as Transaction[]);
        if (transactions) out.push({ ...base, state: 'listed', transactions });
      }
      return out;
    },
    saveResult(runId, { facts, summary, statement, items }, refs) {
      forgetReferents(db, runId);
      db.immediate(() => {
        db.run('DELETE FROM recon_items WHERE job_id = ?', runId);
        // ITEMS_PER_INSERT items per statement: at a million items the cost of a statement per item (its
        // binding and step) was most of the time to write the record.
        const insert = (n: number) =>
          db.stmt(
            `INSERT INTO recon_items (job_id, seq, line, outcome, data) VALUES ${Array.from({ length: n }, () => '(?, ?, ?, ?, ?)').join(', ')}`,
          );
        const full = insert(ITEMS_PER_INSERT);
        const params: Array<string | number | null> = [];
        for (let seq = 0; seq < items.length; seq += 1) {
          const item = items[seq]!;
          params.push(runId, seq, item.line ?? null, item.outcome, encodeItem(item, refs));
          if (params.length === ITEMS_PER_INSERT * 5) full.run(...params.splice(0));
        }
        if (params.length > 0) insert(params.length / 5).run(...params);
        db.run(
          'UPDATE recon_jobs SET facts = ?, summary = ?, statement = ?, ended_as = ?, started = 1 WHERE id = ?',
          JSON.stringify(facts),
          JSON.stringify(summary),
          JSON.stringify(statement),
          facts.endedAs ?? 'completed',
          runId,
        );
      });
    },
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
