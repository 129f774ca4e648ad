import { crc32 } from 'node:zlib';
import { unzipSync } from 'fflate';
import { describe, expect, it } from 'vitest';
import type { CsvColumn } from '../../../shared/csv/writer';
import { createXlsxStream, writeXlsx, type XlsxOptions } from '../../../shared/csv/xlsx';
import { createZipWriter } from '../../../shared/csv/zip-stream';
import { writeXlsxWithExceljs } from '../../fakes/exceljs-xlsx';

interface Row {
  id: string | null;
  ref: string | null;
  amount: string | null;
  at: string | null;
  note: string | null;
  lines: number | string | null;
  day: string | null;
}

const columns: CsvColumn<Row>[] = [
  { header: 'Transaction no.', kind: 'id', value: (r) => r.id },
  { header: 'Reference', kind: 'id', value: (r) => r.ref },
  { header: 'Amount', kind: 'amount', value: (r) => r.amount },
  { header: 'Created', kind: 'timestamp', value: (r) => r.at },
  { header: 'Note', kind: 'text', value: (r) => r.note },
  { header: 'Lines', kind: 'integer', value: (r) => r.lines },
  { header: 'Ledger date', kind: 'date', value: (r) => r.day },
];

const NOTES = [
  'plain',
  'a,"b" & <c> > d',
  '=1+1',
  '  padded  ',
  'two\nlines',
  'tab\there',
  'windows\r\nline',
  '😀 ünïcödé 中文',
  "it's",
  '',
  null,
  'x'.repeat(300),
  'bad \uffff char',
];
const AMOUNTS = ['12.30', '6798000', '-0.05', '1.234', 'n/a', '', null, '0.00', '123456789.99'];
const TIMES = ['2025-03-01T06:05:06.000Z', '2025-03-01T16:30:00Z', 'not a time', '', null];

/** Rows that mix every kind of value in every column, past the width sample and the progress step. */
const rows: Row[] = Array.from({ length: 6_200 }, (_, i) => ({
  id: i % 37 === 0 ? null : i % 11 === 0 ? `000${i}` : String(297553638300700000n + BigInt(i)),
  ref: i % 5 === 0 ? null : `INV-${i}`,
  amount: AMOUNTS[i % AMOUNTS.length]!,
  at: i % 3 === 0 ? TIMES[i % TIMES.length]! : new Date(Date.UTC(2025, 0, 1) + i * 3_601_000).toISOString(),
  note: NOTES[i % NOTES.length]!,
  lines: i % 4 === 0 ? null : i % 9 === 0 ? 'many' : i,
  day:
    i % 6 === 0
      ? null
      : i % 13 === 0
        ? '31/12/2025'
        : new Date(Date.UTC(2025, 0, 1) + i * 86_400_000).toISOString().slice(0, 10),
}));

async function load(bytes: Uint8Array) {
  const Excel = (await import('exceljs')).default;
  const wb = new Excel.Workbook();
  await wb.xlsx.load(bytes.slice().buffer);
  return wb;
}

