import { describe, expect, it } from 'vitest';
import type { CsvColumn } from '../../../shared/csv/writer';
import { writeXlsx } from '../../../shared/csv/xlsx';
import { readXlsx, serialToIso } from '../../fakes/xlsx-reader';
import { EXPORT_ROW_COLUMNS } from '../../fakes/export-rows';

const columns = EXPORT_ROW_COLUMNS;

describe('XLSX writer', () => {
  it('writes ids as text, amounts as numbers with their decimals, real dates in the zone, frozen filtered header', async () => {
    const bytes = await writeXlsx(
      columns,
      [
        { id: '297553638300708562', amount: '12.30', at: '2025-03-01T06:05:06.000Z', note: '=1+1' },
        { id: '29755363830070856212', amount: '6798000', at: '2025-03-01T16:30:00.000Z', note: '' },
      ],
      { sheetName: 'Transactions', zone: { iana: 'Etc/GMT-8', label: 'UTC+8' } },
    );
    const x = readXlsx(bytes);
    expect(x.cell('C1')?.value).toBe('Created (UTC+8)');
    expect(x.cell('A2')).toMatchObject({ type: 's', value: '297553638300708562', numFmt: '@' });
    expect(x.cell('A3')).toMatchObject({ type: 's', value: '29755363830070856212' });
    expect(x.cell('B2')).toMatchObject({ type: 'n', value: '12.3', numFmt: '#,##0.00' });
    expect(x.cell('B3')).toMatchObject({ type: 'n', value: '6798000', numFmt: '#,##0' });
    expect(x.cell('C2')?.type).toBe('n');
    expect(x.cell('C2')?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
    expect(serialToIso(Number(x.cell('C2')?.value))).toBe('2025-03-01T14:05:06');
    // Past midnight in UTC+8: the date moves to the next day, as the zone's calendar says.
    expect(serialToIso(Number(x.cell('C3')?.value))).toBe('2025-03-02T00:30:00');
    expect(x.cell('D2')).toMatchObject({ type: 's', value: '=1+1' });
    expect(x.pane).toContain('ySplit="1"');
    expect(x.pane).toContain('state="frozen"');
    expect(x.autoFilter).toContain('ref="A1:D1"');
  });
});

describe('XLSX writer, read back with exceljs', () => {
  interface Mixed {
    id: string | null;
    amount: string | null;
    at: string | null;
    note: string | null;
    count: number | null;
  }
  const mixedColumns: CsvColumn<Mixed>[] = [
    { header: 'Transaction no.', kind: 'id', value: (r) => r.id },
    { header: 'Amount', kind: 'amount', value: (r) => r.amount },
    { header: 'Created', kind: 'timestamp', value: (r) => r.at },
    { header: 'Note', kind: 'text', value: (r) => r.note },
    { header: 'Lines', kind: 'integer', value: (r) => r.count },
  ];

  it('keeps each cell its own type and format when currencies, blanks and odd values mix in a column', async () => {
    const bytes = await writeXlsx(
      mixedColumns,
      [
        { id: '297553638300708562', amount: '12.30', at: '2025-03-01T06:05:06Z', note: '+1', count: 3 },
        { id: 'INV-7', amount: '6798000', at: 'not a time', note: 'a,"b"', count: null },
        { id: null, amount: '-0.05', at: null, note: null, count: 12 },
        { id: '000123', amount: 'n/a', at: '2025-07-01T00:00:00Z', note: '', count: null },
        { id: '1', amount: '1.234', at: '', note: 'x', count: null },
      ],
      { sheetName: 'Mixed', dateFormat: 'dd/mm/yyyy hh:mm' },
    );
    const Excel = (await import('exceljs')).default;
    const wb = new Excel.Workbook();
    await wb.xlsx.load(bytes.slice().buffer);
    const ws = wb.getWorksheet('Mixed')!;
    const at = (ref: string) => ws.getCell(ref);

    expect(ws.getRow(1).values).toEqual([
      undefined,
      'Transaction no.',
      'Amount',
      'Created (UTC)',
      'Note',
      'Lines',
    ]);
    for (let c = 1; c <= 5; c += 1) expect(ws.getRow(1).getCell(c).font?.bold, `header ${c}`).toBe(true);
    expect(ws.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(ws.autoFilter).toBe('A1:E1');

    // Ids: text, Text-formatted, leading zeros kept.
    expect(at('A2').value).toBe('297553638300708562');
    expect(at('A2').numFmt).toBe('@');
    expect(at('A3').value).toBe('INV-7');
    expect(at('A5').value).toBe('000123');
    expect(at('A5').numFmt).toBe('@');
    expect(at('A4').value).toBeNull();
    // Amounts: numbers formatted with as many decimals as their currency writes; other text stays text.
    expect(at('B2')).toMatchObject({ value: 12.3, numFmt: '#,##0.00' });
    expect(at('B3')).toMatchObject({ value: 6798000, numFmt: '#,##0' });
    expect(at('B4')).toMatchObject({ value: -0.05, numFmt: '#,##0.00' });
    expect(at('B5').value).toBe('n/a');
    expect(at('B6')).toMatchObject({ value: 1.234, numFmt: '#,##0.000' });
    // Times: real dates in the requested format; what is not a time stays text.
    expect(at('C2').value).toEqual(new Date('2025-03-01T06:05:06Z'));
    expect(at('C2').numFmt).toBe('dd/mm/yyyy hh:mm');
    expect(at('C3').value).toBe('not a time');
    expect(at('C5').value).toEqual(new Date('2025-07-01T00:00:00Z'));
    expect(at('C4').value).toBeNull();
    // Text is a string, never a formula; integers are numbers.
    expect(at('D2').value).toBe('+1');
    expect(at('D3').value).toBe('a,"b"');
    expect(at('D5').value).toBeNull();
    expect(at('E2').value).toBe(3);
    expect(at('E4').value).toBe(12);
    expect(at('E2').numFmt).toBeUndefined();
  });
});
