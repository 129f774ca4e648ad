/**
 * How many queries to have in flight at once, learned from the service's answers (additive increase,
 * multiplicative decrease). It starts at 8 (or where it last was for the connection: createLimiters)
 * and adds one per round of answers (a round is as many
 * answers as the current limit) while the median round trip of the recent answers stays within 1.5×
 * the best median seen and the limit was actually used. A sign of overload — an HTTP 5xx, a timeout,
 * a dropped connection — halves it and holds back new queries for a jittered, exponentially
 * growing pause. One overload episode cuts once: failures of queries that were already in flight when
 * the limit was cut say nothing new. The limit never leaves [min, max].
 *
 * Plain logic over an injected clock, random source and sleep, so tests drive it deterministically.
 */
import { isAppError } from '../../../../shared/domain/errors';
import type { Clock } from '../ports';
import { backoffDelay } from './transport';

/** What one attempt at the service showed: `ms` is its round trip (or time until it failed). */
export interface AttemptReport {
  /**
   * answered: any envelope; overloaded: 5xx, timeout, a dropped connection; other: 4xx, unreadable, a
   * request that never left this machine (refused connection, unknown host).
   */
  outcome: 'answered' | 'overloaded' | 'other';
  ms: number;
}

export interface AdaptiveLimitOptions {
  clock: Clock;
  /** [0, 1) source for the pause's jitter. */
  random?: () => number;
  /** Waits out a pause; injected so tests do not sleep. */
  sleep?: (ms: number) => Promise<void>;
  initial?: number;
  min?: number;
  max?: number;
  /** A round's median may be this many times the best median and still count as "latency holds". */
  tolerance?: number;
  /** Round trips kept for the median. */
  window?: number;
  /** The pause after a cut: half fixed, half random, doubling per cut until an answer arrives. */
  pause?: { baseDelayMs: number; maxDelayMs: number };
  /** false: a fixed limit (never grows, never cuts, never pauses), for callers that chose a number. */
  adaptive?: boolean;
  /** Told the new limit each time it grows or is cut (what the limiter has learned). */
  onLimit?: (limit: number) => void;
}

export interface Slot {
  /** Tells the limiter what one attempt showed (a read may make several attempts in one slot). */
  report(a: AttemptReport): void;
  /**
   * Frees the slot. `fallback` is used when nothing was reported during the slot (a gateway that does
   * not report attempts): then the query's own outcome is the signal.
   */
  release(fallback?: AttemptReport['outcome']): void;
}

export interface LimiterState {
  limit: number;
  inFlight: number;
  /** Highest limit reached. */
  peak: number;
  answered: number;
  overloaded: number;
  grows: number;
  cuts: number;
  /** When new queries may start again after a cut (clock ms), 0 when not pausing. */
  pausedUntil: number;
}

export interface AdaptiveLimiter {
  /** Resolves with a slot once one is free (and no pause holds), or null when `signal` aborts first. */
  acquire(signal?: AbortSignal): Promise<Slot | null>;
  readonly max: number;
  state(): LimiterState;
}

export const ADAPTIVE_DEFAULTS = {
  initial: 8,
  min: 1,
  max: 32,
  tolerance: 1.5,
  window: 16,
  pause: { baseDelayMs: 200, maxDelayMs: 5_000 },
} as const;

/** Errors that mean the service (or the way to it) is struggling, not that the key is wrong. */
const OVERLOAD_CODES = new Set(['unavailable', 'timeout', 'network']);

/** The outcome a finished query stands for, when its attempts were not reported one by one. */
export function outcomeOf(error: unknown): AttemptReport['outcome'] {
  if (error === undefined) return 'answered';
  if (!isAppError(error)) return 'other';
  if (OVERLOAD_CODES.has(error.code)) return 'overloaded';
  // A rejection or "no such record" is an answer: the service was there and quick to say so.
  return error.code === 'cancelled' ? 'other' : 'answered';
}

/**
 * What the limiters have learned, per service connection (a profile): the limit each was at when it
 * last changed. `get` is asked once, when a connection's limiter is made; `set` is told every change.
 */
export interface LearnedLimits {
  get(key: string): number | undefined;
  set(key: string, limit: number): void;
}

/** Learned limits kept in memory only (for the process). */
export function learnedInMemory(): LearnedLimits {
  const byKey = new Map<string, number>();
  return { get: (key) => byKey.get(key), set: (key, limit) => void byKey.set(key, limit) };
}

/**
 * One limiter per service connection (a profile), created on first use: what one batch learned about
 * the service paces the next one, and a pause after overload holds for every kind of call. A limiter
 * starts from what was last learned for its connection (`learned`, which may outlive the process: see
 * adapters/learned-limits-file.ts) instead of the default 8 — a service that took 32 queries at once an
 * hour ago is not felt out again from 8; one that was overloaded starts from the limit it was cut to.
 */
