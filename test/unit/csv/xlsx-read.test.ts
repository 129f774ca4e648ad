/**
 * Workbook ledgers (shared/csv/xlsx-read.ts): what each cell says, written by exceljs as Excel stores
 * it, and read into the same records — and so the same rows, reasons and counts — as a CSV.
 */
import ExcelJS from 'exceljs';
import { zipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { excelNumberText, openWorkbook, WorkbookError, zipDirectory } from '../../../shared/csv/xlsx-read';
import { detectFormats, formatsFrom, toLedgerRows } from '../../../shared/recon/ledger';
import { guessMapping } from '../../../shared/recon/mapping';

type Value = ExcelJS.CellValue;

async function workbook(sheets: Record<string, Value[][]>, style?: (ws: ExcelJS.Worksheet) => void) {
  const wb = new ExcelJS.Workbook();
  for (const [name, rows] of Object.entries(sheets)) {
    const ws = wb.addWorksheet(name);
    for (const r of rows) ws.addRow(r);
    style?.(ws);
  }
  return new Uint8Array(await wb.xlsx.writeBuffer());
}

describe('a number cell as text: Excel’s 15 digits, never a float’s noise', () => {
  it.each([
    [12.3, '12.3'],
    [0.1 + 0.2, '0.3'],
    [13.530000000000001, '13.53'],
    [1e-7, '0.0000001'],
    [-0, '0'],
    [-1234.5, '-1234.5'],
    [999_999_999_999_999, '999999999999999'],
    [623_930_000_000_000_000, '6.2393E+17'],
    [Number('297553638300708562'), '2.97554E+17'],
    [2 ** 53 + 2, '9.0072E+15'],
    [1_234_567_890_123_456, '1.23457E+15'],
  ])('%d → %s', (n, text) => expect(excelNumberText(n)).toBe(text));
});

describe('openWorkbook: a sheet read as the CSV reader reads a file', () => {
  it('reads dates, numbers, text, rich text, formulas, links, booleans and errors as they show', async () => {
    const bytes = await workbook(
      {
        Ledger: [
          ['Date', 'Transaction No', 'Reference', 'Amount', 'Currency', 'Status'],
          [new Date(Date.UTC(2026, 10, 19)), Number('297553638300708562'), 'INV-1', 12.3, 'EUR', 'Paid'],
          [
            new Date(Date.UTC(2026, 10, 19, 14, 5)),
            '297553638300708563',
            { richText: [{ text: 'INV-' }, { text: '2' }] },
            '1.234,50',
            'EUR',
            true,
          ],
          [
            '19.11.2026',
            10023,
            { text: 'INV-3', hyperlink: 'https://example.com/3' },
            { formula: 'A1*2', result: 24.6 },
            'EUR',
            { error: '#N/A' },
          ],
        ],
      },
      (ws) => ws.getColumn(1).eachCell((c, row) => row > 1 && (c.numFmt = 'dd.mm.yyyy')),
    );
    const book = await openWorkbook(bytes);
    expect(book.sheets).toEqual(['Ledger']);
    const p = book.read();
    expect(p.headers).toEqual(['Date', 'Transaction No', 'Reference', 'Amount', 'Currency', 'Status']);
    expect(p.rows).toEqual([
      { line: 2, cells: ['2026-11-19', '2.97554E+17', 'INV-1', '12.3', 'EUR', 'Paid'], numbers: [1, 3] },
      { line: 3, cells: ['2026-11-19 14:05:00', '297553638300708563', 'INV-2', '1.234,50', 'EUR', 'TRUE'] },
      { line: 4, cells: ['19.11.2026', '10023', 'INV-3', '24.6', 'EUR', '#N/A'], numbers: [1, 3] },
    ]);
    expect([p.dataRows, p.problems, p.sheet]).toEqual([3, [], 'Ledger']);
  });

  it('number amounts are read as numbers beside decimal-comma text; not exact in the currency → refused', async () => {
    const bytes = await workbook({
      Sheet1: [
        ['Reference', 'Amount', 'Currency'],
        ['A', '12,30', 'EUR'],
        ['B', 1234.5, 'EUR'],
        ['C', 0.1 + 0.2, 'USD'],
        ['D', 12.345, 'USD'],
        ['E', '1.400', 'KRW'],
        ['F', 1400, 'KRW'],
      ],
    });
    const p = (await openWorkbook(bytes)).read();
    const mapping = guessMapping(p.headers);
    const evidence = detectFormats(p, mapping);
    // Only the text cells say how the file writes decimals: the comma, so "1.400" KRW is 1400.
    expect(evidence.decimal).toMatchObject({
      decimal: ',',
      comma: 1,
      dot: 0,
      ambiguous: 1,
      needsChoice: false,
    });
    const { rows, unusable } = toLedgerRows(p, mapping, formatsFrom(evidence));
    expect(rows.map((r) => [r.reference, r.amountMinor])).toEqual([
      ['A', 1230],
      ['B', 123450],
      ['C', 30],
      ['E', 1400],
      ['F', 1400],
    ]);
    expect(unusable).toEqual([
      expect.objectContaining({
        line: 5,
        cause: 'amount',
        reason: expect.stringContaining('USD allows at most 2 decimals'),
      }),
    ]);
  });

  it('ids Excel stored as numbers are named as shortened, the same reasons and counts as the CSV Excel saves', async () => {
    const ids = [623930000000000000, 623940000000000000, Number('297553638300708562')];
    const bytes = await workbook({
      Sheet1: [['Transaction No', 'Amount', 'Currency'], ...ids.map((id) => [id, 1, 'USD'])],
    });
    const fromXlsx = (await openWorkbook(bytes)).read();
    const fromCsv = parseCsvText(
      'Transaction No,Amount,Currency\n6.2393E+17,1,USD\n6.2394E+17,1,USD\n2.97554E+17,1,USD\n',
    );
    const read = (p: typeof fromCsv) => toLedgerRows(p, guessMapping(p.headers));
    const x = read(fromXlsx);
    expect(x.unusable).toEqual(read(fromCsv).unusable);
    expect(x.unusable.map((u) => u.cause)).toEqual(['scientific_id', 'scientific_id', 'scientific_id']);
    expect(x.unusable[0]?.reason).toContain('Transaction No “6.2393E+17” looks shortened by Excel');
  });

  it('several sheets: the one whose header looks like a ledger is preferred; any can be read by name', async () => {
    const bytes = await workbook({
      Cover: [['Month-end November']],
      Empty: [],
      Ledger: [[], ['Order ID', 'Amount', 'Currency'], ['A', 1, 'USD']],
    });
    const book = await openWorkbook(bytes);
    expect(book.sheets).toEqual(['Cover', 'Ledger']);
    expect(book.preferred).toBe('Ledger');
    // Blank rows before the header are skipped; lines are the sheet's row numbers.
    expect(book.read()).toMatchObject({ headerLine: 2, rows: [{ line: 3, cells: ['A', '1', 'USD'] }] });
    expect(book.read('Cover')).toMatchObject({ headers: ['Month-end November'], dataRows: 0 });
    expect(() => book.read('Empty')).toThrow(WorkbookError);
    expect(() => book.read('Empty')).toThrow('its sheets: “Cover”, “Ledger”');
  });

  it('a row with values past the header’s columns is a field-count problem, as in a CSV', async () => {
    const bytes = await workbook({
      S: [
        ['Order ID', 'Amount', 'Currency'],
        ['A', 1, 'USD', 'extra'],
        ['B', 2],
      ],
    });
    const p = (await openWorkbook(bytes)).read();
    expect(p.problems).toEqual([
      expect.objectContaining({ line: 2, cause: 'field_count', message: 'has 4 fields, the header has 3' }),
    ]);
    // A short row is a row whose last cells are empty (a workbook does not write them).
    expect(p.rows).toEqual([{ line: 3, cells: ['B', '2', ''], numbers: [1] }]);
  });

  it('refuses a zip that is no workbook, one that unpacks to more than a ledger can be, and an empty one', async () => {
    const notBook = zipSync({ 'hello.txt': new TextEncoder().encode('hi') });
    await expect(openWorkbook(notBook)).rejects.toThrow('not an Excel workbook (.xlsx) that can be read');
    // 700 MB of zeros claimed by a zip of under a megabyte: refused from its directory, never unpacked.
    const bomb = zipSync(
      {
        'xl/workbook.xml': new TextEncoder().encode('<workbook/>'),
        'xl/worksheets/sheet1.xml': new Uint8Array(700 * 1024 * 1024),
      },
      { level: 9 },
    );
    expect(bomb.length).toBeLessThan(1024 * 1024);
    expect(zipDirectory(bomb)?.unpacked).toBe(700 * 1024 * 1024 + 11);
    await expect(openWorkbook(bomb)).rejects.toThrow(/unpacks to 700 MB/);
    await expect(openWorkbook(await workbook({ Sheet1: [] }))).rejects.toThrow('The workbook is empty');
    await expect(openWorkbook(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).rejects.toThrow(
      'cannot be opened as one',
    );
  });
});