describe('the streamed workbook', () => {
  it('reads back, cell by cell with exceljs, the same as the workbook exceljs wrote for the same rows', async () => {
    const opts: XlsxOptions = {
      sheetName: 'Transactions',
      zone: { iana: 'Etc/GMT-8', label: 'UTC+8' },
      dateFormat: 'dd/mm/yyyy hh:mm',
    };
    const [streamed, old] = await Promise.all([
      load(await writeXlsx(columns, rows, opts)),
      load(await writeXlsxWithExceljs(columns, rows, opts)),
    ]);
    const a = streamed.getWorksheet('Transactions')!;
    const b = old.getWorksheet('Transactions')!;
    expect(a.rowCount).toBe(rows.length + 1);
    expect(a.rowCount).toBe(b.rowCount);
    expect(a.views[0]).toMatchObject({ state: 'frozen', ySplit: 1 });
    expect(a.views[0]).toMatchObject(b.views[0]!);
    expect(a.autoFilter).toEqual(b.autoFilter);
    for (let c = 1; c <= columns.length; c += 1) {
      // exceljs leaves out a plain column of its default width, 9 (it reads back as undefined).
      expect(a.getColumn(c).width, `width of column ${c}`).toBe(b.getColumn(c).width ?? 9);
      expect(a.getColumn(c).numFmt, `format of column ${c}`).toEqual(b.getColumn(c).numFmt);
    }
    const differences: string[] = [];
    for (let r = 1; r <= rows.length + 1; r += 1)
      for (let c = 1; c <= columns.length; c += 1) {
        const x = a.getRow(r).getCell(c);
        const y = b.getRow(r).getCell(c);
        // The one intended difference: a CR inside a text is kept (the old writer's XML lost it).
        const seen = (cell: typeof x) =>
          JSON.stringify({
            value:
              cell.value instanceof Date
                ? cell.value.toISOString()
                : typeof cell.value === 'string'
                  ? cell.value.replace(/\r\n/g, '\n')
                  : cell.value,
            type: cell.type,
            numFmt: cell.numFmt,
            bold: cell.font?.bold ?? false,
          });
        if (seen(x) !== seen(y)) differences.push(`${x.address}: ${seen(x)} vs ${seen(y)}`);
      }
    expect(differences.slice(0, 10)).toEqual([]);
    const crLine = rows.findIndex((r) => r.note?.includes('\r')) + 2;
    expect(a.getCell(`E${crLine}`).value).toBe('windows\r\nline');
  });

  it('gives its bytes to the sink as the rows arrive, not at the end, and reports progress as it goes', async () => {
    let received = 0;
    const progress: number[] = [];
    const stream = createXlsxStream(
      columns,
      { sheetName: 'S', onProgress: (n) => progress.push(n) },
      (chunk) => void (received += chunk.length),
    );
    const sizes: number[] = [];
    for (let i = 0; i < 8; i += 1) {
      await stream.write(rows);
      sizes.push(received);
    }
    await stream.finish();
    // Every chunk of rows after the first has reached the sink before the next was given.
    for (let i = 1; i < sizes.length; i += 1) expect(sizes[i]!).toBeGreaterThan(sizes[i - 1]!);
    expect(sizes[1]!).toBeGreaterThan(0);
    expect(received).toBeGreaterThan(sizes.at(-1)!);
    expect(progress.at(-1)).toBe(rows.length * 8);
    expect(progress.length).toBeGreaterThan(8);
  });

  it('writes a sheet name Excel refuses as one it takes', async () => {
    const bytes = await writeXlsx(columns, rows.slice(0, 3), { sheetName: 'Q1/Q2: [draft]?' });
    const wb = await load(bytes);
    expect(wb.worksheets.map((w) => w.name)).toEqual(['Q1 Q2   draft']);
  });
});

describe('the zip writer', () => {
  it('writes entries a zip reader opens, with each CRC-32 and size right, however the bytes arrive', async () => {
    const chunks: Uint8Array[] = [];
    const zip = createZipWriter((c) => void chunks.push(c.slice()));
    const big = new Uint8Array(3_000_000).map((_, i) => (i * 2_654_435_761) >>> 24);
    const contents: Record<string, Uint8Array> = {
      'a.txt': new TextEncoder().encode('hello'),
      'empty.xml': new Uint8Array(0),
      'dir/big.bin': big,
      'ünï.txt': new TextEncoder().encode('x'.repeat(100_000)),
    };
    for (const [name, data] of Object.entries(contents)) {
      const e = zip.entry(name);
      for (let i = 0; i < data.length; i += 65_537)
        await e.write(data.subarray(i, i + 65_537) as Uint8Array<ArrayBuffer>);
      await e.close();
    }
    await zip.finish();
    const file = new Uint8Array(chunks.reduce((a, c) => a + c.length, 0));
    let at = 0;
    for (const c of chunks) {
      file.set(c, at);
      at += c.length;
    }
    const read = unzipSync(file);
    expect(Object.keys(read).sort()).toEqual(Object.keys(contents).sort());
    // Compared as buffers: a deep equality of megabytes element by element takes minutes.
    for (const [name, data] of Object.entries(contents))
      expect(Buffer.from(read[name]!).equals(Buffer.from(data)), name).toBe(true);
    // The central directory's CRC-32 and sizes, entry by entry.
    const view = new DataView(file.buffer);
    const end = file.length - 22;
    expect(view.getUint32(end, true)).toBe(0x06054b50);
    let p = view.getUint32(end + 16, true);
    for (let i = 0; i < view.getUint16(end + 10, true); i += 1) {
      expect(view.getUint32(p, true)).toBe(0x02014b50);
      const nameLength = view.getUint16(p + 28, true);
      const name = new TextDecoder().decode(file.subarray(p + 46, p + 46 + nameLength));
      const data = contents[name]!;
      expect(view.getUint32(p + 16, true), `${name} crc`).toBe(crc32(data));
      expect(view.getUint32(p + 24, true), `${name} size`).toBe(data.length);
      p += 46 + nameLength;
    }
  });

  it('says when a sink fails, instead of writing on', async () => {
    const zip = createZipWriter(() => {
      throw new Error('disk full');
    });
    const e = zip.entry('a.txt');
    const failed = (async () => {
      for (let i = 0; i < 100; i += 1) await e.write('x'.repeat(100_000));
      await e.close();
    })();
    await expect(failed).rejects.toThrow('disk full');
  });
});
