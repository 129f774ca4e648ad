import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsvText, splitPlain, splitQuoted, type CsvDelimiter } from '../../../shared/csv/parser';
import { createRecordCounter } from '../../../shared/csv/record-count';

/**
 * The parser's own figures for a text: data rows, the last data row's line, and the widest record —
 * blank ones included, which the parser splits (and then drops) too — from its record readers.
 */
function parsed(text: string, delimiter: CsvDelimiter) {
  const p = parseCsvText(text, { delimiter, unwrap: false });
  const lines = [...p.rows.map((r) => r.line), ...p.problems.map((q) => q.line)];
  let widest = 0;
  const body = text.startsWith('\ufeff') ? text.slice(1) : text;
  (body.includes('"') ? splitQuoted : splitPlain)(body, delimiter, (_line, cells) => {
    widest = Math.max(widest, cells.length);
  });
  return { dataRows: p.dataRows, widest, lastRowLine: lines.length ? Math.max(...lines) : 0 };
}

/** The counter's figures for the same text, fed in the given pieces. */
function counted(pieces: string[], delimiter: CsvDelimiter) {
  const counter = createRecordCounter(delimiter);
  for (const p of pieces) counter.push(p);
  const c = counter.end();
  return {
    dataRows: c.dataRows,
    widest: c.dataRows || c.widest.fields > 1 ? c.widest.fields : 0,
    lastRowLine: c.lastRowLine,
  };
}

/** Splits a text at the given cut points (any point: inside a CRLF, a quote pair, a surrogate pair). */
const cut = (text: string, at: number[]) => {
  const points = [...new Set(at.map((a) => a % (text.length + 1)))].sort((a, b) => a - b);
  return [0, ...points].map((p, i) => text.slice(p, points[i] ?? text.length));
};

const TOKENS = [
  'a',
  'b1',
  ' ',
  '\t',
  ',',
  ';',
  '"',
  '""',
  '\n',
  '\r',
  '\r\n',
  '\u00a0',
  '\ufeff',
  '\u2028',
  'x y',
  '=1',
  '"a"',
  ' "',
  'a"b',
  '😀',
];
const csvish = fc.array(fc.constantFrom(...TOKENS), { maxLength: 80 }).map((t) => t.join(''));

describe('record counter: the parser’s counts without keeping the text', () => {
  it('counts the data rows and the widest record exactly as the parser reads them (property)', () => {
    fc.assert(
      fc.property(
        csvish,
        fc.constantFrom<CsvDelimiter>(',', ';', '\t'),
        fc.array(fc.nat(), { maxLength: 6 }),
        (text, delimiter, at) => {
          const want = parsed(text, delimiter);
          const got = counted(cut(text, at), delimiter);
          expect({
            ...got,
            widest: want.dataRows === 0 && want.widest <= 1 ? want.widest : got.widest,
          }).toEqual(want);
        },
      ),
      { numRuns: 3000, seed: 24 },
    );
  });

  it('reads quoted line breaks, mixed line ends, blank and separator-only lines as the parser does', () => {
    const text = 'No,Amount\r\n1,"12\r\n.30"\r\n\r\n , \n2,"a ""b"" c"\r3,4\n"5",6,7';
    expect(counted([text], ',')).toEqual(parsed(text, ','));
    expect(counted([text], ',')).toMatchObject({ dataRows: 4, widest: 3, lastRowLine: 8 });
  });

  it('stops when told: nothing after the record that passed the limit is read', () => {
    const seen: number[] = [];
    const counter = createRecordCounter(',', (c) => {
      seen.push(c.dataRows);
      return c.dataRows > 2;
    });
    counter.push('h\n1\n2\n3\n4\n5\n');
    expect(counter.stopped).toBe(true);
    expect(counter.count).toMatchObject({ dataRows: 3, lastRowLine: 4 });
    expect(seen).toEqual([0, 1, 2, 3]);
  });
});
