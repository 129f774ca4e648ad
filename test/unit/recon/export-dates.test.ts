/**
 * Exports of a run (issue 28): the ledger's date as a day — ISO in CSV, a date cell in Excel — with the
 * date as the ledger wrote it kept in "Ledger row as written"; the period as dates; a row matched by
 * reference because its transaction number was unusable says so in its detail.
 */
import { describe, expect, it } from 'vitest';
import { parseCsvText } from '../../../shared/csv/parser';
import { writeXlsx } from '../../../shared/csv/xlsx';
import {
  reportColumns,
  reportCsv,
  summaryColumns,
  type SummaryExportRow,
} from '../../../shared/recon/export';
import { buildReport } from '../../../shared/recon/report';
import type { RunFacts } from '../../../shared/recon/run';
import { readXlsx, serialToIso } from '../../fakes/xlsx-reader';
import { fmt, lookupFrom, row, tx } from './fixtures';

const items = buildReport({
  rows: [
    row({ transactionNo: '297553638300708562', amountMinor: 1000, date: '19.11.2026', day: '2026-11-19' }),
    row({ transactionNo: '297553638300708563', amountMinor: 500, date: '2026-11-20', day: '2026-11-20' }),
    row({
      reference: 'INV-3',
      amountMinor: 700,
      date: '21.11.2026',
      day: '2026-11-21',
      keyNote:
        'Transaction No “6.2393E+17” looks shortened by Excel (scientific notation): its last digits are lost: matched by Order ID instead',
    }),
  ],
  unusable: [
    {
      line: 9,
      reason: 'amount: “n/a” is not an amount',
      cause: 'amount',
      fields: { date: '22.11.2026' },
      raw: '22.11.2026;n/a;USD',
    },
  ],
  answer: lookupFrom({
    'tx:297553638300708562': { kind: 'found', transaction: tx('297553638300708562', 1000) },
    'tx:297553638300708563': { kind: 'found', transaction: tx('297553638300708563', 500) },
    'ref:INV-3': { kind: 'found', transaction: tx('297553638300708564', 700, 'USD', { reference: 'INV-3' }) },
  }),
  listed: [],
  listing: 'none',
  options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
  fmt,
}).items;

describe('report export: the ledger date as a day, the original kept', () => {
  it('CSV: ISO days; a date written otherwise in “Ledger row as written”; the reference match said in Detail', () => {
    const back = parseCsvText(reportCsv(items));
    const get = (r: number, h: string) => back.rows[r]?.cells[back.headers.indexOf(h)];
    expect([0, 1, 2, 3].map((r) => get(r, 'Ledger date'))).toEqual([
      '2026-11-19',
      '2026-11-20',
      '2026-11-21',
      // An unusable row's date is as written: it may not be a date at all.
      '22.11.2026',
    ]);
    expect([0, 1, 2, 3].map((r) => get(r, 'Ledger row as written'))).toEqual([
      'Date: 19.11.2026',
      '',
      'Date: 21.11.2026',
      '22.11.2026;n/a;USD',
    ]);
    expect(get(2, 'Matched by')).toBe('Reference');
    expect(get(2, 'Detail')).toBe(
      'Transaction No “6.2393E+17” looks shortened by Excel (scientific notation): its last digits are lost: matched by Order ID instead.',
    );
    expect(get(0, 'Detail')).toBe('');
  });

  it('Excel: the ledger date is a date cell (yyyy-mm-dd), an unusable row’s date stays text', async () => {
    const cols = reportColumns();
    const book = readXlsx(await writeXlsx(cols, items, { sheetName: 'Report' }));
    const col = String.fromCharCode(65 + cols.findIndex((c) => c.header === 'Ledger date'));
    expect(book.cell(`${col}2`)).toMatchObject({ type: 'n', numFmt: 'yyyy-mm-dd' });
    expect(serialToIso(Number(book.cell(`${col}2`)?.value))).toBe('2026-11-19T00:00:00');
    expect(book.cell(`${col}5`)).toMatchObject({ value: '22.11.2026' });
    expect(book.cell(`${col}5`)?.type).not.toBe('n');
  });
});

describe('summary export: the period as dates', () => {
  const run = {
    runId: 'r1',
    profileName: 'Shop',
    options: {
      period: { from: '2026-11-01', to: '2026-11-30' },
      days: 'service',
      timeZone: 'UTC',
      dateToleranceDays: 1,
      refundLookbackDays: 0,
    },
    offline: false,
    usedCache: false,
  } as unknown as RunFacts;
  const line = {
    currency: 'USD',
    rows: 1,
    counts: {},
    generatedAt: '2026-12-01T00:00:00.000Z',
    run,
  } as unknown as SummaryExportRow;

  it('Excel: Period from and Period to are date cells', async () => {
    const cols = summaryColumns();
    const book = readXlsx(await writeXlsx(cols, [line], { sheetName: 'Summary' }));
    for (const [header, day] of [
      ['Period from', '2026-11-01'],
      ['Period to', '2026-11-30'],
    ] as const) {
      const i = cols.findIndex((c) => c.header === header);
      const ref = `${i >= 26 ? String.fromCharCode(64 + Math.floor(i / 26)) : ''}${String.fromCharCode(65 + (i % 26))}2`;
      expect(book.cell(ref)).toMatchObject({ type: 'n', numFmt: 'yyyy-mm-dd' });
      expect(serialToIso(Number(book.cell(ref)?.value))).toBe(`${day}T00:00:00`);
    }
  });
});