export function createLimiters(
  clock: Clock,
  learned: LearnedLimits = learnedInMemory(),
): (key: string) => AdaptiveLimiter {
  const byKey = new Map<string, AdaptiveLimiter>();
  return (key) => {
    let l = byKey.get(key);
    if (!l) {
      const start = learned.get(key);
      l = createAdaptiveLimiter({
        clock,
        ...(start !== undefined && Number.isFinite(start) ? { initial: start } : {}),
        onLimit: (limit) => learned.set(key, limit),
      });
      byKey.set(key, l);
    }
    return l;
  };
}

const defaultSleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

export function createAdaptiveLimiter(opts: AdaptiveLimitOptions): AdaptiveLimiter {
  const clock = opts.clock;
  const adaptive = opts.adaptive ?? true;
  const max = Math.max(1, Math.floor(opts.max ?? ADAPTIVE_DEFAULTS.max));
  const min = Math.max(1, Math.min(max, Math.floor(opts.min ?? ADAPTIVE_DEFAULTS.min)));
  let limit = Math.max(min, Math.min(max, Math.floor(opts.initial ?? ADAPTIVE_DEFAULTS.initial)));
  const tolerance = opts.tolerance ?? ADAPTIVE_DEFAULTS.tolerance;
  const windowSize = Math.max(1, opts.window ?? ADAPTIVE_DEFAULTS.window);
  const pausePolicy = { retries: 0, ...(opts.pause ?? ADAPTIVE_DEFAULTS.pause) };
  const random = opts.random ?? Math.random;
  const sleep = opts.sleep ?? defaultSleep;

  let inFlight = 0;
  const waiters: Array<{ grant: (s: Slot) => void; gone: boolean }> = [];
  const rtts: number[] = [];
  let best = Infinity;
  let sinceRound = 0;
  let used = false;
  let lastCutAt = -Infinity;
  let strikes = 0;
  let pausedUntil = 0;
  let waking = false;
  const counts = { peak: limit, answered: 0, overloaded: 0, grows: 0, cuts: 0 };

  const median = (xs: readonly number[]) => {
    const s = [...xs].sort((a, b) => a - b);
    return s[Math.floor((s.length - 1) / 2)] ?? 0;
  };

  function endOfRound(): void {
    const p50 = median(rtts);
    best = Math.min(best, p50);
    if (used && p50 <= tolerance * best && limit < max) {
      limit += 1;
      counts.grows += 1;
      counts.peak = Math.max(counts.peak, limit);
      opts.onLimit?.(limit);
    }
    sinceRound = 0;
    used = false;
  }

  function report(a: AttemptReport): void {
    if (a.outcome === 'answered') {
      counts.answered += 1;
      if (!adaptive) return;
      strikes = 0;
      rtts.push(a.ms);
      if (rtts.length > windowSize) rtts.shift();
      sinceRound += 1;
      if (sinceRound >= limit) endOfRound();
      pump();
      return;
    }
    if (a.outcome !== 'overloaded') return;
    counts.overloaded += 1;
    if (!adaptive) return;
    const now = clock.now();
    // Started before the last cut: part of the episode that cut already.
    if (now - a.ms <= lastCutAt) return;
    limit = Math.max(min, Math.floor(limit / 2));
    counts.cuts += 1;
    opts.onLimit?.(limit);
    lastCutAt = now;
    pausedUntil = now + backoffDelay(strikes, pausePolicy, random);
    strikes += 1;
    sinceRound = 0;
    used = false;
  }

  function grant(w: { grant: (s: Slot) => void }): void {
    inFlight += 1;
    if (inFlight >= limit) used = true;
    const startedAt = clock.now();
    let reported = false;
    let released = false;
    w.grant({
      report(a) {
        reported = true;
        report(a);
      },
      release(fallback) {
        if (released) return;
        released = true;
        if (!reported && fallback) report({ outcome: fallback, ms: clock.now() - startedAt });
        inFlight -= 1;
        pump();
      },
    });
  }

  function pump(): void {
    const now = clock.now();
    if (now < pausedUntil) {
      if (!waking && waiters.length > 0) {
        waking = true;
        void sleep(pausedUntil - now).then(() => {
          waking = false;
          pump();
        });
      }
      return;
    }
    while (inFlight < limit && waiters.length > 0) {
      const w = waiters.shift()!;
      if (!w.gone) grant(w);
    }
  }

  return {
    max,
    acquire(signal) {
      if (signal?.aborted) return Promise.resolve(null);
      return new Promise<Slot | null>((resolve) => {
        const onAbort = () => {
          w.gone = true;
          resolve(null);
        };
        const w = {
          gone: false,
          grant: (s: Slot) => {
            signal?.removeEventListener('abort', onAbort);
            resolve(s);
          },
        };
        signal?.addEventListener('abort', onAbort, { once: true });
        waiters.push(w);
        pump();
      });
    },
    state: () => ({ limit, inFlight, ...counts, pausedUntil: clock.now() < pausedUntil ? pausedUntil : 0 }),
  };
}
