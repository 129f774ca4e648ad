/**
 * Executes one reconciliation run: read the period's list (window by window), look up the keys that
 * neither the list nor the cache answers (the batch runner), then match and store the whole result as
 * the run's record. Pause, resume and cancel work in every phase; cancel (or a run that cannot go on)
 * still ends in a report of what was done. Everything it needs is in the stores, so a run interrupted
 * by a restart resumes from there: stored windows are not fetched again, stored answers not asked again.
 */
import { keyOf, type ServiceAnswer } from '../../../../shared/recon/match';
import { listWindows } from '../../../../shared/recon/period';
import { detailAmount, makeReport, type ReportInput } from '../../../../shared/recon/report';
import { OFFLINE_CODES, type RunFacts } from '../../../../shared/recon/run';
import { statementOf } from '../../../../shared/recon/statement';
import type { AdaptiveLimiter } from '../gateway/adaptive-limit';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { JobStore } from './job-store';
import {
  type AnyWindow,
  fetchWindow,
  type ListedList,
  type ListIndex,
  type ListedPlaces,
  listedWithPlaces,
  listingOf,
} from './listing';
import type { ItemRefs, RunInput, RunStore } from './run-store';
import { type Runner, startRunner } from './runner';

export type RunState = 'running' | 'paused' | 'cancelled' | 'completed';
export type RunPhase = 'listing' | 'lookups' | 'matching' | 'done';

export interface RunProgress {
  state: RunState;
  phase: RunPhase;
  done: number;
  total: number;
  failed: number;
  etaMs?: number;
  stoppedBecause?: { code: string; message: string };
}

export interface RunDeps {
  runs: RunStore;
  jobs: JobStore;
  clock: Clock;
  log: Logger;
  gateway: Pick<GatewayClient, 'queryTransaction' | 'listTransactions'>;
  concurrency?: number;
  limiter?: AdaptiveLimiter;
  onProgress: (p: RunProgress) => void;
  /**
   * Work that must be stored before the record is (carry-forward's re-check): the record's `completed`
   * is only said once everything the report shows is there.
   */
  beforeSave?: (input: RunInput, facts: RunFacts) => Promise<void>;
}

export interface RunHandle {
  /** Resolves once the run's record is stored (completed or cancelled). */
  done: Promise<void>;
  progress(): RunProgress;
  pause(): void;
  resume(): void;
  cancel(): void;
  /** Stops handing out work and writes answers so far (app shutdown); the run stays resumable. */
  suspend(): Promise<void>;
}

/**
 * Where the run's stored ledger and list hold the rows and payments its items were made of, so the
 * record refers to them instead of copying them (run-store saveResult). Items come in ledger order, so
 * a cursor over the rows finds each item's row; a payment is found by its number in the list's index,
 * and only the very object listed counts.
 */
function itemRefs(input: RunInput, list: ListedRows): ItemRefs {
  const { rows } = input;
  const { listed, index, places, positions } = list;
  let next = 0;
  /** The row of the item being stored (rowOf is asked first), -1 for an item without one. */
  let last = -1;
  return {
    rowOf(row) {
      last = -1;
      if (rows[next] === row) last = next++;
      else {
        // Not the next row: search from here (never in a report made by buildReport, kept correct anyway).
        const at = rows.indexOf(row, next);
        if (at >= 0) last = at;
        next = at >= 0 ? at + 1 : next;
      }
      return last;
    },
    listedOf(tx) {
      // The payment the item's row was answered with, else (the service's own items) by its number.
      const byRow = last >= 0 ? positions[last]! : -1;
      last = -1;
      const p =
        byRow >= 0 && listed.transaction(byRow) === tx ? byRow : index.positionBy(true, tx.transactionNo);
      if (p === undefined || listed.transaction(p) !== tx) return undefined;
      return `${places.windows[places.window[p]!]}:${places.at[p]}`;
    },
  };
}

/** The period's list as the run uses it: the payments, their index, their places, each row's payment. */
interface ListedRows {
  listed: ListedList;
  index: ListIndex;
  places: ListedPlaces;
  /** Per ledger row: the position in `listed` of the payment its key names, -1 when none. */
  positions: Int32Array;
}

/**
 * Per ledger row, the listed payment its key names (at most one probe per row, used by every step
 * after). A ledger and the service's list are both usually in time order: the payment after the
 * previous row's is tried first, and a row that names it (its very number: numbers are unique in the
 * list) needs no probe of the index — a million random reads of a large table at a million rows.
 * With `window` (each listed payment's window, ListedPlaces), the payment after the last one of the
 * window left before is tried second: a ledger in another order than the service's (by number, where
 * the list is by day; or rows of two windows' days interleaved) goes back and forth between two windows,
 * and the payments of each still come in order. Only the probes change: every row gets the position
 * the index gives (numbers are unique in the list).
 */
