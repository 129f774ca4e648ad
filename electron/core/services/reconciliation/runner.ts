/**
 * Runs a batch of tran-queries with bounded, adaptive concurrency (../gateway/adaptive-limit), progress (done, total, failed, ETA), pause,
 * resume and cancel. Plain logic over an injected gateway and clock, so the CLI, the app and tests share
 * it. Pausing stops handing out keys (queries in flight finish); cancelling also aborts those in flight.
 */
import { AppError, isAppError } from '../../../../shared/domain/errors';
import type { ServiceLookup } from '../../../../shared/recon/match';
import { type AdaptiveLimiter, outcomeOf, type Slot } from '../gateway/adaptive-limit';
import { batchLimiter } from '../gateway/batch';
import type { GatewayClient, QueryKey } from '../gateway/client';
import type { Clock } from '../ports';

export type RunState = 'running' | 'paused' | 'cancelled' | 'completed';

export interface RunProgress {
  state: RunState;
  done: number;
  total: number;
  failed: number;
  /** Estimated milliseconds left while running, from the rate so far (undefined until known). */
  etaMs?: number;
  /** Why the run paused itself: the service kept failing in a way that affects every key. */
  stoppedBecause?: { code: string; message: string };
}

/** A ledger key with what the service said (and when), as persisted and streamed. */
export interface KeyResult {
  key: string;
  lookup: ServiceLookup;
  /** When the answer arrived (UTC ISO); absent in answers stored by earlier versions. */
  fetchedAt?: string;
}

export interface RunnerOptions {
  gateway: Pick<GatewayClient, 'queryTransaction'>;
  clock: Clock;
  /** Keys still to query (`tx:…` / `ref:…`, see shared/recon/match lookupKey). */
  keys: readonly string[];
  /** Keys already answered earlier (a resumed job): they count as done. */
  alreadyDone?: number;
  alreadyFailed?: number;
  /** A fixed number of queries in flight; without it (and without `limiter`) the run adapts. */
  concurrency?: number;
  /** A limiter shared with other work against the same service. */
  limiter?: AdaptiveLimiter;
  onResult: (r: KeyResult) => void | Promise<void>;
  onProgress?: (p: RunProgress) => void;
  /** Consecutive failures of a run-wide kind (network, credentials) after which the run pauses. */
  pauseAfterFailures?: number;
}

/** Failures that say nothing about the key and everything about the connection or credentials. */
const SYSTEMIC = new Set(['network', 'timeout', 'unavailable', 'unauthorized', 'forbidden']);

/** `tx:123` → { transactionNo: '123' }; `ref:A` → { reference: 'A' }. */
export function queryKeyOf(key: string): QueryKey {
  return key.startsWith('tx:') ? { transactionNo: key.slice(3) } : { reference: key.slice(4) };
}

async function lookupOne(
  gateway: RunnerOptions['gateway'],
  key: string,
  signal: AbortSignal,
  slot: Slot,
): Promise<ServiceLookup> {
  try {
    const q = await gateway.queryTransaction(queryKeyOf(key), { signal, onAttempt: (a) => slot.report(a) });
    slot.release(outcomeOf(undefined));
    return { kind: 'found', transaction: q.transaction };
  } catch (e) {
    slot.release(outcomeOf(e));
    const err = isAppError(e) ? e : new AppError('internal', 'The lookup failed inside Refund Desk.');
    if (err.code === 'not_found') return { kind: 'not_found' };
    return { kind: 'failed', code: err.code, message: err.message };
  }
}

export interface Runner {
  /** Resolves when every key is answered or the run is cancelled. */
  done: Promise<RunProgress>;
  pause(): void;
  resume(): void;
  cancel(): void;
  progress(): RunProgress;
}

/** Starts a run immediately. */
export function startRunner(opts: RunnerOptions): Runner {
  const limiter = batchLimiter(opts, opts.clock);
  const abort = new AbortController();
  const total = opts.keys.length + (opts.alreadyDone ?? 0);
  let next = 0;
  let done = opts.alreadyDone ?? 0;
  let failed = opts.alreadyFailed ?? 0;
  let state: RunState = 'running';
  // Rate is measured over time spent running in this session only, so a pause does not inflate ETA.
  let activeMs = 0;
  let runningSince = opts.clock.now();
  let doneThisSession = 0;
  let consecutiveSystemic = 0;
  let stoppedBecause: RunProgress['stoppedBecause'];
  const pauseAfter = opts.pauseAfterFailures ?? 12;
  // Paused workers park here; resume and cancel release them all.
  const parked: Array<() => void> = [];
  const releaseAll = () => {
    for (const release of parked.splice(0)) release();
  };

  const progress = (): RunProgress => {
    const p: RunProgress = { state, done, total, failed };
    if (stoppedBecause && state === 'paused') p.stoppedBecause = stoppedBecause;
    if (state === 'running' && doneThisSession > 0) {
      const elapsed = activeMs + (opts.clock.now() - runningSince);
      p.etaMs = Math.round((elapsed / doneThisSession) * (total - done));
    }
    return p;
  };
  const waitWhilePaused = () => new Promise<void>((resolve) => parked.push(resolve));

  async function worker(): Promise<void> {
    for (;;) {
      while (state === 'paused') await waitWhilePaused();
      if (state !== 'running' || next >= opts.keys.length) return;
      const slot = await limiter.acquire(abort.signal);
      if (!slot) return;
      // The wait for a slot may have outlasted a pause, the last key or the run.
      if (state !== 'running' || next >= opts.keys.length) {
        slot.release();
        continue;
      }
      const key = opts.keys[next] ?? '';
      next += 1;
      const lookup = await lookupOne(opts.gateway, key, abort.signal, slot);
      // A query aborted by cancel is not an answer: leave it for a later resume.
      if (abort.signal.aborted) return;
      await opts.onResult({ key, lookup, fetchedAt: new Date(opts.clock.now()).toISOString() });
      done += 1;
      doneThisSession += 1;
      if (lookup.kind === 'failed') failed += 1;
      if (lookup.kind === 'failed' && SYSTEMIC.has(lookup.code)) consecutiveSystemic += 1;
      else consecutiveSystemic = 0;
      if (lookup.kind === 'failed' && consecutiveSystemic >= pauseAfter && state === 'running') {
        // Hammering a service that is down (or refusing us) helps nobody: pause and say why.
        stoppedBecause = { code: lookup.code, message: lookup.message };
        pause();
        continue;
      }
      opts.onProgress?.(progress());
    }
  }

  const finished = Promise.all(Array.from({ length: limiter.max }, worker)).then(() => {
    if (state === 'running') state = 'completed';
    const p = progress();
    opts.onProgress?.(p);
    return p;
  });

  function pause(): void {
    if (state !== 'running') return;
    activeMs += opts.clock.now() - runningSince;
    state = 'paused';
    opts.onProgress?.(progress());
  }

  return {
    done: finished,
    progress,
    pause,
    resume() {
      if (state !== 'paused') return;
      state = 'running';
      stoppedBecause = undefined;
      consecutiveSystemic = 0;
      runningSince = opts.clock.now();
      releaseAll();
      opts.onProgress?.(progress());
    },
    cancel() {
      if (state === 'completed' || state === 'cancelled') return;
      state = 'cancelled';
      abort.abort();
      releaseAll();
    },
  };
}
