import { readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { buildDemoLedger } from '../../../electron/cli/tools/demo-ledger';
import { DEMO_SEED } from '../../../electron/main/compose';
import { parseCsvText } from '../../../shared/csv/parser';
import { toLedgerRows } from '../../../shared/recon/ledger';
import { guessMapping } from '../../../shared/recon/mapping';

describe('resources/demo-ledger.csv', () => {
  const committed = readFileSync(resolve(import.meta.dirname, '../../../resources/demo-ledger.csv'), 'utf8');
  const built = buildDemoLedger();

  it('is exactly what the generator produces (regenerate with electron/cli/tools/make-demo-ledger.ts)', () => {
    expect(committed).toBe(built.csv);
  });
  it('uses the Demo profile’s sandbox seed', async () => {
    const { DEMO_LEDGER_SEED } = await import('../../../electron/cli/tools/demo-ledger');
    expect(DEMO_LEDGER_SEED).toBe(DEMO_SEED);
  });
  it('plants a few discrepancies of every kind and two unreadable rows', () => {
    expect(built.expected).toEqual({
      matched: 184,
      amount_mismatch: 3,
      currency_mismatch: 2,
      status_mismatch: 3,
      refunded_not_in_ledger: 3,
      missing_at_service: 3,
      duplicate_in_ledger: 2,
      not_checked: 0,
    });
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
    expect(imported.rows).toHaveLength(200);
    expect(imported.problems.map((p) => p.line)).toEqual(built.badLines);
  });
});
