import type { Logger } from '../ports';
import type { RefundService } from './service';

export interface PollerOptions {
  /** Delays between polls while accepted refunds wait for a final status; the last one repeats. */
  scheduleMs?: number[];
  setTimer?: (fn: () => void, ms: number) => { cancel(): void };
}

const defaultTimer = (fn: () => void, ms: number) => {
  const t = setTimeout(fn, ms);
  t.unref?.();
  return { cancel: () => clearTimeout(t) };
};

/**
 * Follows accepted refunds to a final status by polling tran-query with backoff (a desktop app has no
 * public address for IPNs in production). `kick()` restarts from the fastest step: call it after a
 * submit or an IPN hint. A kick while a poll at the fastest step is already due (or being armed) does
 * nothing: a refund batch kicks once per row, and re-reading every unfinished intent each time made a
 * 1,000-row batch spend seconds of its CPU on that list (and pushed the poll back on every kick).
 */
export function createRefundPoller(service: RefundService, log: Logger, opts: PollerOptions = {}) {
  const schedule = opts.scheduleMs ?? [2_000, 4_000, 8_000, 15_000, 30_000, 60_000, 120_000];
  const setTimer = opts.setTimer ?? defaultTimer;
  let step = 0;
  let timer: { cancel(): void } | undefined;
  let stopped = false;
  /** A poll at the fastest step is armed, or being armed after a kick: a new kick has nothing to add. */
  let fastDue = false;

  const waiting = async () => {
    try {
      return (await service.unfinished()).some((i) => i.state === 'accepted');
    } catch {
      return false;
    }
  };

  const arm = async () => {
    timer?.cancel();
    timer = undefined;
    const armedAt = step;
    if (stopped || !(await waiting()) || stopped) {
      if (step === armedAt) fastDue = false;
      return;
    }
    // A kick while we looked re-armed already: keep its (faster) schedule.
    if (timer || step !== armedAt) return;
    const delay = schedule[Math.min(step, schedule.length - 1)]!;
    fastDue = step === 0;
    step += 1;
    timer = setTimer(() => void tick(), delay);
  };

  const tick = async () => {
    fastDue = false;
    try {
      await service.track();
    } catch (e) {
      log.warn('refund.poll_failed', { error: e instanceof Error ? e.message : String(e) });
    }
    await arm();
  };

  return {
    kick(): void {
      if (fastDue && !stopped) return;
      fastDue = true;
      step = 0;
      void arm();
    },
    stop(): void {
      stopped = true;
      timer?.cancel();
    },
  };
}