export function listPositions(
  rows: RunInput['rows'],
  index: ListIndex,
  listed: Pick<ListedList, 'length' | 'transactionNo'>,
  window?: Uint16Array,
): Int32Array {
  const out = new Int32Array(rows.length);
  // After the previous row's payment; after the last payment of the window before that one (-1: none).
  let next = 0;
  let other = -1;
  for (let i = 0; i < rows.length; i += 1) {
    const row = rows[i]!;
    const no = row.transactionNo;
    let p: number | undefined;
    if (no)
      p =
        next < listed.length && listed.transactionNo(next) === no
          ? next
          : other >= 0 && other < listed.length && listed.transactionNo(other) === no
            ? other
            : index.positionBy(true, no);
    else p = index.positionBy(false, row.reference ?? '');
    if (p === undefined) out[i] = -1;
    else {
      out[i] = p;
      if (window && next > 0 && p !== next && window[next - 1] !== window[p]) other = next;
      next = p + 1;
    }
  }
  return out;
}

/** forEachLedgerKey over the rows the list does not answer: each of their distinct keys once, in order. */
function forEachUnlistedKey(
  rows: RunInput['rows'],
  positions: Int32Array,
  fn: (byTx: boolean, value: string) => void,
): void {
  const seenTx = new Set<string>();
  const seenRef = new Set<string>();
  for (let i = 0; i < rows.length; i += 1) {
    if (positions[i]! >= 0) continue;
    const row = rows[i]!;
    const byTx = Boolean(row.transactionNo);
    const value = byTx ? row.transactionNo! : (row.reference ?? '');
    const seen = byTx ? seenTx : seenRef;
    if (seen.has(value)) continue;
    seen.add(value);
    fn(byTx, value);
  }
}

