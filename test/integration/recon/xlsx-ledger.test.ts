/**
 * A month-end ledger as an Excel workbook gives the same report as the same data in CSV (issue 28):
 * `cli reconcile` on both against a started sandbox over real HTTP, the report files compared byte for
 * byte. The workbook holds what Excel makes of a German ledger: transaction numbers stored as numbers
 * (shortened: Excel keeps 15 digits), dates as date cells and as text, amounts as number cells and as
 * text with a decimal comma. Its CSV twin holds what those cells show.
 */
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import ExcelJS from 'exceljs';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runReconcile } from '../../../electron/hosts/cli/commands/reconcile';
import {
  DEMO_LEDGER_ANCHOR_MS,
  DEMO_LEDGER_COUNT,
  DEMO_LEDGER_SEED,
} from '../../../electron/core/demo-ledger';
import { DEMO_MERCHANT, generateSeed, type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { parseCsvText } from '../../../shared/csv/parser';
import { formatMinor } from '../../../shared/domain/money';

const UTC8_MS = 8 * 3_600_000;
const day = (ms: number) => new Date(ms + UTC8_MS).toISOString().slice(0, 10);
const german = (iso: string) => `${iso.slice(8, 10)}.${iso.slice(5, 7)}.${iso.slice(0, 4)}`;
/** An amount as a German ledger writes it: 1.234,56. */
const germanAmount = (text: string) => {
  const [whole = '', frac] = text.split('.');
  const grouped = whole.replace(/\B(?=(\d{3})+(?!\d))/g, '.');
  return frac === undefined ? grouped : `${grouped},${frac}`;
};
/** What a General cell shows for a number of 16 or more digits: 6.2393E+17. */
const excelShows = (n: number) =>
  n
    .toExponential(5)
    .replace(/\.?0+e/, 'e')
    .replace('e+', 'E+');

interface Cell {
  /** What the workbook stores. */
  xlsx: string | number | Date;
  /** What the CSV twin has. */
  csv: string;
}

/** 60 rows of the Demo merchant's paid payments, and a few written badly. */
function ledger(): { rows: Cell[][]; shortened: number } {
  const data = generateSeed(DEMO_LEDGER_SEED, DEMO_LEDGER_COUNT, DEMO_LEDGER_ANCHOR_MS);
  const refunded = new Set(data.refunds.map((r) => r.transactionNo));
  const paid = data.payments
    .filter(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        !refunded.has(p.transactionNo) &&
        p.createdAt < DEMO_LEDGER_ANCHOR_MS - 2 * 86_400_000,
    )
    .slice(0, 60);
  expect(paid).toHaveLength(60);
  const rows = paid.map((p, i): Cell[] => {
    const iso = day(p.createdAt);
    const amount = formatMinor(p.amountMinor + (i === 58 ? 100 : 0), p.currency);
    // Ids 0–29 Excel stored as numbers (shortened); the rest as text. Row 56 has no order number.
    const id: Cell =
      i < 30 || i === 56
        ? { xlsx: Number(p.transactionNo), csv: excelShows(Number(p.transactionNo)) }
        : { xlsx: p.transactionNo, csv: p.transactionNo };
    const reference = i === 56 ? '' : p.reference;
    // Even rows: the date as a date cell, the amount as a number; odd rows: both as text.
    const date: Cell =
      i % 2 === 0
        ? { xlsx: new Date(`${iso}T00:00:00Z`), csv: iso }
        : { xlsx: german(iso), csv: german(iso) };
    const money: Cell =
      i === 57
        ? { xlsx: 'n/a', csv: 'n/a' }
        : i % 2 === 0
          ? { xlsx: Number(amount), csv: germanAmount(amount) }
          : { xlsx: germanAmount(amount), csv: germanAmount(amount) };
    return [
      date,
      id,
      { xlsx: reference, csv: reference },
      money,
      { xlsx: p.currency, csv: p.currency },
      { xlsx: 'Paid', csv: 'Paid' },
    ];
  });
  return { rows, shortened: 30 };
}

const HEADERS = ['Buchungsdatum', 'Transaktions-Nr', 'Bestellnummer', 'Betrag', 'Währung', 'Status'];

async function writeBoth(dir: string) {
  const { rows } = ledger();
  const wb = new ExcelJS.Workbook();
  // A first sheet that is not the ledger: the reader takes the one whose header looks like one.
  wb.addWorksheet('Notes').addRow(['Month-end November, prepared by accounts']);
  const ws = wb.addWorksheet('Buchungen');
  ws.addRow(HEADERS);
  for (const r of rows) {
    const added = ws.addRow(r.map((c) => (c.xlsx === '' ? null : c.xlsx)));
    r.forEach((c, i) => {
      if (c.xlsx instanceof Date) added.getCell(i + 1).numFmt = 'dd.mm.yyyy';
      else if (typeof c.xlsx === 'number' && i === 3) added.getCell(i + 1).numFmt = '#,##0.00';
    });
  }
  const xlsx = join(dir, 'ledger.xlsx');
  writeFileSync(xlsx, new Uint8Array(await wb.xlsx.writeBuffer()));
  const csv = join(dir, 'ledger.csv');
  writeFileSync(csv, [HEADERS, ...rows.map((r) => r.map((c) => c.csv))].map((l) => l.join(';')).join('\r\n'));
  return { xlsx, csv };
}

describe('cli reconcile: an .xlsx ledger gives the same report as the same data in CSV', () => {
  let sb: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    const t0 = Date.now();
    sb = await startSandbox({
      seed: DEMO_LEDGER_SEED,
      transactions: DEMO_LEDGER_COUNT,
      refundSettleMs: 20,
      now: () => DEMO_LEDGER_ANCHOR_MS + (Date.now() - t0),
    });
    dir = mkdtempSync(join(tmpdir(), 'rd-xlsx-'));
  });
  afterAll(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (args: string[]) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReconcile(
      [
        ...args,
        '--base-url',
        sb.baseUrl,
        '--merchant',
        DEMO_MERCHANT.merchantNo,
        '--store',
        DEMO_MERCHANT.storeNo,
        '--quiet',
      ],
      {
        out: (l) => out.push(l),
        err: (l) => err.push(l),
        env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
        // One instant for both runs: "Fetched from service" is the run's clock.
        now: () => Date.UTC(2025, 6, 1, 9),
      },
    );
    return { code, out, err: err.join('\n') };
  };

  it('the same report, byte for byte; shortened ids matched by reference and said so; one line per reason', async () => {
    const files = await writeBoth(dir);
    const outX = join(dir, 'report-x.csv');
    const outC = join(dir, 'report-c.csv');
    const sumX = join(dir, 'summary-x.csv');
    const sumC = join(dir, 'summary-c.csv');
    const x = await run([files.xlsx, '--out', outX, '--summary', sumX]);
    const c = await run([files.csv, '--out', outC, '--summary', sumC]);
    expect(x.code).toBe(EXIT.differences);
    expect(c.code).toBe(EXIT.differences);
    const reportX = readFileSync(outX, 'utf8');
    expect(reportX).toBe(readFileSync(outC, 'utf8'));
    // The summaries differ only in the run's id and what file they say was read.
    const summary = (path: string) => {
      const p = parseCsvText(readFileSync(path, 'utf8'));
      const skip = new Set(['Generated (UTC)', 'Compared how', 'Run id']);
      return p.rows.map((r) => p.headers.map((h, i) => (skip.has(h) ? '' : r.cells[i])));
    };
    expect(summary(sumX)).toEqual(summary(sumC));
    expect(x.out.slice(0, -1)).toEqual(c.out.slice(0, -1));
    expect(readFileSync(sumX, 'utf8')).toContain('Excel workbook, sheet “Buchungen”');
    expect(x.err).toContain('read sheet “Buchungen” of 2 (“Notes”, “Buchungen”)');

    // What the report says: 57 matched (30 of them by reference), one amount differs, two unreadable.
    const p = parseCsvText(reportX);
    const col = (h: string) => p.headers.indexOf(h);
    const byOutcome: Record<string, number> = {};
    for (const r of p.rows)
      byOutcome[r.cells[col('Outcome code')]!] = (byOutcome[r.cells[col('Outcome code')]!] ?? 0) + 1;
    expect(byOutcome).toEqual({ matched: 57, amount_mismatch: 1, unreadable: 2 });
    const byReference = p.rows.filter((r) => r.cells[col('Matched by')] === 'Reference');
    expect(byReference).toHaveLength(30);
    for (const r of byReference)
      expect(r.cells[col('Detail')]).toMatch(
        /^Transaktions-Nr “\d\.\d{1,5}E\+17” looks shortened by Excel \(scientific notation\): its last digits are lost: matched by Bestellnummer instead\./,
      );
    // Dates are days (ISO) whatever the cell; a date written as text is kept as written.
    const first = p.rows[0]!;
    const second = p.rows[1]!;
    expect(first.cells[col('Ledger date')]).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(first.cells[col('Ledger row as written')]).toBe('');
    expect(second.cells[col('Ledger row as written')]).toMatch(/^Date: \d{2}\.\d{2}\.\d{4}$/);
    // Identical reasons collapsed into one line with their lines (the defect: one message per row).
    expect(x.err).toContain('lines 2–31 (30 rows): Transaktions-Nr “');
    expect(x.err.match(/matched by Bestellnummer instead/g)).toHaveLength(1);
    expect(x.err).toContain('line 58: Transaktions-Nr “');
    expect(x.err).toContain('line 59: amount');
  });

  it('--sheet chooses the sheet; a sheet the workbook lacks is bad input (exit 2) naming its sheets', async () => {
    const files = await writeBoth(dir);
    const out = join(dir, 'r.csv');
    const notes = await run([files.xlsx, '--sheet', 'Notes', '--out', out]);
    expect(notes.code).toBe(EXIT.badInput);
    expect(notes.err).toContain(
      'has a header row (Month-end November, prepared by accounts) but no data rows',
    );
    const missing = await run([files.xlsx, '--sheet', 'Dezember', '--out', out]);
    expect(missing.code).toBe(EXIT.badInput);
    expect(missing.err).toContain(
      'The workbook has no sheet “Dezember” with anything in it; its sheets: “Notes”, “Buchungen”.',
    );
  });
});
