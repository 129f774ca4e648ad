import { describe, expect, it } from 'vitest';
import fc from 'fast-check';
import {
  decodeCsvBytes,
  NotTextError,
  parseCsvBytes,
  parseCsvText,
  splitPlain,
  splitQuoted,
} from '../../../shared/csv/parser';
import { type CsvColumn, writeCsv } from '../../../shared/csv/writer';
import { columnMappingSchema } from '../../../shared/recon/mapping';

const utf8 = (s: string) => new TextEncoder().encode(s);
function utf16(s: string, le: boolean, bom: boolean): Uint8Array {
  const body = s.length * 2;
  const out = new Uint8Array(body + (bom ? 2 : 0));
  let o = 0;
  if (bom) {
    out[0] = le ? 0xff : 0xfe;
    out[1] = le ? 0xfe : 0xff;
    o = 2;
  }
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    out[o + 2 * i] = le ? c & 0xff : c >> 8;
    out[o + 2 * i + 1] = le ? c >> 8 : c & 0xff;
  }
  return out;
}

describe('decodeCsvBytes', () => {
  it('strips a UTF-8 BOM and reports it', () => {
    const d = decodeCsvBytes(utf8('\uFEFFa,b\n1,2'));
    expect(d).toEqual({ text: 'a,b\n1,2', encoding: 'utf-8', hadBom: true });
  });
  it('reads UTF-16 LE and BE with a BOM', () => {
    expect(decodeCsvBytes(utf16('id,name\n1,Zoë', true, true))).toMatchObject({
      text: 'id,name\n1,Zoë',
      encoding: 'utf-16le',
    });
    expect(decodeCsvBytes(utf16('id,name\n1,Zoë', false, true))).toMatchObject({
      text: 'id,name\n1,Zoë',
      encoding: 'utf-16be',
    });
  });
  it('recognises UTF-16 LE without a BOM by its NUL bytes', () => {
    expect(decodeCsvBytes(utf16('transactionNo,amount\n1,2', true, false))).toMatchObject({
      encoding: 'utf-16le',
      hadBom: false,
    });
  });
  it('falls back to Windows-1252 for bytes that are not UTF-8', () => {
    // "Café €5" as Windows-1252: é = 0xE9, € = 0x80
    const bytes = new Uint8Array([0x43, 0x61, 0x66, 0xe9, 0x20, 0x80, 0x35]);
    expect(decodeCsvBytes(bytes)).toEqual({ text: 'Café €5', encoding: 'windows-1252', hadBom: false });
  });
  it('keeps plain UTF-8 as UTF-8', () => {
    expect(decodeCsvBytes(utf8('Zoë,€'))).toMatchObject({ text: 'Zoë,€', encoding: 'utf-8', hadBom: false });
  });
});

