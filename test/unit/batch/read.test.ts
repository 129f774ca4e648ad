import ExcelJS from 'exceljs';
import { describe, expect, it } from 'vitest';
import { BATCH_MAX_ROWS } from '../../../shared/batch/limits';
import { guessBatchMapping } from '../../../shared/batch/mapping';
import { BatchInputError, readBatchFile } from '../../../shared/batch/read';

const csv = (lines: string[]) => new TextEncoder().encode(lines.join('\r\n'));

async function workbook(sheets: Record<string, unknown[][]>): Promise<Uint8Array> {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('reading a refund batch file', () => {
  it('reads a CSV with the ledger reader: amounts in minor units, `full`, and every unusable row with its line and reason', async () => {
    const b = await readBatchFile(
      csv([
        'Transaction No,Order No,Refund amount,Currency,Reason,Claim ID',
        '297553638300000001,,12.30,usd,recall,C-1',
        ',SO-5,full,USD,price correction,',
        '297553638300000002,,1.005,USD,recall,',
        '297553638300000002,,12.30,XYZ,recall,',
        '5.39117E+17,,1.00,USD,recall,',
        '297553638300000003,,0.00,USD,recall,',
        '',
        '297553638300000004,,1.00,USD,,',
        '297553638300000005,,1.00,USD,recall',
      ]),
      'list.csv',
    );
    expect(b.mapping).toEqual({
      transactionNo: 'Transaction No',
      reference: 'Order No',
      amount: 'Refund amount',
      currency: 'Currency',
      reason: 'Reason',
      rowRef: 'Claim ID',
    });
    expect(b.rows).toEqual([
      {
        line: 2,
        transactionNo: '297553638300000001',
        amount: { minor: 1230 },
        currency: 'USD',
        reason: 'recall',
        rowRef: 'C-1',
      },
      { line: 3, reference: 'SO-5', amount: 'full', currency: 'USD', reason: 'price correction' },
    ]);
    expect(b.unusable.map((u) => [u.line, u.reason])).toEqual([
      [4, expect.stringMatching(/^amount: .*at most 2 decimals, or the word “full”/)],
      [5, 'currency XYZ is not one the payment service handles'],
      [6, expect.stringMatching(/scientific notation/)],
      [7, expect.stringMatching(/not greater than zero/)],
      [9, expect.stringMatching(/has no reason/)],
      [10, 'has 5 fields, the header has 6'],
    ]);
    expect(b.rows.length + b.unusable.length).toBe(b.dataRows);
    expect(b.file).toMatchObject({ format: 'csv', dataRows: 8, decimal: '.' });
  });

  it('reads a decimal-comma file when its values say so, and asks when nothing decides', async () => {
    const comma = await readBatchFile(
      csv([
        'Transaction No;Amount;Currency;Reason',
        '297553638300000001;12,30;EUR;x',
        '297553638300000002;full;EUR;y',
      ]),
      'eu.csv',
    );
    expect(comma.rows[0]!.amount).toEqual({ minor: 1230 });
    await expect(
      readBatchFile(
        csv(['Transaction No,Amount,Currency,Reason', '297553638300000001,"1,400",KRW,x']),
        'k.csv',
      ),
    ).rejects.toThrow(/choose the decimal separator/);
  });

  it('reads a workbook, choosing the sheet whose header is a batch; another sheet can be named', async () => {
    const bytes = await workbook({
      Notes: [['Prepared by finance'], ['see sheet 2']],
      Refunds: [
        ['Transaction No', 'Amount', 'Currency', 'Reason', 'Row ref'],
        ['297553638300000001', 12.5, 'USD', 'recall', 'A1'],
        ['297553638300000002', 12.345, 'USD', 'recall', 'A2'],
        ['297553638300000003', 'full', 'JPY', 'never shipped'],
        [297553638300000000, 1, 'USD', 'recall'],
      ],
    });
    const b = await readBatchFile(bytes, 'list.xlsx');
    expect(b.file).toMatchObject({ format: 'xlsx', sheet: 'Refunds', sheets: ['Notes', 'Refunds'] });
    expect(b.rows.map((r) => [r.line, r.transactionNo, r.amount, r.rowRef])).toEqual([
      [2, '297553638300000001', { minor: 1250 }, 'A1'],
      [4, '297553638300000003', 'full', undefined],
    ]);
    // 12.345 USD is refused, never rounded; an id Excel kept as a number lost its last digits.
    expect(b.unusable.map((u) => u.line)).toEqual([3, 5]);
    expect(b.unusable[1]!.reason).toMatch(/scientific notation/);
    await expect(readBatchFile(bytes, 'list.xlsx', { sheet: 'Notes' })).rejects.toThrow(
      /could not be mapped/,
    );
    await expect(readBatchFile(bytes, 'list.xlsx', { sheet: 'Nope' })).rejects.toThrow(
      /no sheet “Nope”.*“Notes”, “Refunds”/,
    );
  });

  it('chooses the sheet whose header is a batch even when it is not a ledger’s (“Refund amount”)', async () => {
    // A ledger reads "Refund amount" as what was refunded already, so the ledger's guess finds no
    // amount here: the sheet must be chosen by the batch's own mapping, not the ledger's.
    const bytes = await workbook({
      'Read me': [['Claims approved by customer service, week 47']],
      Claims: [
        ['Transaction No', 'Refund amount', 'Currency', 'Reason', 'Claim ID'],
        ['297553638300000001', '1.00', 'USD', 'recall', 'CLM-1'],
      ],
    });
    const b = await readBatchFile(bytes, 'claims.xlsx');
    expect(b.file).toMatchObject({ sheet: 'Claims', sheets: ['Read me', 'Claims'], dataRows: 1 });
    expect(b.mapping).toMatchObject({ amount: 'Refund amount', rowRef: 'Claim ID' });
  });

  it('reads a workbook number cell as the number it is, whatever separator the text cells use', async () => {
    const bytes = await workbook({
      Refunds: [
        ['Transaction No', 'Amount', 'Currency', 'Reason'],
        ['297553638300000001', '12,50', 'EUR', 'recall'],
        ['297553638300000002', 7.5, 'EUR', 'recall'],
      ],
    });
    const b = await readBatchFile(bytes, 'eu.xlsx');
    expect(b.file.decimal).toBe(',');
    expect(b.rows.map((r) => r.amount)).toEqual([{ minor: 1250 }, { minor: 750 }]);
  });

  it('refuses, with what to do, files that cannot be a batch', async () => {
    const cases: Array<[Uint8Array, RegExp]> = [
      [new Uint8Array([0x25, 0x50, 0x44, 0x46, 0x2d, 0x31]), /PDF/],
      [csv(['']), /no header row/],
      [csv(['Transaction No,Amount,Currency,Reason']), /no data rows/],
      [csv(['Transaction No,Amount,Reason', '1,1.00,x']), /currency column/],
      [new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]), /zip archive but cannot be opened/],
      [
        csv([
          'Transaction No,Amount,Currency,Reason',
          ...Array.from({ length: BATCH_MAX_ROWS + 1 }, () => '1,1.00,USD,x'),
        ]),
        /at most 50,000/,
      ],
    ];
    for (const [bytes, message] of cases) {
      const e = await readBatchFile(bytes, 'x').catch((x: unknown) => x);
      expect(e).toBeInstanceOf(BatchInputError);
      expect((e as Error).message).toMatch(message);
    }
  });

  it('guesses the batch’s own columns before the ledger’s', () => {
    expect(guessBatchMapping(['Payment ID', 'Refund Amount', 'CCY', 'Comment', 'Ticket'])).toEqual({
      transactionNo: 'Payment ID',
      amount: 'Refund Amount',
      currency: 'CCY',
      reason: 'Comment',
      rowRef: 'Ticket',
    });
  });
});
