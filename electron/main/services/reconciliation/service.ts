/**
 * Reconciliation jobs in main: the renderer (or the CLI) hands over the ledger's lookup keys, main
 * queries the service with bounded concurrency, persists inputs and answers in the app database, and
 * pushes progress. Matching itself is pure (shared/recon) and runs where the ledger is.
 * A job interrupted by a restart comes back paused with its answers kept; resuming queries only the
 * keys still unanswered.
 */
import { AppError } from '../../../../shared/domain/errors';
import { newSortableId } from '../../../../shared/domain/ids';
import type { GatewayClient } from '../gateway/client';
import type { Clock, Logger } from '../ports';
import type { JobFile, JobStore } from './job-store';
import { type KeyResult, type RunProgress, type Runner, startRunner } from './runner';

export interface ReconciliationDeps {
  /** Where jobs and their answers are kept (the app database). */
  store: JobStore;
  clock: Clock;
  log: Logger;
  /** The gateway of a profile (the active one when no id is given). */
  gatewayFor: (profileId: string) => Pick<GatewayClient, 'queryTransaction'>;
  activeProfileId: () => string | undefined;
  onProgress: (jobId: string, p: RunProgress) => void;
  concurrency?: number;
}

export interface JobView {
  jobId: string;
  profileId: string;
  label: string;
  createdAt: string;
  progress: RunProgress;
}

const KEY = /^(tx:\d{1,32}|ref:.{1,128})$/s;

interface Live {
  job: JobFile;
  runner?: Runner;
  /** The current run's end, including its bookkeeping (file closed, job saved). */
  ended?: Promise<void>;
  answered: Map<string, KeyResult>;
  progress: RunProgress;
  /** Writes this run's answers (in batches). */
  appender?: ReturnType<JobStore['appender']>;
}

export function createReconciliationService(deps: ReconciliationDeps) {
  const { store } = deps;
  const live = new Map<string, Live>();
  let loaded: Promise<void> | undefined;

  // Jobs from an earlier session: ended ones are shown as they ended, the rest come back paused.
  const load = () =>
    (loaded ??= (async () => {
      for (const job of await store.list()) {
        if (live.has(job.id)) continue;
        const answered = new Map((await store.readResults(job.id)).map((r) => [r.key, r]));
        const failed = [...answered.values()].filter((r) => r.lookup.kind === 'failed').length;
        const state = job.endedAs ?? 'paused';
        live.set(job.id, {
          job,
          answered,
          progress: { state, done: answered.size, total: job.keys.length, failed },
        });
      }
    })());

  function get(jobId: string): Live {
    const l = live.get(jobId);
    if (!l)
      throw new AppError('not_found', 'That reconciliation run no longer exists. Import the ledger again.');
    return l;
  }

  function view(l: Live): JobView {
    return {
      jobId: l.job.id,
      profileId: l.job.profileId,
      label: l.job.label,
      createdAt: l.job.createdAt,
      progress: l.runner ? l.runner.progress() : l.progress,
    };
  }

  /** Runs the keys not yet answered; failed answers are retried too. */
  function run(l: Live): void {
    const retry = new Set(
      [...l.answered.values()].filter((r) => r.lookup.kind === 'failed').map((r) => r.key),
    );
    for (const k of retry) l.answered.delete(k);
    const todo = l.job.keys.filter((k) => !l.answered.has(k));
    const appender = store.appender(l.job.id);
    l.appender = appender;
    const runner = startRunner({
      gateway: deps.gatewayFor(l.job.profileId),
      clock: deps.clock,
      keys: todo,
      alreadyDone: l.answered.size,
      concurrency: deps.concurrency,
      onResult: (r) => {
        l.answered.set(r.key, r);
        appender.append(r);
      },
      onProgress: (p) => {
        l.progress = p;
        deps.onProgress(l.job.id, p);
      },
    });
    l.runner = runner;
    l.ended = runner.done.then(async (p) => {
      await appender.close();
      l.progress = p;
      l.runner = undefined;
      if (p.state === 'completed' || p.state === 'cancelled')
        await store.save({ ...l.job, endedAs: p.state });
      deps.log.info('recon.run_ended', { jobId: l.job.id, state: p.state, done: p.done, failed: p.failed });
    });
  }

  return {
    /** Starts a job for distinct keys (`tx:…` / `ref:…`). */
    async start(input: { keys: string[]; label: string; profileId?: string }): Promise<JobView> {
      await load();
      const profileId = input.profileId ?? deps.activeProfileId();
      if (!profileId)
        throw new AppError('invalid_input', 'No merchant profile is active. Add or choose one in Settings.');
      const keys = [...new Set(input.keys)];
      const bad = keys.find((k) => !KEY.test(k));
      if (bad !== undefined)
        throw new AppError(
          'invalid_input',
          `“${bad.slice(0, 40)}” is not a transaction number or reference key.`,
        );
      const job: JobFile = {
        version: 1,
        id: newSortableId('RC', deps.clock.now()),
        profileId,
        label: input.label.slice(0, 200),
        createdAt: new Date(deps.clock.now()).toISOString(),
        keys,
      };
      await store.save(job);
      const l: Live = {
        job,
        answered: new Map(),
        progress: { state: 'running', done: 0, total: keys.length, failed: 0 },
      };
      live.set(job.id, l);
      run(l);
      return view(l);
    },
    async pause(jobId: string): Promise<JobView> {
      await load();
      const l = get(jobId);
      l.runner?.pause();
      return view(l);
    },
    async resume(jobId: string): Promise<JobView> {
      await load();
      const l = get(jobId);
      if (l.runner) l.runner.resume();
      else if (l.progress.state !== 'completed' || l.progress.failed > 0) run(l);
      return view(l);
    },
    async cancel(jobId: string): Promise<JobView> {
      await load();
      const l = get(jobId);
      if (l.runner) l.runner.cancel();
      else if (l.progress.state === 'paused') {
        l.progress = { ...l.progress, state: 'cancelled' };
        await store.save({ ...l.job, endedAs: 'cancelled' });
      }
      return view(l);
    },
    async list(): Promise<JobView[]> {
      await load();
      return [...live.values()].map(view).sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    },
    /** Answers so far, paged in key order. */
    async results(
      jobId: string,
      offset: number,
      limit: number,
    ): Promise<{ items: KeyResult[]; total: number; nextOffset: number | null }> {
      await load();
      const l = get(jobId);
      const answered = l.job.keys
        .map((k) => l.answered.get(k))
        .filter((r): r is KeyResult => r !== undefined);
      const items = answered.slice(offset, offset + limit);
      const next = offset + items.length;
      return { items, total: answered.length, nextOffset: next < answered.length ? next : null };
    },
    async remove(jobId: string): Promise<void> {
      await load();
      const l = get(jobId);
      l.runner?.cancel();
      await l.ended;
      live.delete(jobId);
      await store.remove(jobId);
    },
    /** Waits for a job's current run to end (tests, CLI). */
    async settled(jobId: string): Promise<JobView> {
      const l = get(jobId);
      await l.ended;
      return view(l);
    },
    /** Pauses runs in flight (app shutdown) and writes their answers so far, for a resume. */
    async close(): Promise<void> {
      for (const l of live.values()) {
        if (!l.runner) continue;
        l.runner.pause();
        await l.appender?.close();
      }
    },
  };
}
export type ReconciliationService = ReturnType<typeof createReconciliationService>;