describe('parseCsvText', () => {
  it('handles quoted newlines (read as LF) and gives every record its first line number', () => {
    const p = parseCsvText('id,note\r\n1,"two\r\nlines"\r\n2,"three\nlines\nhere"\r\n3,x\r\n');
    expect(p.headers).toEqual(['id', 'note']);
    expect(p.rows).toEqual([
      { line: 2, cells: ['1', 'two\nlines'] },
      { line: 4, cells: ['2', 'three\nlines\nhere'] },
      { line: 7, cells: ['3', 'x'] },
    ]);
    expect(p.problems).toEqual([]);
  });
  it('detects semicolons and tabs', () => {
    expect(parseCsvText('a;b\n1;"x;y"\n')).toMatchObject({ delimiter: ';', rows: [{ cells: ['1', 'x;y'] }] });
    expect(parseCsvText('a\tb\n1\t2,5\n')).toMatchObject({
      delimiter: '\t',
      rows: [{ cells: ['1', '2,5'] }],
    });
  });
  it('skips blank lines (including separator-only lines) but keeps counting them', () => {
    const p = parseCsvText('\n\na,b\n\n1,2\n,\n , \n   \n3,4\n\n');
    expect(p.headerLine).toBe(3);
    expect(p.rows.map((r) => r.line)).toEqual([5, 9]);
    expect(p.problems).toEqual([]);
  });
  it('keeps 20-digit numbers exactly as text', () => {
    const p = parseCsvText('transactionNo,amount\n29755363830070856212,1.10\n');
    expect(p.rows[0]?.cells[0]).toBe('29755363830070856212');
  });
  it('unwraps our own ="…" ids and undoes the formula guard', () => {
    const p = parseCsvText('id,note\n="297553638300708562","\'=SUM(A1)"\n');
    expect(p.rows[0]?.cells).toEqual(['297553638300708562', '=SUM(A1)']);
    expect(parseCsvText('id\n="297553638300708562"\n', { unwrap: false }).rows[0]?.cells).toEqual([
      '="297553638300708562"',
    ]);
  });
  it('lists bad rows with their line numbers and keeps the good ones', () => {
    const p = parseCsvText('a,b\n1,2\n3\n4,5,6\n7,8\n');
    expect(p.rows.map((r) => r.cells)).toEqual([
      ['1', '2'],
      ['7', '8'],
    ]);
    expect(p.problems).toEqual([
      { line: 3, message: 'has 1 field, the header has 2', cause: 'field_count', cells: ['3'] },
      { line: 4, message: 'has 3 fields, the header has 2', cause: 'field_count', cells: ['4', '5', '6'] },
    ]);
    expect(p.dataRows).toBe(4);
  });
  it('reports broken quoting without losing earlier rows', () => {
    const p = parseCsvText('a,b\n1,2\n3,"unterminated\n');
    expect(p.rows).toEqual([{ line: 2, cells: ['1', '2'] }]);
    expect(p.problems[0]?.line).toBe(3);
  });
  it('ignores a leading BOM in text and counts CR-only line ends', () => {
    const p = parseCsvText('\uFEFFa,b\r1,2\r3,4');
    expect(p.headers).toEqual(['a', 'b']);
    expect(p.rows.map((r) => r.line)).toEqual([2, 3]);
  });
  it('parses UTF-16 and Windows-1252 files end to end', () => {
    expect(parseCsvBytes(utf16('a;b\r\n1;Zoë\r\n', true, true)).rows[0]?.cells).toEqual(['1', 'Zoë']);
    const cp1252 = new Uint8Array([...utf8('name,amount\n'), 0x43, 0x61, 0x66, 0xe9, ...utf8(',1.00\n')]);
    const p = parseCsvBytes(cp1252);
    expect(p.encoding).toBe('windows-1252');
    expect(p.rows[0]?.cells).toEqual(['Café', '1.00']);
  });
  it('an empty file has no headers and no rows', () => {
    expect(parseCsvText('')).toMatchObject({ headers: [], rows: [], problems: [], dataRows: 0 });
  });
  it('a header name with a character stored text refuses is escaped visibly, so a mapping to it can be stored', () => {
    const p = parseCsvText('Txn\u200bNo,Amount\u202e,Ccy\n297553638300708562,1.00,USD\n');
    expect(p.headers).toEqual(['Txn⟨U+200B⟩No', 'Amount⟨U+202E⟩', 'Ccy']);
    const mapping = { transactionNo: p.headers[0], amount: p.headers[1], currency: p.headers[2] };
    expect(columnMappingSchema.safeParse(mapping).success).toBe(true);
    expect(columnMappingSchema.safeParse({ ...mapping, amount: 'Amount\u202e' }).success).toBe(false);
  });
});

describe('every row counted, causes named (rows never vanish uncounted)', () => {
  it('lists every unusable row: no cap on problems', () => {
    const lines = ['id,amount,currency'];
    for (let i = 0; i < 6180; i += 1) lines.push(`${i},1,234.56,USD`);
    for (let i = 0; i < 3000; i += 1) lines.push(`${i},1.00,USD`);
    const p = parseCsvText(lines.join('\n'));
    expect(p.problems).toHaveLength(6180);
    expect(p.rows).toHaveLength(3000);
    expect(p.dataRows).toBe(9180);
  });
  it('names an unquoted thousands separator as the likely cause of an extra field', () => {
    const p = parseCsvText('id,amount,currency\n1,"1,234.56",USD\n2,1,234.56,USD\n3,-12,345,KRW\n');
    expect(p.rows).toHaveLength(1);
    expect(p.problems.map((x) => [x.line, x.cause])).toEqual([
      [3, 'thousands_separator'],
      [4, 'thousands_separator'],
    ]);
    expect(p.problems[0]?.message).toMatch(/thousands separator and no quotes/);
    expect(p.problems[0]?.cells).toEqual(['2', '1', '234.56', 'USD']);
  });
  it('names a decimal comma in a comma-separated file', () => {
    const p = parseCsvText('id,amount,currency\n1,12,30,EUR\n');
    expect(p.problems[0]).toMatchObject({ line: 2, cause: 'decimal_comma' });
  });
  it('mixed line endings neither merge rows nor shift line numbers', () => {
    const p = parseCsvText('id,amount\r\n1,1.00\n2,2.00\r3,3.00\r\n\n4,"a\r\nb"\n5,5.00');
    expect(p.rows.map((r) => [r.line, r.cells[0]])).toEqual([
      [2, '1'],
      [3, '2'],
      [4, '3'],
      [6, '4'],
      [8, '5'],
    ]);
    expect(p.problems).toEqual([]);
  });
  it('refuses a file that is not text, naming workbooks and PDFs', () => {
    expect(() => parseCsvBytes(new Uint8Array([0x50, 0x4b, 0x03, 0x04, 1, 2, 3]))).toThrow(
      /Excel workbook \(\.xlsx\)/,
    );
    expect(() => parseCsvBytes(utf8('%PDF-1.7\n...'))).toThrow(NotTextError);
    // Random bytes (deterministic): not UTF-8, decoded as Windows-1252, full of control characters.
    let x = 7;
    const random = Uint8Array.from(
      { length: 4096 },
      () => (x = (x * 1103515245 + 12345) & 0x7fffffff) & 0xff,
    );
    expect(() => parseCsvBytes(random)).toThrow(/not a text \(CSV\) file/);
  });
  it('a header with no rows parses to zero data rows', () => {
    expect(parseCsvBytes(utf8('id,amount,currency\r\n\r\n'))).toMatchObject({
      headers: ['id', 'amount', 'currency'],
      dataRows: 0,
    });
  });
});

