import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import { AUDIT_EXPORT_COLUMNS } from '../../../shared/csv/exports/refunds';
import type { CsvColumn } from '../../../shared/csv/writer';
import { writeXlsx, XLSX_CELL_MAX } from '../../../shared/csv/xlsx';
import type { AuditEntryView } from '../../../shared/ipc/contract/refunds';
import { exportWork, type ExportReply } from '../../../renderer/src/lib/export-work';
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

describe('XLSX writer: text no XML file may hold, and text longer than a cell', () => {
  /** Every character XML 1.0 allows (its Char production); anything else makes the sheet unreadable. */
  const XML_CHARS = /^[\t\n\r\u0020-\uD7FF\uE000-\uFFFD\u{10000}-\u{10FFFF}]*$/u;

  /** Each XML part of the workbook, decoded strictly as UTF-8 (a malformed byte sequence throws). */
  function xmlParts(bytes: Uint8Array): Record<string, string> {
    const strict = new TextDecoder('utf-8', { fatal: true });
    return Object.fromEntries(
      Object.entries(unzipSync(bytes))
        .filter(([name]) => name.endsWith('.xml') || name.endsWith('.rels'))
        .map(([name, data]) => [name, strict.decode(data)]),
    );
  }

  async function load(bytes: Uint8Array) {
    const Excel = (await import('exceljs')).default;
    const wb = new Excel.Workbook();
    await wb.xlsx.load(bytes.slice().buffer);
    return wb;
  }

  const audit = (reasonNote: string, operator = 'ann'): AuditEntryView => ({
    at: '2025-03-01T06:05:06.000Z',
    operator,
    profileId: 'P1',
    profileName: 'Main store',
    environment: 'demo',
    intentId: 'RD0000000001',
    transactionNo: '297553638300708562',
    amountMinor: 400,
    currency: 'USD',
    reasonCode: 'other',
    reasonNote,
    outcome: 'accepted',
  });

  it('an Audit workbook with a note holding U+FFFF, U+FFFE, lone surrogates or controls opens, the rest of the note kept', async () => {
    const notes = [
      'customer \uffff asked',
      'twice\ufffe over',
      'lone \ud800 high',
      'lone \udc00 low',
      'bell\u0007 and \u001b escape',
      // What XML allows stays as it is: astral characters, the edges of each allowed range.
      'ok 😀 \ud7ff \ue000 \ufffd tab\tline\nend',
    ];
    const bytes = await writeXlsx(
      AUDIT_EXPORT_COLUMNS,
      notes.map((n) => audit(n, `op\uffff${n.length}`)),
      { sheetName: 'Audit log' },
    );
    for (const [name, xml] of Object.entries(xmlParts(bytes)))
      expect(XML_CHARS.test(xml), `${name} holds only XML characters`).toBe(true);

    const ws = (await load(bytes)).getWorksheet('Audit log')!;
    const noteCol = AUDIT_EXPORT_COLUMNS.findIndex((c) => c.header === 'Note') + 1;
    const opCol = AUDIT_EXPORT_COLUMNS.findIndex((c) => c.header === 'Operator') + 1;
    expect(notes.map((_, i) => ws.getRow(i + 2).getCell(noteCol).value)).toEqual([
      'customer  asked',
      'twice over',
      'lone  high',
      'lone  low',
      'bell and  escape',
      'ok 😀 \ud7ff \ue000 \ufffd tab\tline\nend',
    ]);
    expect(ws.getRow(2).getCell(opCol).value).toBe(`op${notes[0]!.length}`);
  });

  it('the export worker (every screen’s Excel export, the reconciliation report included) writes such a workbook readable', async () => {
    const replies: ExportReply[] = [];
    const work = exportWork((reply) => replies.push(reply));
    await work({
      type: 'start',
      kind: 'xlsx',
      columns: [
        { header: 'Outcome', kind: 'text' },
        { header: 'Note\uffff', kind: 'text' },
      ],
      total: 1,
      csv: {},
      xlsx: { sheetName: 'Report' },
    });
    await work({ type: 'rows', count: 1, columns: [['matched'], ['customer \uffff asked \ud83d']] });
    await work({ type: 'end' });
    const done = replies.find((r) => r.type === 'done');
    expect(done, JSON.stringify(replies)).toBeDefined();
    const bytes = new Uint8Array(await (done as Extract<ExportReply, { type: 'done' }>).file.arrayBuffer());
    for (const xml of Object.values(xmlParts(bytes))) expect(XML_CHARS.test(xml)).toBe(true);
    const ws = (await load(bytes)).getWorksheet('Report')!;
    expect(ws.getRow(1).values).toEqual([undefined, 'Outcome', 'Note']);
    expect(ws.getCell('B2').value).toBe('customer  asked ');
  });

  it('a cell longer than Excel holds is cut to 32,767 characters with a marker saying how much is missing', async () => {
    const long = 'a'.repeat(40_000);
    // A character of two UTF-16 units straddling the cut is not split into a lone half.
    const astral = `${'b'.repeat(32_711)}${'😀'.repeat(40)}`;
    const exact = 'c'.repeat(XLSX_CELL_MAX);
    const bytes = await writeXlsx(
      EXPORT_ROW_COLUMNS,
      [long, astral, exact, `\uffff${exact}`].map((note) => ({
        id: '1',
        amount: '1.00',
        at: '2025-03-01T00:00:00Z',
        note,
      })),
      { sheetName: 'Long' },
    );
    for (const xml of Object.values(xmlParts(bytes))) expect(XML_CHARS.test(xml)).toBe(true);
    const ws = (await load(bytes)).getWorksheet('Long')!;
    const cut = String(ws.getCell('D2').value);
    expect(cut.length).toBeLessThanOrEqual(XLSX_CELL_MAX);
    const kept = cut.indexOf('…');
    expect(cut.slice(kept)).toBe(`… [truncated: ${(40_000 - kept).toLocaleString('en-US')} more characters]`);
    expect(cut.slice(0, kept)).toBe('a'.repeat(kept));
    expect(kept).toBeGreaterThan(32_700);

    const cut2 = String(ws.getCell('D3').value);
    expect(cut2.length).toBeLessThanOrEqual(XLSX_CELL_MAX);
    expect(cut2).toMatch(/^b{32711}(😀)+… \[truncated: \d+ more characters\]$/u);
    // Exactly at the limit: kept whole; over it only by a character XML forbids: kept whole too.
    expect(ws.getCell('D4').value).toBe(exact);
    expect(ws.getCell('D5').value).toBe(exact);
  });
});
