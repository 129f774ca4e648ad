import { describe, expect, it } from 'vitest';
import { describeLookupError } from '../../../../renderer/src/features/transactions/lookup-errors';
import {
  defaultSyncRange,
  splitSyncWindows,
} from '../../../../renderer/src/features/transactions/sync-windows';
import { mergeRows } from '../../../../renderer/src/features/transactions/queries';
import { toListRow } from '../../../../renderer/src/db/list-row';
import { makeTx } from '../db/helpers';

const err = (code: string, details?: Record<string, unknown>) => ({
  code: code as 'not_found',
  message: 'm',
  correlationId: 'C1',
  ...(details ? { details } : {}),
});

describe('lookup failures read differently and say what to do', () => {
  it('gives each cause its own kind, title and next step', () => {
    const nf = describeLookupError(err('not_found'), '297553638300708562');
    const rj = describeLookupError(err('upstream_rejected', { ret_code: '000080' }), 'x');
    const un = describeLookupError(err('unauthorized'), 'x');
    const off = ['network', 'timeout', 'unavailable'].map((c) => describeLookupError(err(c), 'x'));
    expect([nf.kind, rj.kind, un.kind, ...off.map((o) => o.kind)]).toEqual([
      'not_found',
      'rejected',
      'unauthorized',
      'offline',
      'offline',
      'offline',
    ]);
    expect(nf.action).toContain('switch to the profile');
    expect(rj.title).toContain('000080');
    expect(un.action).toContain('Settings');
    expect(off[0]?.action).toContain('Cached transactions stay available');
    expect(new Set([nf.title, rj.title, un.title, off[0]?.title]).size).toBe(4);
    // Not found is resolved by the person alone: no support code competes with the message.
    expect(nf.supportCode).toBe('');
    expect(nf.detail).toBe('');
    expect(rj.supportCode).toBe('C1');
  });
});

describe('sync windows', () => {
  it('splits a range into ≤ 15-day windows, newest first, covering every day once', () => {
    const r = splitSyncWindows('2025-01-01', '2025-02-14');
    if ('error' in r) throw new Error(r.error);
    expect(r.windows).toEqual([
      { startDate: '20250131', endDate: '20250214' },
      { startDate: '20250116', endDate: '20250130' },
      { startDate: '20250101', endDate: '20250115' },
    ]);
    expect(splitSyncWindows('2025-01-05', '2025-01-05')).toEqual({
      windows: [{ startDate: '20250105', endDate: '20250105' }],
    });
    expect(splitSyncWindows('2025-02-01', '2025-01-01')).toHaveProperty('error');
    expect(splitSyncWindows('2025-02-30', '2025-03-01')).toHaveProperty('error');
    expect(splitSyncWindows('2023-01-01', '2025-01-01')).toHaveProperty('error');
  });
  it('defaults to the last 15 service (UTC+8) days', () => {
    // 2025-03-10 20:00 UTC is already 2025-03-11 in UTC+8.
    expect(defaultSyncRange(Date.UTC(2025, 2, 10, 20))).toEqual({ from: '2025-02-25', to: '2025-03-11' });
  });
});

describe('merging fresh rows into the loaded list', () => {
  it('replaces by transactionNo, appends new ones and keeps untouched rows identical', () => {
    const a = toListRow({ ...makeTx(), profileId: 'p', fetchedAt: 't1' });
    const b = toListRow({ ...makeTx(), profileId: 'p', fetchedAt: 't1' });
    const b2 = { ...b, status: 'reversed' as const };
    const c = toListRow({ ...makeTx(), profileId: 'p', fetchedAt: 't2' });
    const out = mergeRows([a, b], [b2, c]);
    expect(out).toEqual([a, b2, c]);
    expect(out[0]).toBe(a);
  });
});