describe('writer → parser round trip', () => {
  interface Row {
    id: string;
    text: string;
    amount: string;
  }
  const columns: CsvColumn<Row>[] = [
    { header: 'id', kind: 'id', value: (r) => r.id },
    { header: 'text', kind: 'text', value: (r) => r.text },
    { header: 'amount', kind: 'amount', value: (r) => r.amount },
  ];

  it('returns exactly what was written, including injection attempts', () => {
    const rows: Row[] = [
      { id: '297553638300708562', text: '=HYPERLINK("http://x","y")', amount: '-12.30' },
      { id: '00012', text: '+cmd|/C calc', amount: '0.00' },
      { id: 'INV-1', text: '@SUM(1)', amount: '1.05' },
      { id: '12345678901234567890', text: "'=already guarded", amount: '7' },
      { id: '1', text: 'line\nbreak, "quoted"', amount: '-0.01' },
      { id: '2', text: '\tTAB', amount: '3' },
    ];
    for (const idStyle of ['excel', 'plain'] as const) {
      const csv = writeCsv(columns, rows, { idStyle });
      const p = parseCsvBytes(new TextEncoder().encode(csv));
      expect(p.problems).toEqual([]);
      expect(p.rows.map((r) => r.cells)).toEqual(rows.map((r) => [r.id, r.text, r.amount]));
    }
  });

  it('round-trips arbitrary text (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.stringMatching(/^[0-9]{1,22}$/),
            text: fc.string({ maxLength: 30 }),
            amount: fc.stringMatching(/^-?[0-9]{1,6}\.[0-9]{2}$/),
          }),
          { minLength: 1, maxLength: 20 },
        ),
        (rows) => {
          // A row of only blanks is (by design) skipped by the reader, so give every row a non-blank id.
          const p = parseCsvText(writeCsv(columns, rows), { delimiter: ',' });
          expect(p.rows.map((r) => r.cells)).toEqual(rows.map((r) => [r.id, r.text, r.amount]));
        },
      ),
      { numRuns: 200 },
    );
  });
});

