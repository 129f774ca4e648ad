/**
 * What a run's report items refer to (schema v12, electron/core/adapters/sqlite/item-refs.ts): the run's
 * own stored ledger rows and list payments, read back exactly; a reference the run does not hold is a
 * clear error, never a wrong row; and a run's parsed list is not kept once its items stop being read.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { ItemRefError } from '../../../electron/core/adapters/sqlite/item-codec';
import { runReferents } from '../../../electron/core/adapters/sqlite/item-refs';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import type { Transaction } from '../../../shared/domain/transaction';
import type { LedgerRow } from '../../../shared/recon/ledger';
import type { RunFacts } from '../../../shared/recon/run';

const row = (i: number): LedgerRow => ({
  line: i + 2,
  transactionNo: String(1000 + i),
  amountMinor: i,
  currency: 'USD',
  status: 'paid',
});
const tx = (i: number): Transaction => ({
  transactionNo: String(1000 + i),
  amountMinor: i,
  currency: 'USD',
  status: 'success',
  transactionType: 'payment',
  refunds:
    i % 2 ? [{ refundTransactionNo: `R${i}`, refundAmountMinor: 1, currency: 'USD', status: 'success' }] : [],
});

describe('the records a run’s items refer to', () => {
  const dirs: string[] = [];
  afterEach(() => {
    vi.useRealTimers();
    for (const d of dirs.splice(0)) rmSync(d, { recursive: true, force: true });
  });
  function stored() {
    const dir = mkdtempSync(join(tmpdir(), 'rd-item-refs-'));
    dirs.push(dir);
    const db = openDatabase(join(dir, 'refund-desk.db'), MIGRATIONS);
    const runs = createSqliteRunStore(db);
    runs.create({ runId: 'RC1', profileId: 'p1', label: 'june.csv', createdAt: 't' } as RunFacts);
    const rows = Array.from({ length: 23 }, (_, i) => row(i));
    // Chunks of different sizes, an unusable chunk between them (it is not a row).
    runs.addInput('RC1', 'row', rows.slice(0, 10));
    runs.addInput('RC1', 'unusable', [{ line: 99, reason: 'x' }]);
    runs.addInput('RC1', 'row', rows.slice(10, 13));
    runs.addInput('RC1', 'row', rows.slice(13));
    const windows = ['20250601', '20250616'].map((startDate, w) => ({
      startDate,
      endDate: startDate,
      fetchedAt: '2025-07-02T00:00:00.000Z',
      state: 'listed' as const,
      transactions: Array.from({ length: 7 }, (_, i) => tx(w * 7 + i)),
    }));
    for (const w of windows) runs.saveWindow('RC1', w);
    return { db, rows, windows };
  }

  it('reads every row and payment back exactly, in any order', () => {
    const { db, rows, windows } = stored();
    const refs = runReferents(db, 'RC1');
    for (const k of [22, 0, 9, 10, 12, 13, 5]) expect(refs.row(k)).toStrictEqual(rows[k]);
    for (const [w, at] of [
      [1, 6],
      [0, 0],
      [1, 1],
      [0, 5],
    ] as const)
      expect(refs.listed(windows[w]!.startDate, at)).toStrictEqual(windows[w]!.transactions[at]);
    db.close();
  });

  it('a reference the run does not hold is a damaged record, said so', () => {
    const { db } = stored();
    const refs = runReferents(db, 'RC1');
    expect(() => refs.row(23)).toThrow(ItemRefError);
    expect(() => refs.row(-1)).toThrow(/damaged: an item refers to ledger row -1/);
    expect(() => refs.listed('20250601', 7)).toThrow(/payment 7 of the list window of 20250601/);
    expect(() => refs.listed('20250701', 0)).toThrow(/the list window of 20250701/);
    db.close();
  });

  it('is kept while the run’s items are read, and let go when they stop being read', () => {
    vi.useFakeTimers();
    const { db } = stored();
    const first = runReferents(db, 'RC1');
    vi.advanceTimersByTime(20_000);
    expect(runReferents(db, 'RC1')).toBe(first);
    vi.advanceTimersByTime(20_000);
    // Read 20 s ago: still kept.
    expect(runReferents(db, 'RC1')).toBe(first);
    vi.advanceTimersByTime(30_001);
    expect(runReferents(db, 'RC1')).not.toBe(first);
    db.close();
  });
});
