/**
 * Reconciliation runs in main. The renderer (or the CLI) hands over a mapped ledger in chunks with the
 * run's options; main reads the service's list for the period, looks up what the list and the cache do
 * not answer, matches, and stores the whole result as the run's record (./run.ts). Runs belong to a
 * profile. A run interrupted by a restart comes back paused; resuming picks up where it stopped, and
 * cancelling a paused run still writes the report of what was done.
 */
import { accountKeyOf, type AccountKey } from '../../../../shared/domain/account';
import { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import type { ColumnMapping } from '../../../../shared/recon/mapping';
import { listWindows, optionIssues, type ReconOptions } from '../../../../shared/recon/period';
import type { LedgerFileInfo, RunFacts } from '../../../../shared/recon/run';
import type { ReconSummary } from '../../../../shared/recon/summary';
import type { AdaptiveLimiter } from '../gateway/adaptive-limit';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { JobStore } from './job-store';
import { executeRun, type RunHandle, type RunProgress } from './run';
import type { CloseStore } from './close-store';
import type { InputKind, RunInput, RunStore, StoredRun } from './run-store';
import { CARRY_ACTOR, carriedRecords, recheckCarried, type CarrySource } from './carry';
import { createExceptionService } from './exceptions';
import { createTeamRuns } from './team-runs';

export interface ReconciliationDeps {
  runs: RunStore;
  /**
   * Exceptions, notes and sign-offs: this desk's database, or the team database (`closing.team`), where
   * an ended run is published so a controller on another desk can work and sign it.
   */
  closing: CloseStore;
  /** The lookup answers of each run (written in batches as they arrive). */
  jobs: JobStore;
  clock: Clock;
  log: Logger;
  gatewayFor: (profileId: string) => Pick<GatewayClient, 'queryTransaction' | 'listTransactions'>;
  /**
   * A profile's id, name and account (where its calls go now); undefined when there is no such
   * profile. The account is recorded in a run's facts; without it a run cannot be opened on another desk.
   */
  profile: (profileId: string) => RunProfile | undefined;
  onProgress: (runId: string, p: ViewProgress) => void;
  concurrency?: number;
  /** The profile's shared limiter (see gateway/adaptive-limit); without it each run adapts alone. */
  limiterFor?: (profileId: string) => AdaptiveLimiter;
}

/** Progress as shown: a run whose ledger is still being handed over is a draft. */
export type ViewProgress =
  RunProgress | { state: 'draft'; phase: 'receiving'; done: number; total: number; failed: number };

export interface RunView {
  runId: string;
  profileId: string;
  profileName: string;
  label: string;
  createdAt: string;
  endedAt?: string;
  options: ReconOptions;
  dataRows: number;
  progress: ViewProgress;
  counts?: ReconSummary['counts'];
  usedCache?: boolean;
  offline?: boolean;
  twoWay?: boolean;
  recheckOf?: string;
  carryForwardOf?: string;
  /**
   * Team mode: another desk ran it and this desk reads the copy it published (./team-runs.ts), which
   * holds its non-matched rows only (`heldItems`); `profileName` is the name on the desk that ran it.
   */
  published?: { by: string; desk: string; at: string; profileName: string; heldItems: number };
}

/**
 * Whether no two rows of the ledger (read or unusable) carry the same line number. Lines are small
 * positive integers (a file's line count): one bit-sized mark per line instead of a set of a million
 * numbers and the two arrays spread into it; any other number falls back to the set.
 */
export function distinctLines(input: Pick<RunInput, 'rows' | 'unusable'>): boolean {
  const { rows, unusable } = input;
  let max = 0;
  for (const r of rows) max = Number.isSafeInteger(r.line) && r.line > max ? r.line : max;
  for (const r of unusable) max = Number.isSafeInteger(r.line) && r.line > max ? r.line : max;
  // Bounded so that a damaged record with one huge line number cannot ask for gigabytes.
  if (max > 4 * (rows.length + unusable.length) + 1024) return distinctBySet(rows, unusable);
  const marks = new Uint8Array(max + 1);
  for (const list of [rows, unusable])
    for (const r of list) {
      // A line that is not a small positive integer cannot be marked: ask the set instead.
      if (!Number.isSafeInteger(r.line) || r.line < 0) return distinctBySet(rows, unusable);
      if (marks[r.line]) return false;
      marks[r.line] = 1;
    }
  return true;
}

function distinctBySet(rows: ReadonlyArray<{ line: number }>, unusable: ReadonlyArray<{ line: number }>) {
  const seen = new Set<number>();
  for (const r of rows) seen.add(r.line);
  for (const r of unusable) seen.add(r.line);
  return seen.size === rows.length + unusable.length;
}

export interface RunProfile {
  id: string;
  name: string;
  account?: AccountKey;
}

/** Drafts (ledgers never fully handed over) older than this are deleted. */
const DRAFT_TTL_MS = 3_600_000;

export function createReconciliationService(deps: ReconciliationDeps) {
  const { runs, closing } = deps;
  const live = new Map<string, RunHandle>();
  /** Runs ending in this process: their record stored, then (team mode) published. */
  const ending = new Map<string, Promise<void>>();
  let pruned = false;

  const prune = () => {
    if (pruned) return;
    pruned = true;
    const n = runs.pruneDrafts(new Date(deps.clock.now() - DRAFT_TTL_MS).toISOString());
    if (n > 0) deps.log.info('recon.drafts_pruned', { count: n });
  };

  function stored(runId: string): StoredRun {
    prune();
    const r = runs.get(runId);
    if (!r)
      throw new AppError('not_found', 'That reconciliation run no longer exists. Import the ledger again.');
    return r;
  }

  function view(r: StoredRun): RunView {
    const f = r.facts;
    const handle = live.get(f.runId);
    let progress: ViewProgress;
    if (handle) progress = handle.progress();
    else if (!r.started)
      progress = { state: 'draft', phase: 'receiving', done: 0, total: f.file.dataRows, failed: 0 };
    else if (r.result)
      progress = {
        state: f.endedAs ?? 'completed',
        phase: 'done',
        done: f.lookups.asked,
        total: f.lookups.asked,
        failed: f.lookups.failed,
      };
    else progress = { state: 'paused', phase: 'lookups', done: 0, total: r.keys.length, failed: 0 };
    return {
      runId: f.runId,
      profileId: f.profileId,
      profileName: f.profileName,
      label: f.label,
      createdAt: f.createdAt,
      ...(f.endedAt && r.result ? { endedAt: f.endedAt } : {}),
      options: f.options,
      dataRows: f.file.dataRows,
      progress,
      ...(r.result
        ? {
            counts: r.result.summary.counts,
            usedCache: f.usedCache,
            offline: f.offline,
            twoWay: f.listing.state === 'complete',
          }
        : {}),
      ...(f.recheckOf ? { recheckOf: f.recheckOf } : {}),
      ...(f.carryForwardOf ? { carryForwardOf: f.carryForwardOf } : {}),
    };
  }

  const exceptions = createExceptionService({
    runs,
    closing,
    clock: deps.clock,
    gatewayFor: deps.gatewayFor,
  });
  const team = createTeamRuns({ runs, closing, profile: deps.profile });
  /** Carried exceptions handed over by the caller (the CLI: its earlier run is in another database). */
  const handedCarry = new Map<string, CarrySource[]>();

  /** Stores what a run carries (once) and re-checks it against the service and the run's ledger. */
  async function carry(runId: string, facts: RunFacts, rows: RunInput['rows']): Promise<void> {
    const from = facts.carryForwardOf;
    if (!from) return;
    const have = await closing.listExceptions(runId);
    if (!have.some((e) => e.carried)) {
      const sources = handedCarry.get(runId) ?? (await exceptions.carrySources(from));
      const at = new Date(deps.clock.now()).toISOString();
      await closing.addExceptions(runId, carriedRecords(runId, from, sources, at), {
        at,
        by: CARRY_ACTOR,
        action: 'carry',
      });
    }
    handedCarry.delete(runId);
    await recheckCarried({
      closing,
      runId,
      rows,
      options: facts.options,
      gateway: deps.gatewayFor(facts.profileId),
      clock: deps.clock,
      ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
      ...(deps.limiterFor && !deps.concurrency ? { limiter: deps.limiterFor(facts.profileId) } : {}),
    });
  }

  /** Runs (or resumes) a stored, started run in this process. */
  function launch(runId: string, opts: { cancelled?: boolean; input?: RunInput } = {}): void {
    const facts = stored(runId).facts;
    const handle = executeRun(
      runId,
      {
        runs,
        jobs: deps.jobs,
        clock: deps.clock,
        log: deps.log,
        gateway: deps.gatewayFor(facts.profileId),
        ...(deps.concurrency ? { concurrency: deps.concurrency } : {}),
        ...(deps.limiterFor && !deps.concurrency ? { limiter: deps.limiterFor(facts.profileId) } : {}),
        onProgress: (p) => deps.onProgress(runId, p),
        ...(facts.carryForwardOf ? { beforeSave: (input, f) => carry(runId, f, input.rows) } : {}),
      },
      opts,
    );
    live.set(runId, handle);
    // The record is stored before the handle goes: a reader never sees neither. In team mode the ended
    // run is then published, so other desks can work and sign it (a failure is logged; the next read of
    // its exceptions on this desk publishes it again).
    const publishing = handle.done.then(
      async () => {
        try {
          await exceptions.publish(runId);
        } catch (e) {
          deps.log.warn('recon.publish_failed', { runId, error: e instanceof Error ? e.message : String(e) });
        } finally {
          live.delete(runId);
        }
      },
      () => void live.delete(runId),
    );
    ending.set(runId, publishing);
    void publishing.finally(() => ending.delete(runId));
  }

  function initialFacts(input: {
    runId: string;
    label: string;
    profile: RunProfile;
    file: LedgerFileInfo;
    mapping: ColumnMapping;
    options: ReconOptions;
    recheckOf?: string;
    carryForwardOf?: string;
  }): RunFacts {
    return {
      runId: input.runId,
      label: input.label.slice(0, 200),
      profileId: input.profile.id,
      profileName: input.profile.name,
      ...(input.profile.account ? { account: accountKeyOf(input.profile.account) } : {}),
      createdAt: new Date(deps.clock.now()).toISOString(),
      file: input.file,
      mapping: input.mapping,
      options: input.options,
      listing: { state: 'none', windows: listWindows(input.options).length, windowsDone: 0, payments: 0 },
      sources: { list: 0, lookup: 0, cache: 0 },
      lookups: { asked: 0, failed: 0, failedByCode: {} },
      offline: false,
      usedCache: false,
      ...(input.recheckOf ? { recheckOf: input.recheckOf } : {}),
      ...(input.carryForwardOf ? { carryForwardOf: input.carryForwardOf } : {}),
    };
  }

  /** A run may carry from an ended run of the same profile (account) whose period ends before its own. */
  function checkCarryFrom(fromRunId: string, profileId: string, options: ReconOptions): void {
    const prev = runs.get(fromRunId);
    if (!prev)
      throw new AppError('not_found', `There is no run ${fromRunId} to carry exceptions forward from.`);
    if (prev.facts.profileId !== profileId)
      throw new AppError(
        'conflict',
        `Run ${fromRunId} belongs to the profile “${prev.facts.profileName}”: exceptions are carried forward within one account only.`,
      );
    if (!prev.result)
      throw new AppError('conflict', `Run ${fromRunId} has not ended yet: nothing to carry forward.`);
    const before = prev.facts.options.period;
    const now = options.period;
    if (before && now && now.from <= before.to)
      throw new AppError(
        'invalid_input',
        `Carry forward goes into the next period: this run starts ${now.from}, and run ${fromRunId} covers until ${before.to}. Choose a period that starts after ${before.to}.`,
      );
  }

  return {
    /** Creates a run; its ledger is handed over with addInput, then `start`. */
    create(input: {
      label: string;
      profileId: string;
      file: LedgerFileInfo;
      mapping: ColumnMapping;
      options: ReconOptions;
      /** Carry the outstanding exceptions of this earlier run of the same profile. */
      carryForwardOf?: string;
      /** The exceptions to carry, when the earlier run is not in this store (the CLI). */
      carried?: CarrySource[];
    }): { runId: string } {
      prune();
      const profile = deps.profile(input.profileId);
      if (!profile)
        throw new AppError('not_found', 'That profile no longer exists. Choose a profile and start again.');
      const issues = optionIssues(input.options);
      if (issues.length > 0) throw new AppError('invalid_input', issues.join(' '));
      const { carried, ...rest } = input;
      if (input.carryForwardOf && !carried)
        checkCarryFrom(input.carryForwardOf, input.profileId, input.options);
      const runId = newSortableId('RC', deps.clock.now());
      runs.create(initialFacts({ ...rest, runId, profile }));
      if (carried) handedCarry.set(runId, carried);
      return { runId };
    },

    addInput(runId: string, kind: InputKind, entries: readonly unknown[]): Record<InputKind, number> {
      const r = stored(runId);
      if (r.started)
        throw new AppError('conflict', 'That run has already started; its ledger cannot change.');
      const have = runs.readInputCounts(runId);
      // Never more than the file's data rows (rows and unusable together), nor more cached answers.
      const rowsAfter = have.row + have.unusable + (kind === 'cached' ? 0 : entries.length);
      const cachedAfter = have.cached + (kind === 'cached' ? entries.length : 0);
      if (rowsAfter > r.facts.file.dataRows || cachedAfter > r.facts.file.dataRows)
        throw new AppError(
          'invalid_input',
          `The ledger has ${r.facts.file.dataRows} data rows; more were handed over.`,
        );
      return runs.addInput(runId, kind, entries);
    },

    /** Starts a run whose whole ledger was handed over: every data row, read or not. */
    start(runId: string): RunView {
      const r = stored(runId);
      if (r.started) return view(r);
      const input = runs.readInput(runId);
      const handed = input.rows.length + input.unusable.length;
      if (handed !== r.facts.file.dataRows)
        throw new AppError(
          'invalid_input',
          `The ledger was not handed over completely: ${handed} of ${r.facts.file.dataRows} data rows. Start the reconciliation again.`,
        );
      if (!distinctLines(input))
        throw new AppError('invalid_input', 'Two rows of the ledger carry the same line number.');
      runs.markStarted(runId, []);
      // The ledger just read and checked is the run's: it is not read (parsed) a second time.
      launch(runId, { input });
      return view(stored(runId));
    },

    pause(runId: string): RunView {
      live.get(runId)?.pause();
      return view(stored(runId));
    },

    resume(runId: string): RunView {
      const r = stored(runId);
      const handle = live.get(runId);
      if (handle) handle.resume();
      else if (r.started && !r.result) launch(runId);
      return view(stored(runId));
    },

    /** Cancels; a run paused by a restart still ends in the report of what it had done. */
    cancel(runId: string): RunView {
      const r = stored(runId);
      const handle = live.get(runId);
      if (handle) handle.cancel();
      else if (r.started && !r.result) launch(runId, { cancelled: true });
      return view(stored(runId));
    },

    get(runId: string): RunView {
      return view(stored(runId));
    },

    /** One profile's runs (every profile's when none is named), newest first, drafts left out. */
    list(profileId?: string): RunView[] {
      prune();
      return runs
        .list(profileId)
        .filter((r) => r.started)
        .map(view);
    },

    /** The stored record's header. */
    report(runId: string) {
      const r = stored(runId);
      if (!r.result)
        throw new AppError('conflict', 'That run has not ended yet: its report is written when it ends.');
      return {
        run: view(r),
        facts: r.facts,
        summary: r.result.summary,
        statement: r.result.statement,
        items: r.result.items,
      };
    },

    items(runId: string, offset: number, limit: number) {
      const r = stored(runId);
      const total = r.result?.items ?? 0;
      const items = runs.readItems(runId, offset, limit);
      const next = offset + items.length;
      return { items, total, nextOffset: next < total ? next : null };
    },

    /**
     * Re-checks the rows a run could not check: a new run over the same ledger and options, where every
     * answer the first one got (its list, its lookups, its cache) counts as cached data.
     */
    async recheck(runId: string): Promise<RunView> {
      const r = stored(runId);
      if (!r.result) throw new AppError('conflict', 'That run has not ended yet.');
      const profile = deps.profile(r.facts.profileId);
      if (!profile) throw new AppError('not_found', 'The profile of that run no longer exists.');
      const newId = newSortableId('RC', deps.clock.now());
      runs.create(
        initialFacts({
          runId: newId,
          label: r.facts.label,
          profile,
          file: r.facts.file,
          mapping: r.facts.mapping,
          options: r.facts.options,
          recheckOf: runId,
        }),
      );
      const input = runs.readInput(runId);
      const answers = (await deps.jobs.readResults(runId)).flatMap((a) =>
        a.lookup.kind === 'found'
          ? [{ key: a.key, transaction: a.lookup.transaction, fetchedAt: a.fetchedAt ?? r.facts.createdAt }]
          : [],
      );
      const chunks = <T>(list: T[]) =>
        Array.from({ length: Math.ceil(list.length / 5000) }, (_, i) =>
          list.slice(i * 5000, i * 5000 + 5000),
        );
      for (const c of chunks(input.rows)) runs.addInput(newId, 'row', c);
      for (const c of chunks(input.unusable)) runs.addInput(newId, 'unusable', c);
      for (const c of chunks([...input.cached, ...answers])) runs.addInput(newId, 'cached', c);
      if (r.facts.listing.state === 'complete') runs.copyWindows(runId, newId);
      runs.markStarted(newId, []);
      launch(newId);
      return view(stored(newId));
    },

    /** Exceptions and sign-off of ended runs (./exceptions.ts). */
    exceptions,

    /**
     * Team mode: runs published to the team database (by any desk) that wait for a controller's
     * sign-off, newest first; a single desk has none to list.
     */
    awaitingSignOff: () => exceptions.awaitingSignOff(),

    /** Team mode: other desks' published runs, opened by account (./team-runs.ts). */
    team,

    /** Waits until a run started in this process has stored its record (tests, CLI). */
    async settled(runId: string): Promise<RunView> {
      const done = ending.get(runId);
      await live.get(runId)?.done;
      await done;
      return view(stored(runId));
    },

    /** Pauses runs in flight (app shutdown) and writes their answers so far, for a resume. */
    async close(): Promise<void> {
      for (const handle of live.values()) await handle.suspend();
    },
  };
}
export type ReconciliationService = ReturnType<typeof createReconciliationService>;