describe('a file without quotes is read line by line, as papaparse reads it', () => {
  type Rec = [line: number, cells: string[], quoteError?: string];
  const records = (read: typeof splitPlain, text: string, delimiter: ',' | ';' | '\t' = ',') => {
    const out: Rec[] = [];
    read(text, delimiter, (line, cells, quoteError) =>
      out.push(quoteError === undefined ? [line, cells] : [line, cells, quoteError]),
    );
    return out;
  };

  it('gives the records papaparse gives, for any text with no quote character', () => {
    const piece = fc.constantFrom(
      'a',
      '1',
      '12.30',
      ' ',
      ',',
      ';',
      '\t',
      '\n',
      '\r',
      '\r\n',
      "'",
      "'=1+2",
      '=',
      '\uFEFF',
      'Zoë',
      '',
    );
    fc.assert(
      fc.property(fc.array(piece, { maxLength: 40 }), fc.constantFrom(',', ';', '\t'), (parts, d) => {
        const text = parts.join('');
        expect(records(splitPlain, text, d)).toEqual(records(splitQuoted, text, d));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the records papaparse gives for files of many rows, mostly as wide as the one before, cells repeating down the rows', () => {
    // What a ledger looks like: rows of one width (cut from the text, a cell equal to the one above kept
    // as that string), now and then a row with fewer or more cells, a blank line, one-column stretches.
    const cellArb = fc.constantFrom(
      '',
      'USD',
      'Paid',
      '2025-06-01',
      '2025-06-02',
      '12.30',
      ' ',
      'x',
      '\uFEFF',
    );
    const rowArb = fc.array(cellArb, { minLength: 1, maxLength: 5 });
    const fileArb = fc.record({
      header: rowArb,
      rows: fc.array(
        fc.oneof({ weight: 1, arbitrary: rowArb }, { weight: 4, arbitrary: fc.constant(null) }),
        {
          maxLength: 60,
        },
      ),
      ends: fc.array(fc.constantFrom('\n', '\r\n', '\r'), { minLength: 1, maxLength: 3 }),
      last: fc.boolean(),
    });
    fc.assert(
      fc.property(
        fileArb,
        fc.constantFrom(',', ';', '\t'),
        cellArb,
        ({ header, rows, ends, last }, d, fill) => {
          // null: a row as wide as the header, its cells the header's shifted, or all one value.
          const lines = [
            header,
            ...rows.map((r, i) => r ?? header.map((h, k) => ((i + k) % 3 === 0 ? fill : h))),
          ];
          const text = lines
            .map((cells, i) => cells.join(d) + (i < lines.length - 1 || last ? ends[i % ends.length] : ''))
            .join('');
          expect(records(splitPlain, text, d)).toEqual(records(splitQuoted, text, d));
        },
      ),
      { numRuns: 3000 },
    );
  });

  it('reads a file of one column, and one whose later rows have no delimiter, line by line', () => {
    const oneColumn = `id\n${Array.from({ length: 2000 }, (_, i) => String(i)).join('\n')}\n`;
    expect(records(splitPlain, oneColumn)).toEqual(records(splitQuoted, oneColumn));
    const narrowing = `a,b\n1,2\n${Array.from({ length: 500 }, (_, i) => `row ${i}`).join('\r\n')}\n3,4`;
    expect(records(splitPlain, narrowing)).toEqual(records(splitQuoted, narrowing));
  });

  it('reads CRLF, lone CR and LF in one file, blank and separator-only lines, empty cells', () => {
    const text = 'a,b,c\r\n1,,3\r\n\r\n,,\n4,5,\r6,7,8\n,x,\n9,10,11';
    expect(records(splitPlain, text)).toEqual(records(splitQuoted, text));
    const p = parseCsvText(text);
    expect(p.rows).toEqual([
      { line: 2, cells: ['1', '', '3'] },
      { line: 5, cells: ['4', '5', ''] },
      { line: 6, cells: ['6', '7', '8'] },
      { line: 7, cells: ['', 'x', ''] },
      { line: 8, cells: ['9', '10', '11'] },
    ]);
  });

  it('drops a second BOM as papaparse does, and reads a file without a delimiter or final line end', () => {
    const twice = parseCsvText('\uFEFF\uFEFFid,amount\n1,2');
    expect(twice.headers).toEqual(['id', 'amount']);
    expect(twice.rows).toEqual([{ line: 2, cells: ['1', '2'] }]);
    expect(records(splitPlain, 'id\n1\n2')).toEqual([
      [1, ['id']],
      [2, ['1']],
      [3, ['2']],
    ]);
  });

  it('undoes the formula guard on unquoted cells, and the wrong field count is still a problem', () => {
    const p = parseCsvText("note,amount\n'=SUM(A1),1.00\n'plain,2.00\n1,2,3\n");
    expect(p.rows.map((r) => r.cells)).toEqual([
      ['=SUM(A1)', '1.00'],
      ["'plain", '2.00'],
    ]);
    expect(p.problems).toEqual([
      { line: 4, message: 'has 3 fields, the header has 2', cause: 'field_count', cells: ['1', '2', '3'] },
    ]);
  });

  it('reads the same rows whichever reader a file takes (a quote anywhere sends it to papaparse)', () => {
    const plain = 'id,note,amount\r\n1,a,1.00\r\n\r\n2,b,2.00\r\n';
    const quoted = 'id,note,amount\r\n1,"a",1.00\r\n\r\n2,b,2.00\r\n';
    expect(parseCsvText(quoted)).toEqual(parseCsvText(plain));
  });
});
