/**
 * Network figures, measured against the sandbox over real HTTP with injected latency (the sandbox's
 * fault injection, electron/sandbox/faults.ts), so the round trip — not the two shared cores — decides.
 *
 * - batch_vs_sdk_pool: queryMany with the app's adaptive limiter, beside the same client with the same
 *   concurrency as the vendor SDK's 32-thread pool, in the same run (the bound: 32 in flight ÷ the
 *   latency). The service's error rate (answers other than success / no such record, counted by the
 *   sandbox) is kept for both.
 * - batch_query_5xx_final_limit (printed only): the same batch while the sandbox answers a share of
 *   requests with 503; shows the limiter backing off (its final limit, cuts and the errors seen).
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { createLearnedLimitsFile } from '../../electron/core/adapters/learned-limits-file';
import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { createLogger } from '../../electron/core/adapters/logger';
import { createAdaptiveLimiter, createLimiters } from '../../electron/core/services/gateway/adaptive-limit';
import { queryMany } from '../../electron/core/services/gateway/batch';
import { createGatewayClient } from '../../electron/core/services/gateway/client';
import { DEMO_MERCHANT, startSandbox } from '../../electron/sandbox/index';
import pLimit from 'p-limit';
import { loadNow, type Result, result, RUNS } from './figure';
import { type LegacyResult, legacyResult } from './legacy-result';

/** The peer's pool: the vendor SDK's 32 threads, and the limiter's most in flight. */
const POOL = 32;
const LATENCY_MS = 100;
/** Queries per run of ours; the brief's 10k. `BENCH_BATCH_KEYS` lowers it on a slow machine. */
const KEYS = Number(process.env['BENCH_BATCH_KEYS'] ?? 10_000);
const FIVE_XX_RATE = 0.2;
const FIVE_XX_KEYS = 500;

/** Counts what the sandbox answered, per request (its log line carries the ret_code or `http-503`). */
function serviceCounter() {
  let requests = 0;
  let errors = 0;
  return {
    log: (line: string) => {
      const m = / \/app-data-search\/v3\/tran-query (\S+) /.exec(line);
      if (!m) return;
      requests += 1;
      // Success and "no such record" are answers; anything else is the service failing the request.
      if (m[1] !== '000100' && m[1] !== '000021') errors += 1;
    },
    take: () => {
      const out = { requests, errors };
      requests = 0;
      errors = 0;
      return out;
    },
  };
}

async function withSandbox<T>(
  faults: { latencyMs: number; http5xxRate?: number },
  fn: (ctx: {
    gateway: ReturnType<typeof createGatewayClient>;
    ids: string[];
    counter: ReturnType<typeof serviceCounter>;
  }) => Promise<T>,
): Promise<T> {
  const counter = serviceCounter();
  const sandbox = await startSandbox({
    seed: 42,
    transactions: 5_000,
    log: counter.log,
    faults: { endpoints: { 'tran-query': faults } },
  });
  try {
    const gateway = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log: createLogger({ sink: () => {} }),
      config: () => ({
        baseUrl: sandbox.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        token: DEMO_MERCHANT.token,
      }),
    });
    const ids = sandbox.state
      .snapshot()
      .payments.filter((p) => p.merchantNo === DEMO_MERCHANT.merchantNo)
      .map((p) => p.transactionNo);
    await gateway.queryTransaction({ transactionNo: ids[0]! }); // warm-up (connection, JIT)
    counter.take();
    return await fn({ gateway, ids, counter });
  } finally {
    await sandbox.close();
  }
}

const keysOf = (ids: string[], n: number, offset = 0) =>
  Array.from({ length: n }, (_, i) => ({ transactionNo: ids[(offset + i) % ids.length]! }));
const pct = (part: number, whole: number) => (whole === 0 ? 0 : Math.round((part / whole) * 10_000) / 100);

/** Where the bench's "app" keeps what its limiters learned, as the app does in its data directory. */
const LEARNED = join(mkdtempSync(join(tmpdir(), 'rd-bench-learned-')), 'learned-limits.json');

/**
 * The limiters a fresh process of the app would have for the bench's account: what the app composes
 * (compose.ts: one per connection, starting from what the last process learned).
 */
function appLimiters() {
  const clock = { now: Date.now };
  return createLimiters(clock, createLearnedLimitsFile(LEARNED, clock));
}

