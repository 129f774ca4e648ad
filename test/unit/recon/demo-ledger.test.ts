import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  buildDemoLedger,
  DEMO_LEDGER_ANCHOR_MS,
  DEMO_LEDGER_COUNT,
  DEMO_LEDGER_SEED,
  demoLedgerFor,
  demoSandboxAnchor,
} from '../../../electron/core/demo-ledger';
import { DEMO_SEED } from '../../../electron/core/compose';
import { generateSeed, seedAnchor } from '../../../electron/sandbox';
import { parseCsvText } from '../../../shared/csv/parser';
import { toLedgerRows } from '../../../shared/recon/ledger';
import { guessMapping } from '../../../shared/recon/mapping';

describe('resources/demo-ledger.csv', () => {
  const committed = readFileSync(resolve(import.meta.dirname, '../../../resources/demo-ledger.csv'), 'utf8');
  const built = buildDemoLedger();

  it('is exactly what the generator produces (regenerate with electron/hosts/cli/tools/make-demo-ledger.ts)', () => {
    expect(committed).toBe(built.csv);
  });
  it('uses the Demo profile’s sandbox seed', () => {
    expect(DEMO_LEDGER_SEED).toBe(DEMO_SEED);
  });
  it('plants a few discrepancies of every kind, in both directions, and three unreadable rows', () => {
    expect(built.period).toEqual({ from: '2025-06-01', to: '2025-06-30' });
    expect(built.expected).toMatchObject({
      amount_mismatch: 3,
      currency_mismatch: 2,
      status_mismatch: 3,
      date_mismatch: 2,
      refunded_not_in_ledger: 3,
      missing_at_service: 3,
      duplicate_in_ledger: 2,
      missing_in_ledger: 6,
      unreadable: 3,
      not_checked: 0,
    });
    expect(built.expected.refund_missing_in_ledger).toBeGreaterThan(0);
    const parsed = parseCsvText(committed);
    const mapping = guessMapping(parsed.headers);
    expect(mapping).toEqual({
      transactionNo: 'Transaction No',
      reference: 'Order ID',
      amount: 'Amount',
      currency: 'Currency',
      date: 'Date',
      status: 'Status',
    });
    const imported = toLedgerRows(parsed, mapping);
    expect(imported.dataRows).toBe(built.rows);
    expect(imported.unusable.map((p) => p.line)).toEqual(built.badLines);
    expect(imported.unusable.map((p) => p.cause)).toEqual(['amount', 'currency', 'scientific_id']);
  });
  it('follows a Demo sandbox seeded on another day: same payments, dates shifted', () => {
    const later = DEMO_LEDGER_ANCHOR_MS + 17 * 86_400_000;
    const data = generateSeed(DEMO_LEDGER_SEED, DEMO_LEDGER_COUNT, later);
    const sandbox = { state: { payment: (no: string) => data.payments.find((p) => p.transactionNo === no) } };
    expect(demoSandboxAnchor(sandbox)).toBe(seedAnchor(later));
    const shifted = demoLedgerFor(sandbox);
    expect(shifted.period).toEqual({ from: '2025-06-18', to: '2025-07-17' });
    expect(shifted.expected).toEqual(built.expected);
    expect(demoLedgerFor(undefined).csv).toBe(built.csv);
  });
});
