import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  classifyBatch,
  lookupKeyOf,
  type PaymentAnswer,
} from '../../../electron/core/services/batch/classify';
import { remainingFor } from '../../../electron/core/services/refunds/service';
import { readBatchFile } from '../../../shared/batch/read';
import { MOVING_CLASSES } from '../../../shared/batch/result';
import type { Currency } from '../../../shared/domain/currencies';
import { formatMinor } from '../../../shared/domain/money';
import type { Transaction } from '../../../shared/domain/transaction';
import type { Intent } from '../../../electron/core/services/refunds/intent';
import { ACCOUNT, digest, intent, tx } from './fixtures';

/**
 * Issue 27's done-when: for any batch file — good rows, `full`, duplicates, other currencies, ids the
 * service does not know, amounts with too many decimals, huge amounts, malformed rows, blank lines —
 * every data row is classified exactly once, rows read + rows that cannot be used = data rows, the
 * dry run's totals equal the sum of its will-refund rows per currency, and no payment is ever offered
 * more than what remains of it.
 */

const PAYMENTS: Transaction[] = [
  tx('297553638300000001', 1000),
  tx('297553638300000002', 5000, {
    refunds: [{ refundTransactionNo: 'r1', refundAmountMinor: 1500, currency: 'USD', status: 'success' }],
  }),
  tx('297553638300000003', 120_000, { currency: 'JPY' }),
  tx('297553638300000004', 2500, { status: 'pending' }),
  tx('297553638300000005', 800, { reference: 'SO-5' }),
  tx('297553638300000006', 9_000_000),
];
const INTENTS = new Map<string, readonly Intent[]>([
  ['297553638300000002', [intent('297553638300000002', 500, 'accepted')]],
  ['297553638300000006', [intent('297553638300000006', 100, 'sending')]],
]);
const UNKNOWN = ['297553638399999998', '297553638399999999'];
const FAILING = '297553638377777777';
const ids = [...PAYMENTS.map((p) => p.transactionNo), ...UNKNOWN, FAILING];

const amountText = (minor: number, ccy: Currency) => formatMinor(minor, ccy);

const goodRow = fc
  .record({
    id: fc.constantFrom(...ids),
    byRef: fc.boolean(),
    amount: fc.oneof(
      fc.integer({ min: 1, max: 12_000 }).map((m) => ({ m })),
      fc.constantFrom('full', 'FULL', 'Full'),
    ),
    ccy: fc.constantFrom<Currency>('USD', 'USD', 'USD', 'JPY', 'EUR'),
    reason: fc.constantFrom('recall', 'price correction', 'never shipped'),
    rowRef: fc.constantFrom('', '', 'C-1', 'C-2', 'C-3'),
  })
  .map(({ id, byRef, amount, ccy, reason, rowRef }) => {
    const ref = id === '297553638300000005' && byRef ? 'SO-5' : '';
    const tno = ref ? '' : id;
    const a = typeof amount === 'string' ? amount : amountText(amount.m, ccy);
    return `${tno},${ref},${a},${ccy},${reason},${rowRef}`;
  });