async function batchVsPool(): Promise<Result> {
  const load = loadNow();
  return withSandbox({ latencyMs: LATENCY_MS }, async ({ gateway, ids, counter }) => {
    const ours: number[] = [];
    const peer: number[] = [];
    const starts: number[] = [];
    const limits: number[] = [];
    let oursReq = 0;
    let oursErr = 0;
    let peerReq = 0;
    let peerErr = 0;
    // A first batch of the account, untimed: what a person's first batch of the day teaches the app.
    const first = appLimiters()(DEMO_MERCHANT.merchantNo);
    const t = performance.now();
    await queryMany(gateway, keysOf(ids, KEYS, 3), { limiter: first });
    const firstRate = Math.round((KEYS / (performance.now() - t)) * 1000);
    counter.take();
    for (let r = 0; r < RUNS; r += 1) {
      // Each run as a batch in a fresh process of the app: its limiter for the account.
      const limiter = appLimiters()(DEMO_MERCHANT.merchantNo);
      starts.push(limiter.state().limit);
      const t0 = performance.now();
      await queryMany(gateway, keysOf(ids, KEYS, r * 7), { limiter });
      ours.push((KEYS / (performance.now() - t0)) * 1000);
      limits.push(limiter.state().limit);
      const o = counter.take();
      oursReq += o.requests;
      oursErr += o.errors;

      // The peer: the same client in a pool of 32 workers (the vendor SDK's 32-thread pool).
      const pool = pLimit(POOL);
      const t1 = performance.now();
      await Promise.all(
        keysOf(ids, KEYS, r * 11).map((key) =>
          pool(async () => {
            try {
              await gateway.queryTransaction(key);
            } catch {
              // A failed query is counted by the service; the pool goes on, as a script's would.
            }
          }),
        ),
      );
      peer.push((KEYS / (performance.now() - t1)) * 1000);
      const p = counter.take();
      peerReq += p.requests;
      peerErr += p.errors;
      process.stderr.write(
        `  batch run ${r + 1}: ours ${Math.round(ours.at(-1)!)}/s (from ${starts.at(-1)}) pool ${Math.round(peer.at(-1)!)}/s\n`,
      );
    }
    const oursRate = pct(oursErr, oursReq);
    const peerRate = pct(peerErr, peerReq);
    return result(
      {
        name: 'batch_vs_sdk_pool',
        size: KEYS,
        unit: 'queries/s',
        goal: 'ratio ≥ 0.95 (the same client in a pool of 32, the vendor SDK with 32 threads) with no higher service error rate',
        note:
          `sandbox with ${LATENCY_MS} ms injected latency on tran-query, in this process; ours: queryMany with the app's adaptive limiter for the account, each run as in a fresh process (limit at start ${starts.join(', ')}, at end ${limits.join(', ')}), after one untimed first batch of the account (${firstRate}/s); ` +
          `peer: the same gateway client with 32 queries in flight (p-limit), ${KEYS} queries a run; bound: ${POOL} in flight ÷ ${LATENCY_MS} ms = ${(POOL * 1000) / LATENCY_MS}/s; ` +
          `service error rate ours ${oursRate}% of ${oursReq} requests, peer ${peerRate}% of ${peerReq}; ratio = ours ÷ peer (higher is better)`,
      },
      { ours, floor: peer },
      load,
      (_m, ratio) => (ratio === null ? null : ratio >= 0.95 && oursRate <= peerRate),
    );
  });
}

async function backsOffOn5xx(): Promise<LegacyResult> {
  return withSandbox(
    { latencyMs: LATENCY_MS, http5xxRate: FIVE_XX_RATE },
    async ({ gateway, ids, counter }) => {
      const finals: number[] = [];
      const peaks: number[] = [];
      const cuts: number[] = [];
      const failed: number[] = [];
      const served503: number[] = [];
      const rates: number[] = [];
      for (let r = 0; r < RUNS; r += 1) {
        const limiter = createAdaptiveLimiter({ clock: { now: Date.now } });
        const t0 = performance.now();
        const items = await queryMany(gateway, keysOf(ids, FIVE_XX_KEYS, r * 13), { limiter });
        rates.push(Math.round((FIVE_XX_KEYS / (performance.now() - t0)) * 1000));
        const s = limiter.state();
        finals.push(s.limit);
        peaks.push(s.peak);
        cuts.push(s.cuts);
        failed.push(items.filter((i) => !i.ok).length);
        served503.push(counter.take().errors);
      }
      return legacyResult(
        {
          name: 'batch_query_5xx_final_limit',
          size: FIVE_XX_KEYS,
          unit: 'queries in flight',
          goal: 'backs off: the limit ends below its start (8) and cuts on every run',
          note:
            `sandbox answering ${FIVE_XX_RATE * 100}% of tran-queries with 503 (${LATENCY_MS} ms latency); per run: ` +
            `503s served ${served503.join(', ')}; keys failed after the transport's 2 retries ${failed.join(', ')}; ` +
            `cuts ${cuts.join(', ')}; peak limit ${peaks.join(', ')}; queries/s ${rates.join(', ')}`,
        },
        finals,
        null,
        (m) => m < 8 && cuts.every((c) => c > 0),
      );
    },
  );
}

/** batch_vs_sdk_pool, for results.json. */
export async function batchResults(): Promise<Result[]> {
  return [await batchVsPool()];
}

/** The limiter backing off under 503s (printed only: `npm run bench -- batch-5xx`). */
export async function backOffResults(): Promise<LegacyResult[]> {
  return [await backsOffOn5xx()];
}
