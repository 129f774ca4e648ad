import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import { queryMany } from '../../../electron/core/services/gateway/batch';
import type { QueriedTransaction, QueryKey } from '../../../electron/core/services/gateway/client';

const tx = (transactionNo: string): QueriedTransaction => ({
  transaction: {
    transactionNo,
    amountMinor: 100,
    currency: 'USD',
    status: 'success',
    transactionType: 'payment',
    refunds: [],
  },
});

describe('queryMany', () => {
  it('bounds concurrency, keeps order, reports progress and isolates failures', async () => {
    let running = 0;
    let peak = 0;
    const gateway = {
      queryTransaction: async (key: QueryKey) => {
        running += 1;
        peak = Math.max(peak, running);
        await new Promise((r) => setTimeout(r, 5));
        running -= 1;
        const no = 'transactionNo' in key ? key.transactionNo : '';
        if (no === '3') throw new AppError('not_found', 'none');
        return tx(no);
      },
    };
    const progress: number[] = [];
    const keys = Array.from({ length: 10 }, (_, i) => ({ transactionNo: String(i) }));
    const out = await queryMany(gateway, keys, { concurrency: 3, onProgress: (p) => progress.push(p.done) });
    expect(peak).toBe(3);
    expect(out.map((o) => o.key)).toEqual(keys);
    expect(out.filter((o) => !o.ok).map((o) => (o.ok ? '' : o.error.code))).toEqual(['not_found']);
    expect(progress).toEqual([1, 2, 3, 4, 5, 6, 7, 8, 9, 10]);
  });

  it('cancel stops queued queries', async () => {
    const ctl = new AbortController();
    let calls = 0;
    const gateway = {
      queryTransaction: async (key: QueryKey) => {
        calls += 1;
        if (calls === 2) ctl.abort();
        await new Promise((r) => setTimeout(r, 1));
        return tx('transactionNo' in key ? key.transactionNo : '');
      },
    };
    const out = await queryMany(
      gateway,
      Array.from({ length: 8 }, (_, i) => ({ transactionNo: String(i) })),
      { concurrency: 1, signal: ctl.signal },
    );
    expect(calls).toBe(2);
    expect(out.filter((o) => !o.ok && o.error.code === 'cancelled')).toHaveLength(6);
  });
});
