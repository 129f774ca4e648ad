import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { type RunProgress, startRunner } from '../../../electron/core/services/reconciliation/runner';
import type { QueryKey } from '../../../electron/core/services/gateway/client';
import { tx } from './fixtures';

/** A gateway whose answers the test controls; `gate` holds queries until released. */
function fakeGateway(opts: { fail?: (no: string) => AppError | undefined; delayMs?: number } = {}) {
  const calls: string[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  return {
    calls,
    maxInFlight: () => maxInFlight,
    async queryTransaction(key: QueryKey, o: { signal?: AbortSignal } = {}) {
      const no = 'transactionNo' in key ? key.transactionNo : 'reference' in key ? key.reference : '';
      calls.push(no);
      inFlight += 1;
      maxInFlight = Math.max(maxInFlight, inFlight);
      try {
        await new Promise((r) => setTimeout(r, opts.delayMs ?? 1));
        if (o.signal?.aborted) throw new AppError('cancelled', 'cancelled');
        const err = opts.fail?.(no);
        if (err) throw err;
        if (no.startsWith('9')) throw new AppError('not_found', 'no such payment');
        return { transaction: tx(no, 100) };
      } finally {
        inFlight -= 1;
      }
    },
  };
}
const clock = { now: () => Date.now() };
const keys = (n: number, prefix = '1') =>
  Array.from({ length: n }, (_, i) => `tx:${prefix}${String(i).padStart(5, '0')}`);

describe('startRunner', () => {
  it('queries every key with bounded concurrency and reports progress with an ETA', async () => {
    const gw = fakeGateway();
    const progress: RunProgress[] = [];
    const results: string[] = [];
    const r = startRunner({
      gateway: gw,
      clock,
      keys: [...keys(30), 'tx:9001'],
      concurrency: 4,
      onResult: (x) => void results.push(x.lookup.kind),
      onProgress: (p) => progress.push(p),
    });
    const end = await r.done;
    expect(end).toMatchObject({ state: 'completed', done: 31, total: 31, failed: 0 });
    expect(gw.maxInFlight()).toBe(4);
    expect(results.filter((k) => k === 'not_found')).toHaveLength(1);
    expect(progress.some((p) => p.etaMs !== undefined)).toBe(true);
  });

  it('pauses (in-flight queries finish, nothing new starts), resumes and cancels', async () => {
    const gw = fakeGateway({ delayMs: 5 });
    const r = startRunner({ gateway: gw, clock, keys: keys(40), concurrency: 2, onResult: () => {} });
    await new Promise((res) => setTimeout(res, 20));
    r.pause();
    await new Promise((res) => setTimeout(res, 20));
    const atPause = gw.calls.length;
    await new Promise((res) => setTimeout(res, 30));
    expect(gw.calls.length).toBe(atPause);
    expect(r.progress().state).toBe('paused');
    r.resume();
    await new Promise((res) => setTimeout(res, 20));
    expect(gw.calls.length).toBeGreaterThan(atPause);
    r.cancel();
    const end = await r.done;
    expect(end.state).toBe('cancelled');
    expect(end.done).toBeLessThan(40);
  });

  it('pauses itself when the service keeps failing for every key', async () => {
    const gw = fakeGateway({ fail: () => new AppError('network', 'The service did not answer.') });
    let last: RunProgress | undefined;
    const r = startRunner({
      gateway: gw,
      clock,
      keys: keys(100),
      concurrency: 2,
      pauseAfterFailures: 5,
      onResult: () => {},
      onProgress: (p) => (last = p),
    });
    await new Promise((res) => setTimeout(res, 50));
    expect(last).toMatchObject({ state: 'paused', stoppedBecause: { code: 'network' } });
    expect(gw.calls.length).toBeLessThan(10);
    r.cancel();
    await r.done;
  });
});
