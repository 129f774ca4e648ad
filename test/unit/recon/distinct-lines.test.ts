/**
 * start() refuses a ledger two of whose rows carry the same line number (service.ts distinctLines):
 * marks per line for the usual file, a set for line numbers a mark array would be too large for.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { distinctLines } from '../../../electron/core/services/reconciliation/service';
import type { LedgerRow, UnusableRow } from '../../../shared/recon/ledger';

const row = (line: number) => ({ line, amountMinor: 1, currency: 'USD', status: 'paid' }) as LedgerRow;
const bad = (line: number) => ({ line, reason: 'x' }) as UnusableRow;

describe('distinctLines', () => {
  it('says whether any line repeats, across read and unusable rows, as a set of every line would', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(fc.integer({ min: 2, max: 60 }), fc.integer({ min: 2, max: 2 ** 40 })), {
          maxLength: 40,
        }),
        fc.integer({ min: 0, max: 40 }),
        (lines, cut) => {
          const rows = lines.slice(0, cut).map(row);
          const unusable = lines.slice(cut).map(bad);
          expect(distinctLines({ rows, unusable })).toBe(new Set(lines).size === lines.length);
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a line repeated between a read row and an unusable one, or far beyond the file’s rows', () => {
    expect(distinctLines({ rows: [row(2), row(3)], unusable: [bad(4)] })).toBe(true);
    expect(distinctLines({ rows: [row(2), row(3)], unusable: [bad(3)] })).toBe(false);
    expect(distinctLines({ rows: [row(2), row(2 ** 40)], unusable: [bad(2 ** 40)] })).toBe(false);
    expect(distinctLines({ rows: [row(2), row(2 ** 40)], unusable: [bad(5)] })).toBe(true);
    // Not integers (a damaged record): still told apart exactly.
    expect(distinctLines({ rows: [row(2.5), row(2.5)], unusable: [] })).toBe(false);
    expect(distinctLines({ rows: [row(2.5), row(3)], unusable: [] })).toBe(true);
    expect(distinctLines({ rows: [], unusable: [] })).toBe(true);
  });
});
