import fc from 'fast-check';
import Papa from 'papaparse';
import { describe, expect, it } from 'vitest';
import {
  BOM,
  csvByteChunks,
  type CsvColumn,
  unwrapCell,
  writeCsv,
  writeCsvBytes,
} from '../../../shared/csv/writer';

interface Row {
  id: string;
  ref: string;
  amount: string;
  note: string;
  at: string;
}
const columns: CsvColumn<Row>[] = [
  { header: 'transactionNo', kind: 'id', value: (r) => r.id },
  { header: 'reference', kind: 'id', value: (r) => r.ref },
  { header: 'amount', kind: 'amount', value: (r) => r.amount },
  { header: 'note', kind: 'text', value: (r) => r.note },
  { header: 'createdAt', kind: 'timestamp', value: (r) => r.at },
];
const parse = (text: string) =>
  Papa.parse<string[]>(text.replace(/^\uFEFF/, ''), { skipEmptyLines: true }).data;

describe('CSV writer', () => {
  it('writes RFC 4180 with a BOM, a header row and CRLF line ends', () => {
    const out = writeCsv(columns, [
      {
        id: '297553638300708562',
        ref: 'A,1',
        amount: '10.00',
        note: 'say "hi"\nbye',
        at: '2026-01-02T03:04:05.000Z',
      },
    ]);
    expect(out.startsWith(BOM)).toBe(true);
    expect(out).toBe(
      `${BOM}transactionNo,reference,amount,note,createdAt\r\n297553638300708562,"A,1",10.00,"say ""hi""\nbye",2026-01-02T03:04:05.000Z\r\n`,
    );
  });

  it('writes 18- and 20-digit ids as plain digits (the legacy ="…" only on request)', () => {
    const rows = [{ id: '29755363830070856212', ref: '000123', amount: '1.00', note: '', at: '' }];
    expect(parse(writeCsv(columns, rows))[1]![0]).toBe('29755363830070856212');
    expect(parse(writeCsv(columns, rows))[1]![1]).toBe('000123');
    expect(parse(writeCsv(columns, rows, { idStyle: 'excel', bom: false }))[1]![0]).toBe(
      '="29755363830070856212"',
    );
  });

  it('writes timestamps in the chosen zone with their offset and names the zone in the header', () => {
    const rows = [{ id: '1', ref: 'r', amount: '1.00', note: '', at: '2025-03-01T16:30:00.000Z' }];
    const zone = { iana: 'Etc/GMT-8', label: 'UTC+8' };
    const utc8 = parse(writeCsv(columns, rows, { bom: false, zone }));
    expect(utc8[0]![4]).toBe('createdAt (UTC+8)');
    expect(utc8[1]![4]).toBe('2025-03-02T00:30:00+08:00');
    const utc = parse(writeCsv(columns, rows, { bom: false, zone: { iana: 'UTC', label: 'UTC' } }));
    expect(utc[1]![4]).toBe('2025-03-01T16:30:00Z');
    expect(Date.parse(utc8[1]![4]!)).toBe(Date.parse(utc[1]![4]!));
  });

  it('neutralises formula injection (full-width ＝＋－＠ too) but leaves negative amounts numeric', () => {
    const evil = [
      '=HYPERLINK("http://x")',
      '+1+1',
      '-2+3',
      '@SUM(A1)',
      '\tcmd',
      '\rcmd',
      '＝1+1',
      '＋1',
      '－1',
      '＠SUM(A1)',
    ];
    for (const e of evil) {
      const [, row] = parse(
        writeCsv(columns, [{ id: e, ref: e, amount: e, note: e, at: e }], { bom: false }),
      );
      for (const c of row!) expect(c.startsWith("'"), `${JSON.stringify(e)} → ${c}`).toBe(true);
    }
    const [, ok] = parse(
      writeCsv(columns, [{ id: '1', ref: 'r', amount: '-12.30', note: 'n', at: '' }], { bom: false }),
    );
    expect(ok![2]).toBe('-12.30');
  });

  it('writes the same document as bytes: UTF-8, with the BOM as EF BB BF or without it', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.string(),
            ref: fc.string({ unit: 'grapheme' }),
            amount: fc.string(),
            note: fc.string({ unit: 'binary' }),
            at: fc.string(),
          }),
          { maxLength: 8 },
        ),
        fc.boolean(),
        (rows, bom) => {
          const bytes = writeCsvBytes(columns, rows, { bom });
          expect(bytes).toEqual(new TextEncoder().encode(writeCsv(columns, rows, { bom })));
          expect([...bytes.slice(0, 3)].join(',') === '239,187,191').toBe(bom);
        },
      ),
    );
  });

  it('round-trips any text through a standard parser', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.record({
            id: fc.string(),
            ref: fc.string(),
            amount: fc.string(),
            note: fc.string(),
            at: fc.string(),
          }),
          { maxLength: 8 },
        ),
        (rows) => {
          const parsed = parse(writeCsv(columns, rows));
          const body = parsed.slice(1);
          // A row of empty cells is still ",,,," (not a blank line), so every row comes back.
          expect(body).toHaveLength(rows.length);
          body.forEach((cells, i) => {
            const r = rows[i]!;
            expect(cells.map(unwrapCell)).toEqual([r.id, r.ref, r.amount, r.note, r.at]);
          });
        },
      ),
    );
  });
});

