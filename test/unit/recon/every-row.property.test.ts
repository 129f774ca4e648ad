import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { parseCsvBytes } from '../../../shared/csv/parser';
import { ledgerRowSchema, unusableRowSchema } from '../../../shared/recon/ledger';
import type { Transaction } from '../../../shared/domain/transaction';
import { detectFormats, formatsFrom, toLedgerRows } from '../../../shared/recon/ledger';
import { guessMapping } from '../../../shared/recon/mapping';
import type { ServiceAnswer } from '../../../shared/recon/match';
import { buildReport, detailAmount } from '../../../shared/recon/report';
import type { ListedPayment } from '../../../shared/recon/two-way';

/**
 * The invariant, for any ledger a person might produce — good rows, rows with unquoted
 * thousands separators or missing fields, bad amounts, currencies and ids, Excel's scientific ids,
 * quoted line breaks, blank lines, mixed line ends: rows read + rows that cannot be used = data rows,
 * and every data row appears exactly once in the report, at its true line.
 */

const no = fc.stringMatching(/^[1-9]\d{17}$/);
const cell = fc.oneof(
  fc.constantFrom('', 'x', 'Paid', 'cancelled', 'Refunded'),
  fc.string({ maxLength: 6 }).map((s) => s.replace(/[",\r\n]/g, '')),
);

/** One data record as text (no line end) and how many physical lines it spans. */
const record = fc.oneof(
  // Good rows.
  fc
    .record({
      id: no,
      amount: fc.integer({ min: 0, max: 10_000_000 }),
      ccy: fc.constantFrom('USD', 'JPY', 'KRW', 'CNY'),
    })
    .map(({ id, amount, ccy }) => ({
      text: `${id},${ccy === 'JPY' || ccy === 'KRW' ? amount : (amount / 100).toFixed(2)},${ccy},2025-06-0${(amount % 9) + 1},Paid`,
      lines: 1,
    })),
  // Unquoted thousands separator (one field too many).
  fc
    .record({ id: no, a: fc.integer({ min: 1, max: 999 }), b: fc.integer({ min: 0, max: 999 }) })
    .map(({ id, a, b }) => ({
      text: `${id},${a},${String(b).padStart(3, '0')}.00,USD,2025-06-01,Paid`,
      lines: 1,
    })),
  // Too few fields, or a random mess.
  fc.array(cell, { minLength: 1, maxLength: 8 }).map((cells) => ({ text: cells.join(','), lines: 1 })),
  // Excel's scientific ids, bad currencies and amounts.
  fc.constantFrom(
    { text: '5.39117E+17,1.00,USD,2025-06-01,Paid', lines: 1 },
    { text: '123,1.00,XYZ,2025-06-01,Paid', lines: 1 },
    { text: '123,1.005,USD,2025-06-01,Paid', lines: 1 },
    { text: '123,,USD,2025-06-01,Paid', lines: 1 },
    { text: ',1.00,USD,2025-06-01,Paid', lines: 1 },
    { text: '123,1.00,USD,someday,Paid', lines: 1 },
  ),
  // Text that hides, and cells far longer than anything the app keeps.
  fc
    .record({
      id: no,
      pad: fc.integer({ min: 100, max: 400 }),
      c: fc.constantFrom('\u202e', '\u0007', '\u2066'),
    })
    .map(({ id, pad, c }) => ({
      text: `${id},1.00,USD,2025-06-03 ${'x'.repeat(pad)},Paid${c}${'y'.repeat(pad)}`,
      lines: 1,
    })),
  fc
    .record({ pad: fc.integer({ min: 100, max: 400 }), c: fc.constantFrom('\u202e', '\u0000') })
    .map(({ pad, c }) => ({
      text: `,${'9'.repeat(pad)}${c},USD,2025-06-03,Paid`,
      lines: 1,
    })),
  // A quoted line break inside a cell: one record, two lines.
  no.map((id) => ({ text: `${id},1.00,USD,2025-06-02,"Paid\non time"`, lines: 2 })),
);

const lineEnd = fc.constantFrom('\n', '\r\n', '\r');

describe('every row counted (property)', () => {
  it('read + unusable = data rows, and every data row appears once in the report at its line', () => {
    fc.assert(
      fc.property(
        fc.array(fc.tuple(record, fc.boolean(), lineEnd), { maxLength: 60 }),
        lineEnd,
        fc.array(fc.constantFrom<ServiceAnswer['kind']>('found', 'not_found', 'failed'), { minLength: 1 }),
        fc.boolean(),
        (records, headerEnd, kinds, twoWay) => {
          let text = `Transaction No,Amount,Currency,Date,Status${headerEnd}`;
          let line = 2;
          const expectedLines: number[] = [];
          let prevEnd = headerEnd;
          for (const [r, blankAfter, chosenEnd] of records) {
            // CR then LF is one CRLF line end, by definition: an empty record there would not be a line.
            const end = r.text === '' && prevEnd === '\r' && chosenEnd === '\n' ? '\r' : chosenEnd;
            prevEnd = end;
            expectedLines.push(line);
            text += r.text + end;
            line += r.lines;
            if (blankAfter) {
              text += end;
              line += 1;
            }
          }
          // A record that parses as blank (every cell empty) is not a data row.
          const parsed = parseCsvBytes(new TextEncoder().encode(text));
          const mapping = guessMapping(parsed.headers);
          const imported = toLedgerRows(
            parsed,
            mapping,
            formatsFrom(detectFormats(parsed, mapping), { decimal: '.' }),
          );
          expect(imported.rows.length + imported.unusable.length).toBe(parsed.dataRows);
          // Whatever the file holds, main takes the hand-over: nothing hides, nothing is too long.
          for (const r of imported.rows) expect(ledgerRowSchema.safeParse(r).error).toBeUndefined();
          for (const u of imported.unusable) expect(unusableRowSchema.safeParse(u).error).toBeUndefined();
          expect(imported.dataRows).toBe(parsed.dataRows);
          const blankRecords = records.filter(([r]) =>
            r.text.split(',').every((c) => c.trim() === ''),
          ).length;
          expect(parsed.dataRows).toBe(records.length - blankRecords);

          let i = 0;
          const answer = (key: string): ServiceAnswer | undefined => {
            const kind = kinds[i++ % kinds.length];
            const transactionNo = key.slice(3);
            if (kind === 'found')
              return {
                kind,
                transaction: {
                  transactionNo,
                  amountMinor: 100,
                  currency: 'USD',
                  status: 'success',
                  transactionType: 'payment',
                  refunds: [],
                  createdAt: '2025-06-03T00:00:00.000Z',
                } satisfies Transaction,
                source: 'lookup',
                fetchedAt: '2025-07-01T00:00:00.000Z',
              };
            if (kind === 'not_found')
              return { kind, source: 'lookup', fetchedAt: '2025-07-01T00:00:00.000Z' };
            return undefined;
          };
          const listed: ListedPayment[] = [
            {
              transaction: {
                transactionNo: '999999999999999999',
                amountMinor: 5,
                currency: 'USD',
                status: 'success',
                transactionType: 'payment',
                refunds: [],
                createdAt: '2025-06-04T00:00:00.000Z',
              },
              fetchedAt: '2025-07-01T00:00:00.000Z',
            },
          ];
          const report = buildReport({
            rows: imported.rows,
            unusable: imported.unusable,
            answer,
            listed,
            listing: twoWay ? 'complete' : 'none',
            options: {
              ...(twoWay ? { period: { from: '2025-06-01', to: '2025-06-30' } } : {}),
              days: 'service',
              timeZone: 'UTC',
              dateToleranceDays: 1,
              refundLookbackDays: 0,
            },
            fmt: detailAmount,
          });
          const ledgerItems = report.items.filter((x) => x.line !== undefined);
          const lines = ledgerItems.map((x) => x.line);
          // Once each, in line order, exactly the data rows' lines.
          expect(lines).toEqual([...lines].sort((a, b) => a! - b!));
          expect(new Set(lines).size).toBe(lines.length);
          const nonBlank = expectedLines.filter(
            (_, k) => !records[k]![0].text.split(',').every((c) => c.trim() === ''),
          );
          expect(lines).toEqual(nonBlank);
          expect(report.summary.rows).toBe(parsed.dataRows);
          expect(report.summary.read + report.summary.unusable).toBe(parsed.dataRows);
          expect(Object.values(report.summary.counts).reduce((a, n) => a + n, 0)).toBe(report.items.length);
          for (const c of report.summary.currencies)
            expect(c.explainedMinor + c.unexplainedMinor).toBe(c.differenceMinor);
        },
      ),
      { numRuns: 300 },
    );
  });
});
