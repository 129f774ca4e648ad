import { useCallback, useEffect, useRef, useState } from 'react';

/** Progress of a long job the screen shows (bulk refresh, sync). */
export interface JobState {
  label: string;
  done: number;
  total: number;
  failed: number;
  status: 'running' | 'finished' | 'cancelled' | 'stopped';
  /** When it started (ms since the epoch): its pace so far gives the time left. */
  startedAt: number;
  /** Why the job stopped early, or a summary when it finished. */
  message?: string;
}

/** One step's result: how many items it completed and how many of those failed. */
export interface StepOutcome {
  done: number;
  failed: number;
  /** Stop the job here with this message (e.g. offline, or the endpoint is not offered). */
  stop?: string;
}

/**
 * Runs a job as a sequence of steps (chunks of ids, sync windows), one at a time, so progress moves
 * after every step and Cancel takes effect before the next one. Concurrency inside a step is bounded
 * in main (gateway batch), which keeps the service load polite.
 *
 * A job belongs to the screen that started it: it is cancelled when that screen unmounts (navigation,
 * or a profile switch, which remounts the screen for the new profile). A step is told `stale()` and
 * must not write what arrives once its screen is gone.
 */
export function useBatchJob() {
  const [job, setJob] = useState<JobState | null>(null);
  const cancelled = useRef(false);
  const running = useRef(false);
  const mounted = useRef(true);
  /** Aborted with Cancel (or the screen's end): stops a long cache write inside the step under way. */
  const abort = useRef(new AbortController());
  useEffect(() => {
    mounted.current = true;
    return () => {
      mounted.current = false;
      cancelled.current = true;
      abort.current.abort();
    };
  }, []);

  const run = useCallback(
    async <T>(
      label: string,
      total: number,
      steps: readonly T[],
      step: (s: T, stale: () => boolean, signal: AbortSignal) => Promise<StepOutcome>,
      summary?: (j: JobState) => string,
    ) => {
      if (running.current) return;
      running.current = true;
      cancelled.current = false;
      abort.current = new AbortController();
      const { signal } = abort.current;
      let state: JobState = { label, done: 0, total, failed: 0, status: 'running', startedAt: Date.now() };
      setJob(state);
      try {
        for (const s of steps) {
          if (cancelled.current) {
            state = {
              ...state,
              status: 'cancelled',
              message: `Cancelled after ${state.done} of ${state.total}. What was already fetched is kept.`,
            };
            break;
          }
          const r = await step(s, () => !mounted.current, signal);
          state = { ...state, done: state.done + r.done, failed: state.failed + r.failed };
          if (r.stop) {
            state = { ...state, status: 'stopped', message: r.stop };
            break;
          }
          if (mounted.current) setJob(state);
        }
        if (state.status === 'running' && cancelled.current)
          state = {
            ...state,
            status: 'cancelled',
            message: `Cancelled after ${state.done} of ${state.total}. What was already fetched is kept.`,
          };
        if (state.status === 'running')
          state = { ...state, status: 'finished', ...(summary ? { message: summary(state) } : {}) };
      } catch (e) {
        state = {
          ...state,
          status: 'stopped',
          message: e instanceof Error ? e.message : 'The job stopped unexpectedly.',
        };
      } finally {
        running.current = false;
        if (mounted.current) setJob(state);
      }
    },
    [],
  );

  const cancel = useCallback(() => {
    cancelled.current = true;
    abort.current.abort();
  }, []);
  const dismiss = useCallback(() => setJob((j) => (j?.status === 'running' ? j : null)), []);

  return { job, run, cancel, dismiss, isRunning: job?.status === 'running' };
}
