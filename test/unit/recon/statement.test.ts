/**
 * The run's statement (shared/recon/statement.ts) writes its counts grouped as en-US does, without
 * ICU's number formatting (loaded on first use, about 10 ms inside every run).
 */
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { RunFacts } from '../../../shared/recon/run';
import { grouped, statementOf } from '../../../shared/recon/statement';
import { summarise } from '../../../shared/recon/summary';

const facts = {
  runId: 'RC1',
  label: 'june.csv',
  file: {
    name: 'june.csv',
    kind: 'csv',
    encoding: 'utf-8',
    delimiter: ',',
    dataRows: 1_234_567,
    decimal: '.',
    dateOrder: 'ymd',
    decimalSource: 'detected',
    dateOrderSource: 'detected',
  },
  mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Ccy', date: 'Date' },
  options: {
    period: { from: '2025-06-01', to: '2025-06-30' },
    days: 'service',
    timeZone: 'UTC',
    dateToleranceDays: 1,
    refundLookbackDays: 30,
  },
  listing: { state: 'complete', windows: 2, windowsDone: 2, payments: 1_000_001 },
  sources: { list: 999_999, lookup: 1_000, cache: 12 },
  lookups: { asked: 1_000, failed: 0, failedByCode: {} },
  offline: false,
  usedCache: true,
} as unknown as RunFacts;

describe('the run statement', () => {
  afterEach(() => vi.restoreAllMocks());

  it('groups an integer exactly as toLocaleString("en-US") does', () => {
    fc.assert(
      fc.property(
        fc.oneof(fc.integer(), fc.integer({ min: -1000, max: 1000 }), fc.maxSafeInteger(), fc.maxSafeNat()),
        (n) => {
          expect(grouped(n)).toBe(n.toLocaleString('en-US'));
        },
      ),
      { numRuns: 2000 },
    );
    for (const n of [0, -0, 7, 999, 1000, -1000, 999_999, 1_000_000, Number.MAX_SAFE_INTEGER, 1.5, NaN])
      expect(grouped(n)).toBe(n.toLocaleString('en-US'));
  });

  it('writes its counts without Intl’s number formatting', () => {
    const toLocale = vi.spyOn(Number.prototype, 'toLocaleString');
    const text = statementOf(facts, summarise([])).join('\n');
    expect(toLocale).not.toHaveBeenCalled();
    expect(text).toContain('1,234,567 data rows, 0 read');
    expect(text).toContain('999,999 from the period’s list, 1,000 looked up one by one, 12 from data');
    expect(text).toContain('(1,000,001 payments)');
  });
});