/**
 * The writer as it was before its cells were written by per-column compiled writers: the plain
 * regex-per-cell statement of the rules. The compiled writer must write exactly the same bytes.
 */
function referenceCell(kind: CsvColumn<unknown>['kind'], raw: unknown, idStyle: 'excel' | 'plain'): string {
  if (raw === null || raw === undefined) return '';
  const text = String(raw);
  const guard = (t: string) => (/^'*[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20]/.test(t) ? `'${t}` : t);
  const value =
    kind === 'amount' || kind === 'integer'
      ? /^-?\d+(\.\d+)?$/.test(text)
        ? text
        : guard(text)
      : kind === 'id' && /^\d+$/.test(text)
        ? idStyle === 'excel'
          ? `="${text}"`
          : text
        : guard(text);
  return /[",\r\n]/.test(value) ? `"${value.replace(/"/g, '""')}"` : value;
}
function referenceCsv(
  rows: Record<string, unknown>[],
  kinds: CsvColumn<unknown>['kind'][],
  idStyle: 'excel' | 'plain',
) {
  const lines = [kinds.join(',')];
  for (const r of rows) lines.push(kinds.map((k, i) => referenceCell(k, r[`c${i}`], idStyle)).join(','));
  return `${lines.join('\r\n')}\r\n`;
}

describe('CSV writer, cell by cell', () => {
  const kinds: CsvColumn<unknown>['kind'][] = ['id', 'amount', 'integer', 'text', 'timestamp'];
  const cols = kinds.map((kind, i) => ({
    header: kind,
    kind,
    value: (r: Record<string, string | number | null | undefined>) => r[`c${i}`],
  }));
  // Every character the rules look at, plus ordinary ones, so short random strings hit the edges.
  const edgy = fc.constantFrom(...'=+-@\t\r\n",\'.0123456789aZ ＝＋－＠é😀'.split(''), '\uFF1D');
  const cellValue = fc.oneof(
    fc.string({ unit: edgy, maxLength: 6 }),
    fc.string(),
    fc.integer(),
    fc.double(),
    fc.constant(null),
    fc.constant(undefined),
  );

  it('writes exactly what the rules say for any cell of any kind, both id styles', () => {
    fc.assert(
      fc.property(
        fc.array(fc.record({ c0: cellValue, c1: cellValue, c2: cellValue, c3: cellValue, c4: cellValue }), {
          maxLength: 6,
        }),
        fc.constantFrom('excel' as const, 'plain' as const),
        (rows, idStyle) => {
          expect(writeCsv(cols, rows, { bom: false, idStyle })).toBe(referenceCsv(rows, kinds, idStyle));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('quotes and neutralises the edge cells by kind', () => {
    const row = (c0: unknown, c1: unknown, c3: unknown) => {
      const out = writeCsv(cols, [{ c0, c1, c2: null, c3, c4: undefined }] as never[], { bom: false });
      return out.slice(out.indexOf('\r\n') + 2, -2);
    };
    expect(row('000123', '-12.30', 'a,b')).toBe('000123,-12.30,,"a,b",');
    expect(row('INV-1', '0.05', 'say "hi"')).toBe('INV-1,0.05,,"say ""hi""",');
    expect(row('-5', '-', '\r\nx')).toBe(`'-5,'-,,"'\r\nx",`);
    expect(row("'=1", '1.', "''+1")).toBe(`''=1,1.,,'''+1,`);
    expect(row('@x', '.5', '\ttab')).toBe(`'@x,.5,,'\ttab,`);
    expect(row('12a', '--1', 'line\nbreak')).toBe(`12a,'--1,,"line\nbreak",`);
    expect(row('', '', "it's")).toBe(",,,it's,");
    expect(row(297553638300708, 1230, '＋1')).toBe("297553638300708,1230,,'＋1,");
    expect(row('1e3', -7, '=A1,"x"')).toBe(`1e3,-7,,"'=A1,""x""",`);
  });

  it('written chunk by chunk (a streaming export), gives exactly the bytes of the whole document', () => {
    const rows = Array.from({ length: 2_500 }, (_, i) => ({
      c0: i % 3 ? String(297553638300700000n + BigInt(i)) : `=x${i}`,
      c1: `${i}.${i % 100}`,
      c2: null,
      c3: i % 7 ? `note, "${i}" ü` : '\r\nx',
      c4: undefined,
    })) as never[];
    for (const bom of [true, false]) {
      const chunks = csvByteChunks(cols, { bom });
      const parts = [chunks.start];
      for (let i = 0; i < rows.length; i += 700) parts.push(chunks.rows(rows.slice(i, i + 700)));
      parts.push(chunks.rows([]));
      expect(Buffer.concat(parts).equals(Buffer.from(writeCsvBytes(cols, rows, { bom })))).toBe(true);
    }
  });
});
