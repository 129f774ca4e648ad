import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { writeXlsx } from '../../../shared/csv/xlsx';
import { BATCH_REPORT_COLUMNS, batchReportCsv, type BatchReportRow } from '../../../shared/batch/report';
import { readXlsx } from '../../fakes/xlsx-reader';

const rows: BatchReportRow[] = [
  {
    line: 2,
    class: 'will_refund',
    transactionNo: '297553638300708562',
    reference: 'SO-1',
    rowRef: 'C-1',
    reason: '=HYPERLINK("x")',
    currency: 'USD',
    full: true,
    amountMinor: 1234,
    remainingMinor: 1234,
    paymentCurrency: 'USD',
    paymentStatus: 'success',
    key: 'ab'.repeat(32),
  },
  {
    line: 3,
    class: 'exceeds_remaining',
    transactionNo: '297553638300708563',
    reason: 'recall',
    currency: 'JPY',
    requestedMinor: 1500,
    remainingMinor: 1000,
    paymentCurrency: 'JPY',
    message: '1500 JPY is more than the 1000 JPY that remains',
    key: 'cd'.repeat(32),
  },
  { line: 4, class: 'unusable', message: 'has no currency', raw: '297553638300708564,1.00,,recall' },
];

describe('refund batch report', () => {
  it('CSV: every row with its class, amounts in the currency’s decimals, `full`, remaining, key; execution columns empty', () => {
    const back = parseCsvText(batchReportCsv(rows));
    const col = (h: string) => back.headers.indexOf(h);
    expect(back.rows).toHaveLength(3);
    const [a, b, c] = back.rows.map((r) => r.cells);
    expect(a![col('Class')]).toBe('Will refund');
    expect(a![col('Transaction no.')]).toBe('297553638300708562');
    expect(a![col('Requested')]).toBe('full');
    expect(a![col('Amount to refund')]).toBe('12.34');
    expect(a![col('Row key')]).toBe('ab'.repeat(32));
    // The reason reads back as written (the writer's formula guard is undone by our reader).
    expect(a![col('Reason')]).toBe('=HYPERLINK("x")');
    expect(a![col('Outcome')]).toBe('');
    expect(a![col('Refund transaction no.')]).toBe('');
    expect(b![col('Requested')]).toBe('1500');
    expect(b![col('Remaining before this row')]).toBe('1000');
    expect(b![col('Why')]).toMatch(/more than/);
    expect(c![col('Class code')]).toBe('unusable');
    expect(c![col('Row as read')]).toBe('297553638300708564,1.00,,recall');
  });

  it('Excel: ids are text cells, amounts numbers', async () => {
    const book = readXlsx(await writeXlsx(BATCH_REPORT_COLUMNS, rows, { sheetName: 'Refund batch' }));
    const id = book.cells.find((c) => c.value === '297553638300708562');
    expect(id?.type).not.toBe('n');
    const amount = book.cells.find((c) => c.value === '12.34');
    expect(amount?.type).toBe('n');
  });
});