/** Starts (or resumes) a stored run. With `cancelled`, it only writes the report of what is stored. */
export function executeRun(
  runId: string,
  deps: RunDeps,
  opts: { cancelled?: boolean; input?: RunInput } = {},
): RunHandle {
  const { runs, jobs, clock } = deps;
  let state: RunState = opts.cancelled ? 'cancelled' : 'running';
  let phase: RunPhase = 'listing';
  let listDone = 0;
  let listTotal = 0;
  let stoppedBecause: RunProgress['stoppedBecause'];
  let runner: Runner | undefined;
  let appender: ReturnType<JobStore['appender']> | undefined;
  let listingOffline = false;
  let listProblem: string | undefined;
  // Set by suspend (app shutdown): answers still in flight are dropped, nothing more is written.
  let suspended = false;
  const abort = new AbortController();
  const parked: Array<() => void> = [];
  const release = () => parked.splice(0).forEach((r) => r());

  const progress = (): RunProgress => {
    if (phase === 'lookups' && runner) return { ...runner.progress(), state, phase };
    const p: RunProgress = { state, phase, done: listDone, total: listTotal, failed: 0 };
    if (stoppedBecause && state === 'paused') p.stoppedBecause = stoppedBecause;
    return p;
  };
  const emit = () => deps.onProgress(progress());
  // The stored windows with their payments as columns where the store reads them so (no object each).
  const readWindows = (): AnyWindow[] => runs.readWindowColumns?.(runId) ?? runs.readWindows(runId);
  /** Waits while paused; false once cancelled. */
  const gate = async (): Promise<boolean> => {
    while (state === 'paused') await new Promise<void>((r) => parked.push(r));
    return state === 'running';
  };

  /** Reads what is stored of the period's list and fetches the rest; returns the windows it has. */
  async function list(facts: RunFacts): Promise<AnyWindow[]> {
    const needed = listWindows(facts.options);
    listTotal = needed.length;
    let stored: AnyWindow[] = readWindows();
    listDone = listingOf(needed, stored).done;
    emit();
    for (const w of needed) {
      if (stored.some((s) => s.startDate === w.startDate)) continue;
      if (listingOf(needed, stored).state === 'unsupported') break;
      for (;;) {
        if (!(await gate())) return stored;
        const out = await fetchWindow(deps.gateway, w, clock.now, abort.signal);
        if (abort.signal.aborted || suspended) return stored;
        if (out.kind === 'stored') {
          runs.saveWindow(runId, out.window);
          stored = [...stored, out.window];
          listingOffline = false;
          listDone += 1;
          emit();
          break;
        }
        if (out.kind === 'failed') {
          listProblem = out.message;
          return stored;
        }
        // The service is down or refuses us: pause and say why; resume tries this window again.
        listingOffline = OFFLINE_CODES.has(out.code);
        stoppedBecause = { code: out.code, message: out.message };
        state = 'paused';
        emit();
      }
    }
    return stored;
  }

  async function lookups(todo: string[]): Promise<void> {
    const earlier = await jobs.readResults(runId);
    const answered = new Map(earlier.filter((r) => r.lookup.kind !== 'failed').map((r) => [r.key, r]));
    const keys = todo.filter((k) => !answered.has(k));
    phase = 'lookups';
    if (state === 'cancelled') return;
    appender = jobs.appender(runId);
    const a = appender;
    runner = startRunner({
      gateway: deps.gateway,
      clock,
      keys,
      alreadyDone: answered.size,
      ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
      ...(deps.limiter ? { limiter: deps.limiter } : {}),
      onResult: (r) => {
        if (!suspended) a.append(r);
      },
      onProgress: (p) => {
        if (p.state === 'paused' || p.state === 'running') state = p.state;
        emit();
      },
    });
    // A pause or cancel asked for during the listing carries over.
    if (state === 'paused') runner.pause();
    const end = await runner.done;
    if (suspended) return;
    await a.close();
    if (end.state === 'cancelled') state = 'cancelled';
  }

  async function finish(
    facts: RunFacts,
    todo: string[],
    input: RunInput,
    windows: AnyWindow[],
    list: ListedRows,
  ): Promise<void> {
    if (suspended) return;
    phase = 'matching';
    emit();
    const needed = listWindows(facts.options);
    const listing = listingOf(needed, windows);
    const { listed, index, positions } = list;
    const { rows } = input;
    // A listed payment's answer, made when a key asks for it (the matching is told the rows the list
    // answers, listedAnswers below, and makes none for them).
    const answerAt = (at: number | undefined): ServiceAnswer | undefined =>
      at === undefined ? undefined : listed.answer(at);
    const results = await jobs.readResults(runId);
    const byLookup = new Map<string, ServiceAnswer>();
    for (const r of results)
      byLookup.set(r.key, { ...r.lookup, source: 'lookup', fetchedAt: r.fetchedAt ?? facts.createdAt });
    const byCache = new Map<string, ServiceAnswer>();
    for (const c of input.cached)
      byCache.set(c.key, {
        kind: 'found',
        transaction: c.transaction,
        source: 'cache',
        fetchedAt: c.fetchedAt,
      });
    const sources = { list: 0, lookup: 0, cache: 0 } as RunFacts['sources'];
    const other = (key: string) => byLookup.get(key) ?? byCache.get(key);
    const answer = (key: string): ServiceAnswer | undefined => answerAt(index.position(key)) ?? other(key);
    // The same by kind and value: a key string is made only for a row the list does not answer.
    const answerBy = (byTx: boolean, value: string): ServiceAnswer | undefined =>
      answerAt(index.positionBy(byTx, value)) ??
      (byLookup.size + byCache.size > 0 ? other(keyOf(byTx, value)) : undefined);
    // The same by the row's position: the list's answer was found for every row once (positions).
    const answerOfRow = (i: number): ServiceAnswer | undefined => {
      const p = positions[i]!;
      if (p >= 0) return answerAt(p);
      if (byLookup.size + byCache.size === 0) return undefined;
      const row = rows[i]!;
      return row.transactionNo
        ? other(keyOf(true, row.transactionNo))
        : other(keyOf(false, row.reference ?? ''));
    };
    // Each distinct key once. Keys the list answers are told apart by the payment they name (a number
    // names one payment and a payment has one number; the same for references): a mark per payment
    // and kind instead of a set of strings. The other keys are few unless the list was not read.
    const marks = new Uint8Array(listed.length);
    for (let i = 0; i < rows.length; i += 1) {
      const p = positions[i]!;
      if (p < 0) continue;
      const bit = rows[i]!.transactionNo ? 1 : 2;
      if (marks[p]! & bit) continue;
      marks[p]! |= bit;
      sources.list += 1;
    }
    forEachUnlistedKey(rows, positions, (byTx, value) => {
      const a = other(keyOf(byTx, value));
      if (!a || a.kind === 'failed') return;
      sources[a.source] += 1;
      if (a.source === 'cache' && (!sources.cacheOldest || a.fetchedAt < sources.cacheOldest))
        sources.cacheOldest = a.fetchedAt;
    });
    const failedByCode: Record<string, number> = {};
    for (const a of byLookup.values())
      if (a.kind === 'failed') failedByCode[a.code] = (failedByCode[a.code] ?? 0) + 1;
    const reportInput: ReportInput = {
      rows: input.rows,
      unusable: input.unusable,
      answer,
      answerBy,
      answerAt: answerOfRow,
      listed,
      // listedWithPlaces keeps each number once.
      listedUnique: true,
      // A row whose key the list holds is answered by that very payment (answerOfRow).
      listedAt: (i) => positions[i]!,
      listedPositionOf: (no) => index.positionBy(true, no),
      // Rows with a position are answered by that very listed payment (answerOfRow): no answer is made.
      listedAnswers: true,
      listing: listing.state,
      options: facts.options,
      fmt: detailAmount,
    };
    const listedWindows = windows
      .filter((w) => w.state === 'listed')
      .map((w) => w.fetchedAt)
      .sort();
    const done: RunFacts = {
      ...facts,
      endedAt: new Date(clock.now()).toISOString(),
      endedAs: state === 'cancelled' ? 'cancelled' : 'completed',
      listing: {
        state: listing.state,
        windows: needed.length,
        windowsDone: listing.done,
        payments: listed.length,
        ...(listing.message || listProblem || listing.state === 'incomplete'
          ? { message: listing.message ?? listProblem ?? 'the run ended before the whole list was read' }
          : {}),
        ...(listedWindows[0] ? { fetchedFrom: listedWindows[0], fetchedTo: listedWindows.at(-1) } : {}),
      },
      sources,
      lookups: {
        asked: todo.length,
        failed: Object.values(failedByCode).reduce((a, n) => a + n, 0),
        failedByCode,
      },
      offline: listingOffline || Object.keys(failedByCode).some((c) => OFFLINE_CODES.has(c)),
      usedCache: sources.cache > 0,
      ...(stoppedBecause ? { stoppedBecause } : {}),
    };
    if (deps.beforeSave) await deps.beforeSave(input, done);
    if (suspended) return;
    // The report is made as it is stored, a page at a time (makeReport into saveResultAsMade): its
    // items are never all alive at once. Its facts and the carry's re-check do not depend on it.
    // A row matched by its very listed payment is stored as a reference to its row and payment
    // (item-codec's usual form) without its item and service side being made: most of a report.
    const { places } = list;
    const plainWindow = places.windows.map((w) => !w.includes('\t'));
    const items = runs.saveResultAsMade(
      runId,
      (put, putUsual) => {
        const usual = (row: number, p: number, dayOffset: number | undefined) => {
          const fetchedAt = listed.fetchedAt(p);
          const w = places.window[p]!;
          // What item-codec would not write in that form is made and stored as always.
          if (!plainWindow[w] || fetchedAt.includes('\t')) return false;
          if (dayOffset !== undefined && !Number.isSafeInteger(dayOffset)) return false;
          putUsual(fetchedAt, row, `${places.windows[w]}:${places.at[p]}`, dayOffset);
          return true;
        };
        const summary = makeReport(reportInput, put, usual);
        return { facts: done, summary, statement: statementOf(done, summary) };
      },
      itemRefs(input, list),
    );
    if (state !== 'cancelled') state = 'completed';
    phase = 'done';
    deps.log.info('recon.run_ended', {
      runId,
      state,
      items,
      listing: listing.state,
      lookups: todo.length,
    });
    emit();
  }

  const done = (async () => {
    const stored = runs.get(runId);
    if (!stored) throw new Error(`run ${runId} is not stored`);
    // The windows are read once (list() reads what is stored, adds what it fetches).
    const windows = state === 'running' ? await list(stored.facts) : readWindows();
    if (suspended) return;
    // Keys the period's list and the cache do not answer are looked up one by one. The list and its
    // index are made once, here, and the matching uses them too.
    const input = opts.input ?? runs.readInput(runId);
    const { listed, places, index } = listedWithPlaces(windows);
    const positions = listPositions(input.rows, index, listed, places.window);
    const cached = new Set(input.cached.map((c) => c.key));
    const todo: string[] = [];
    forEachUnlistedKey(input.rows, positions, (byTx, value) => {
      const key = keyOf(byTx, value);
      if (!cached.has(key)) todo.push(key);
    });
    runs.setKeys(runId, todo);
    await lookups(todo);
    await finish(stored.facts, todo, input, windows, { listed, index, places, positions });
  })().catch((e: unknown) => {
    deps.log.error('recon.run_failed', { runId, error: e instanceof Error ? e.message : String(e) });
    throw e;
  });

  return {
    done,
    progress,
    pause() {
      if (state !== 'running') return;
      if (runner && phase === 'lookups') runner.pause();
      state = 'paused';
      emit();
    },
    resume() {
      if (state !== 'paused') return;
      stoppedBecause = undefined;
      state = 'running';
      if (runner && phase === 'lookups') runner.resume();
      release();
      emit();
    },
    cancel() {
      if (state === 'cancelled' || phase === 'matching' || phase === 'done') return;
      state = 'cancelled';
      abort.abort();
      runner?.cancel();
      release();
      emit();
    },
    async suspend() {
      if (phase === 'lookups') runner?.pause();
      state = 'paused';
      await appender?.close();
      suspended = true;
    },
  };
}
