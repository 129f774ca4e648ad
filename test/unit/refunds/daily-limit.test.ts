import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { createRefundService } from '../../../electron/core/services/refunds/service';
import type { Transaction } from '../../../shared/domain/transaction';
import { createFakeLogger } from '../../fakes/logger';

// Los Angeles: UTC midnight is 16:00 local, so a UTC "day" would reset mid-afternoon.
const savedTz = process.env['TZ'];
beforeAll(() => void (process.env['TZ'] = 'America/Los_Angeles'));
afterAll(() => void (process.env['TZ'] = savedTz));

function setup(now: { ms: number }) {
  const dir = mkdtempSync(join(tmpdir(), 'rd-daily-'));
  const tx: Transaction = {
    transactionNo: '100000000000000001',
    amountMinor: 1_000_000,
    currency: 'USD' as const,
    status: 'success',
    transactionType: 'payment',
    refunds: [],
  };
  let n = 0;
  const gateway = {
    queryTransaction: async () => ({ transaction: tx }),
    refund: async (input: { refundAmountMinor: number }) => ({
      refundTransactionNo: `90000000000000000${(n += 1)}`,
      refundAmountMinor: input.refundAmountMinor,
      currency: 'USD' as const,
      status: 'pending' as const,
    }),
  };
  return createRefundService({
    gatewayFor: () => gateway as never,
    store: refundStoreOn(
      openAppStorage({ dataDir: dir, now: () => now.ms, log: createFakeLogger() }).intents,
    ),
    sender: 'test:1',
    clock: { now: () => now.ms },
    log: createFakeLogger(),
    context: () => ({
      profileId: 'p',
      profileName: 'P',
      environment: 'vendor-sandbox',
      baseUrl: 'https://mapi.yuansferdev.com',
      merchantNo: '1',
      storeNo: '2',
      operator: 'o',
      guardrails: { limits: [{ currency: 'USD' as const, dailyTotalMinor: 100_000 }] },
    }),
    newId: () => `RDTEST${Math.random().toString(36).slice(2, 10).toUpperCase()}`,
  });
}

describe('daily refund limit', () => {
  it('counts the operator’s local day, not the UTC day', async () => {
    const now = { ms: Date.parse('2026-11-20T23:30:00Z') }; // 15:30 in Los Angeles
    const service = setup(now);
    const base = {
      profileId: 'p',
      transactionNo: '100000000000000001',
      currency: 'USD' as const,
      reasonCode: 'other',
      reasonNote: 'x',
      confirmation: {},
    };
    expect((await service.submit({ ...base, amountMinor: 90_000 })).state).toBe('accepted');
    now.ms = Date.parse('2026-11-21T00:30:00Z'); // 16:30 the same local day, but a new UTC day
    await expect(service.submit({ ...base, amountMinor: 90_000 })).rejects.toMatchObject({
      code: 'invalid_input',
      details: { requires: ['limit_confirmation'] },
    });
    // The refusal is in the audit log too.
    expect((await service.audit())[0]).toMatchObject({ outcome: 'refused', amountMinor: 90_000 });
    now.ms = Date.parse('2026-11-21T08:30:00Z'); // 00:30 the next local day
    expect((await service.submit({ ...base, amountMinor: 90_000 })).state).toBe('accepted');
  });
});
