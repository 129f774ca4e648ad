import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { DEMO_MERCHANT, startSandbox, type RunningSandbox } from '../../../electron/sandbox/index';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import { createTransactionSync } from '../../../electron/core/services/transactions/sync';
import { toServiceDate } from '../../../shared/protocol/time';
import { createFakeLogger } from '../../fakes/logger';

const DAY = 86_400_000;

describe('transactions.sync against the sandbox', () => {
  let sb: RunningSandbox;
  const clock = { now: () => Date.now() };
  const syncWith = (baseUrl: string) =>
    createTransactionSync({
      clock,
      gateway: async () => ({
        profileId: 'demo',
        client: createGatewayClient({
          http: createFetchHttpClient(),
          clock,
          log: createFakeLogger(),
          config: () => ({ baseUrl, ...DEMO_MERCHANT }),
          retry: { retries: 0 },
          timeoutMs: 3_000,
        }),
      }),
    });

  beforeAll(async () => {
    sb = await startSandbox({ seed: 3, transactions: 400 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('returns the store’s payments of one ≤ 15-day window', async () => {
    const now = Date.now();
    const r = await syncWith(sb.baseUrl).syncWindow('P1', toServiceDate(now - 14 * DAY), toServiceDate(now));
    expect(r.supported).toBe(true);
    if (!r.supported) return;
    expect(r.transactions.length).toBeGreaterThan(0);
    for (const t of r.transactions) {
      expect(t.transactionNo).toMatch(/^\d{18}$/);
      expect(Number.isSafeInteger(t.amountMinor)).toBe(true);
    }
  });

  it('refuses windows longer than 15 days before any network call', async () => {
    const now = Date.now();
    await expect(
      syncWith('http://127.0.0.1:1').syncWindow('P1', toServiceDate(now - 20 * DAY), toServiceDate(now)),
    ).rejects.toMatchObject({ code: 'invalid_input' });
  });

  it('degrades with a message where the service does not offer trans-list', async () => {
    // The sandbox answers an unknown path version with 000010, as a server without trans-list would.
    const r = await syncWith(`${sb.baseUrl}/__no_such_prefix`).syncWindow('P1', '20250101', '20250105');
    expect(r).toMatchObject({ supported: false });
  });

  it('reports an unreachable service as a network error, not as "unsupported"', async () => {
    const down = await startSandbox({ seed: 3, transactions: 10 });
    const url = down.baseUrl;
    await down.close();
    await expect(syncWith(url).syncWindow('P1', '20250101', '20250105')).rejects.toMatchObject({
      code: 'network',
    });
  });
});