const badRow = fc.oneof(
  fc.constantFrom(
    '297553638300000001,,1.005,USD,recall,',
    '297553638300000001,,99999999999999999999.99,USD,recall,',
    '297553638300000001,,-5.00,USD,recall,',
    '297553638300000001,,0,USD,recall,',
    '297553638300000001,,abc,USD,recall,',
    '297553638300000001,,,USD,recall,',
    '297553638300000001,,1.00,XYZ,recall,',
    '297553638300000001,,1.00,,recall,',
    '297553638300000001,,1.00,USD,,',
    ',,1.00,USD,recall,',
    '2.97554E+17,,1.00,USD,recall,',
    '12AB,,1.00,USD,recall,',
    '297553638300000003,,1.5,JPY,recall,',
  ),
  fc
    .array(
      fc.string({ maxLength: 5 }).map((s) => s.replace(/[",;\t\r\n]/g, '')),
      { minLength: 1, maxLength: 9 },
    )
    .map((cells) => cells.join(',')),
);

const fileLines = fc.array(
  fc.oneof(
    { weight: 6, arbitrary: goodRow },
    { weight: 3, arbitrary: badRow },
    { weight: 1, arbitrary: fc.constant('') },
  ),
  {
    minLength: 1,
    maxLength: 60,
  },
);

const paymentsFor = (keys: Iterable<string>) => {
  const m = new Map<string, PaymentAnswer>();
  for (const k of keys) {
    const p = PAYMENTS.find(
      (x) => `tx:${x.transactionNo}` === k || (x.reference && `ref:${x.reference}` === k),
    );
    if (p) m.set(k, { kind: 'found', transaction: p });
    else if (k === `tx:${FAILING}`) m.set(k, { kind: 'failed', message: 'timed out' });
    else m.set(k, { kind: 'not_found' });
  }
  return m;
};

describe('refund batch dry run, for any file', () => {
  it('classifies every data row exactly once; read + unusable = data rows; totals = Σ will-refund rows; nothing over-refunded', async () => {
    await fc.assert(
      fc.asyncProperty(fileLines, async (lines) => {
        const text = ['Transaction No,Reference,Amount,Currency,Reason,Row Ref', ...lines].join('\r\n');
        // What a person counts: the non-blank lines after the header (each record is one line here).
        const expectedDataRows = lines.filter((l) => l.split(',').some((c) => c.trim() !== '')).length;
        if (expectedDataRows === 0) return;
        const prepared = await readBatchFile(new TextEncoder().encode(text), 'batch.csv', {
          mapping: {
            transactionNo: 'Transaction No',
            reference: 'Reference',
            amount: 'Amount',
            currency: 'Currency',
            reason: 'Reason',
            rowRef: 'Row Ref',
          },
          decimal: '.',
        });
        const r = classifyBatch({
          account: ACCOUNT,
          rows: prepared.rows,
          unusable: prepared.unusable,
          payments: paymentsFor(prepared.rows.map(lookupKeyOf)),
          intents: INTENTS,
          digest,
        });
        expect(r.dataRows).toBe(expectedDataRows);
        expect(r.rowsRead + r.unusableRows).toBe(r.dataRows);
        expect(r.rows).toHaveLength(r.dataRows);
        // Exactly once: every line once, and the classes' counts add up to the rows.
        expect(new Set(r.rows.map((x) => x.line)).size).toBe(r.dataRows);
        expect(Object.values(r.counts).reduce((a, b) => a + b, 0)).toBe(r.dataRows);
        // Totals per currency are the will-refund rows' amounts, never mixing currencies.
        const sums = new Map<string, { amountMinor: number; rows: number }>();
        for (const x of r.rows.filter((y) => y.class === 'will_refund')) {
          expect(x.amountMinor).toBeGreaterThan(0);
          const s = sums.get(x.currency!) ?? { amountMinor: 0, rows: 0 };
          sums.set(x.currency!, { amountMinor: s.amountMinor + x.amountMinor!, rows: s.rows + 1 });
        }
        expect(
          new Map(r.totals.map((t) => [t.currency, { amountMinor: t.amountMinor, rows: t.rows }])),
        ).toEqual(sums);
        // No payment is offered more than remains of it, whatever the file repeats.
        for (const p of PAYMENTS) {
          const moving = r.rows
            .filter((x) => MOVING_CLASSES.has(x.class) && x.transactionNo === p.transactionNo)
            .reduce((a, x) => a + x.amountMinor!, 0);
          expect(moving).toBeLessThanOrEqual(
            Math.max(0, remainingFor(p, INTENTS.get(p.transactionNo) ?? [])),
          );
          if (p.status !== 'success') expect(moving).toBe(0);
        }
        // A row moves money only in its payment's currency.
        for (const x of r.rows.filter((y) => MOVING_CLASSES.has(y.class)))
          expect(x.currency).toBe(PAYMENTS.find((p) => p.transactionNo === x.transactionNo)!.currency);
      }),
      { numRuns: 300 },
    );
  });
});
