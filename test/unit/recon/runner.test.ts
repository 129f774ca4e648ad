import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { type RunProgress, startRunner } from '../../../electron/main/services/reconciliation/runner';
import { openAppStorage } from '../../../electron/main/adapters/sqlite/app-storage';
import { createReconciliationService } from '../../../electron/main/services/reconciliation/service';
import type { QueryKey } from '../../../electron/main/services/gateway/client';
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

/** The app database's job store in `dir` (a real SQLite file; a second one is a restarted app). */
function jobStoreIn(dir: string) {
  return openAppStorage({ dataDir: dir, now: Date.now, log: { info() {}, warn() {}, error() {} } }).jobs;
}

describe('reconciliation service: jobs persist and resume after a restart', () => {
  const dirs: string[] = [];
  afterEach(() => {
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });

  it('keeps answers across a restart and queries only what is left', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-recon-svc-'));
    dirs.push(dataDir);
    const gw1 = fakeGateway({ delayMs: 3 });
    const events: RunProgress[] = [];
    const svc1 = createReconciliationService({
      store: jobStoreIn(dataDir),
      clock,
      log: { info() {}, warn() {}, error() {} },
      gatewayFor: () => gw1,
      activeProfileId: () => 'p1',
      onProgress: (_id, p) => events.push(p),
      concurrency: 2,
    });
    const job = await svc1.start({ keys: keys(50), label: 'ledger.csv' });
    await new Promise((res) => setTimeout(res, 25));
    await svc1.pause(job.jobId);
    await svc1.close();
    await new Promise((res) => setTimeout(res, 20));
    const answeredBefore = (await svc1.results(job.jobId, 0, 1000)).total;
    expect(answeredBefore).toBeGreaterThan(0);
    expect(answeredBefore).toBeLessThan(50);

    // "Restart": a new service over the same data directory.
    const gw2 = fakeGateway();
    const svc2 = createReconciliationService({
      store: jobStoreIn(dataDir),
      clock,
      log: { info() {}, warn() {}, error() {} },
      gatewayFor: () => gw2,
      activeProfileId: () => 'p1',
      onProgress: () => {},
    });
    const listed = await svc2.list();
    expect(listed[0]).toMatchObject({
      jobId: job.jobId,
      label: 'ledger.csv',
      progress: { state: 'paused', total: 50 },
    });
    await svc2.resume(job.jobId);
    const end = await svc2.settled(job.jobId);
    expect(end.progress).toMatchObject({ state: 'completed', done: 50, total: 50 });
    expect(gw2.calls.length).toBeLessThanOrEqual(50 - answeredBefore + 2);
    const page = await svc2.results(job.jobId, 0, 20);
    expect(page).toMatchObject({ total: 50, nextOffset: 20 });
    expect(page.items[0]?.key).toBe('tx:100000');
  });

  it('rejects malformed keys and needs a profile', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-recon-svc-'));
    dirs.push(dataDir);
    const base = {
      store: jobStoreIn(dataDir),
      clock,
      log: { info() {}, warn() {}, error() {} },
      gatewayFor: () => fakeGateway(),
      onProgress: () => {},
    };
    await expect(
      createReconciliationService({ ...base, activeProfileId: () => 'p' }).start({
        keys: ['tx:12a'],
        label: 'x',
      }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
    await expect(
      createReconciliationService({ ...base, activeProfileId: () => undefined }).start({
        keys: ['tx:1'],
        label: 'x',
      }),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });
});
