import { describe, expect, it } from 'vitest';
import type { CsvColumn } from '../../../shared/csv/writer';
import { writeXlsx } from '../../../shared/csv/xlsx';
import { readXlsx, serialToIso } from '../../fakes/xlsx-reader';

interface Row {
  id: string;
  amount: string;
  at: string;
  note: string;
}
const columns: CsvColumn<Row>[] = [
  { header: 'Transaction no.', kind: 'id', value: (r) => r.id },
  { header: 'Amount', kind: 'amount', value: (r) => r.amount },
  { header: 'Created', kind: 'timestamp', value: (r) => r.at },
  { header: 'Note', kind: 'text', value: (r) => r.note },
];

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
