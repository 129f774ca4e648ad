import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import {
  DEFAULT_READ_BUDGET_MS,
  DEFAULT_TIMEOUT_MS,
} from '../../../electron/core/services/gateway/transport';
import { caughtAppError } from '../../fakes/app-error';
import { createFakeHttp } from '../../fakes/http';
import { createFakeLogger } from '../../fakes/logger';

/**
 * One stated time budget for a read (SECURITY.md "Time budget"): each attempt ≤ 15 s, the whole read —
 * retries and backoff included — ≤ 20 s. Before it, a hanging service made a lookup take 3 × 15 s.
 */
const config = () => ({
  baseUrl: 'http://127.0.0.1:1',
  merchantNo: '200043',
  storeNo: '300014',
  token: 'budget-test-token',
});

/** Runs a call that must fail in fake time: its error and how much virtual time it took. */
async function inVirtualTime(call: () => Promise<unknown>): Promise<{ error: AppError; tookMs: number }> {
  const started = Date.now();
  let endedAt = started;
  const result = caughtAppError(call()).finally(() => (endedAt = Date.now()));
  await vi.advanceTimersByTimeAsync(60_000);
  return { error: await result, tookMs: endedAt - started };
}

afterEach(() => {
  vi.useRealTimers();
});

describe('lookup time budget', () => {
  it('states 15 s per attempt and 20 s per read', () => {
    expect(DEFAULT_TIMEOUT_MS).toBe(15_000);
    expect(DEFAULT_READ_BUDGET_MS).toBe(20_000);
  });

  it('with the defaults, a hanging service ends a lookup at 20 s, not 3 × 15 s', async () => {
    vi.useFakeTimers();
    const http = createFakeHttp(['hang']);
    const gw = createGatewayClient({ http, clock: { now: Date.now }, log: createFakeLogger(), config });
    const { error, tookMs } = await inVirtualTime(() =>
      gw.queryTransaction({ transactionNo: '297553638300708562' }),
    );
    expect(error.code).toBe('timeout');
    expect(error.details).toMatchObject({ timeoutMs: 15_000, budgetMs: 20_000 });
    expect(tookMs).toBeLessThanOrEqual(20_000);
    expect(tookMs).toBeGreaterThan(15_000);
    expect(http.calls).toHaveLength(2); // the second attempt got only what was left
  });

  it('holds against a real trickling service: headers at once, then one byte every 50 ms', async () => {
    const sockets = new Set<import('node:net').Socket>();
    const server: Server = createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'application/json' });
      const t = setInterval(() => res.write(' '), 50);
      res.on('close', () => clearInterval(t));
    });
    server.on('connection', (s) => sockets.add(s));
    await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
    try {
      const port = (server.address() as AddressInfo).port;
      const gw = createGatewayClient({
        http: createFetchHttpClient(),
        clock: { now: Date.now },
        log: createFakeLogger(),
        config: () => ({ ...config(), baseUrl: `http://127.0.0.1:${port}` }),
        timeoutMs: 400,
        readBudgetMs: 700,
        retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 10 },
      });
      const started = performance.now();
      const e = await caughtAppError(gw.queryTransaction({ transactionNo: '297553638300708562' }));
      const took = performance.now() - started;
      expect(e.code).toBe('timeout');
      // Without the budget: 3 attempts × 400 ms ≈ 1.2 s.
      expect(took).toBeLessThan(700 + 250);
    } finally {
      for (const s of sockets) s.destroy();
      await new Promise<void>((r) => server.close(() => r()));
    }
  });

  it('a write is sent once and bounded by the per-attempt timeout alone', async () => {
    vi.useFakeTimers();
    const http = createFakeHttp(['hang']);
    const gw = createGatewayClient({ http, clock: { now: Date.now }, log: createFakeLogger(), config });
    const { error, tookMs } = await inVirtualTime(() =>
      gw.refund({
        transactionNo: '297553638300708562',
        refundAmountMinor: 100,
        currency: 'USD',
        settleCurrency: 'USD',
      }),
    );
    expect(error.code).toBe('outcome_unknown');
    expect(tookMs).toBe(15_000);
    expect(http.calls).toHaveLength(1);
  });
});
