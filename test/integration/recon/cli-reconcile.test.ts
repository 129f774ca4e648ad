import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { EXIT, runReconcile } from '../../../electron/hosts/cli/commands/reconcile';
import {
  DEMO_LEDGER_ANCHOR_MS,
  DEMO_LEDGER_COUNT,
  DEMO_LEDGER_SEED,
  buildDemoLedger,
} from '../../../electron/core/demo-ledger';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { parseCsvText } from '../../../shared/csv/parser';
import { formatMinor } from '../../../shared/domain/money';

const LEDGER = resolve(import.meta.dirname, '../../../resources/demo-ledger.csv');

describe('cli reconcile: the demo ledger against a started sandbox over real HTTP', () => {
  let sb: RunningSandbox;
  let dir: string;
  beforeAll(async () => {
    // Its clock runs from the committed ledger's anchor, so the seeded dates are the ledger's dates.
    const t0 = Date.now();
    sb = await startSandbox({
      seed: DEMO_LEDGER_SEED,
      transactions: DEMO_LEDGER_COUNT,
      refundSettleMs: 20,
      now: () => DEMO_LEDGER_ANCHOR_MS + (Date.now() - t0),
    });
    dir = mkdtempSync(join(tmpdir(), 'rd-recon-'));
  });
  afterAll(async () => {
    await sb.close();
    rmSync(dir, { recursive: true, force: true });
  });

  const run = async (
    args: string[],
    env: Record<string, string | undefined> = { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
  ) => {
    const out: string[] = [];
    const err: string[] = [];
    const code = await runReconcile(args, { out: (l) => out.push(l), err: (l) => err.push(l), env });
    return { code, out: out.join('\n'), err: err.join('\n') };
  };
  const base = () => [
    '--base-url',
    sb.baseUrl,
    '--merchant',
    DEMO_MERCHANT.merchantNo,
    '--store',
    DEMO_MERCHANT.storeNo,
  ];

  const countOutcomes = (path: string) => {
    const parsed = parseCsvText(readFileSync(path, 'utf8'));
    const outcomeCol = parsed.headers.indexOf('Outcome code');
    const counts: Record<string, number> = {};
    for (const row of parsed.rows)
      counts[row.cells[outcomeCol] ?? ''] = (counts[row.cells[outcomeCol] ?? ''] ?? 0) + 1;
    return counts;
  };
  const nonZero = (o: Record<string, number>) =>
    Object.fromEntries(Object.entries(o).filter(([, n]) => n > 0));

  it('both ways for a period (--from/--to): exactly the planted discrepancies, report and summary, exit 1', async () => {
    const demo = buildDemoLedger();
    const report = join(dir, 'report.csv');
    const summary = join(dir, 'summary.csv');
    const r = await run([
      LEDGER,
      ...base(),
      '--from',
      demo.period.from,
      '--to',
      demo.period.to,
      '--out',
      report,
      '--summary',
      summary,
      '--quiet',
    ]);
    expect(r.code).toBe(EXIT.differences);
    expect(r.err).toContain('line 42: amount');
    expect(r.err).toContain('line 122: has no currency');
    expect(r.err).toContain('line 202: Transaction No “');
    expect(countOutcomes(report)).toEqual(nonZero(demo.expected));
    expect(r.out).toContain(`${demo.rows} ledger rows: ${demo.rows - 3} read, 3 unreadable`);
    const sum = parseCsvText(readFileSync(summary, 'utf8'));
    const col = (h: string) => sum.headers.indexOf(h);
    expect(sum.rows[0]?.cells[col('Period from')]).toBe(demo.period.from);
    expect(sum.rows[0]?.cells[col('Period days')]).toBe('service UTC+8');
    expect(sum.rows[0]?.cells[col('Data source')]).toBe('live');
    expect(sum.rows[0]?.cells[col('Compared how')]).toMatch(/Period 2025-06-01 to 2025-06-30/);
    for (const row of sum.rows) expect(row.cells[col('Unexplained')]).toMatch(/^0(\.00)?$/);
    // The CLI writes UTC: the header names the zone, and the Time zone column says it for scripts.
    expect(col('Generated (UTC)')).toBeGreaterThanOrEqual(0);
    for (const row of sum.rows) expect(row.cells[col('Time zone')]).toBe('UTC');
  });

  it('without a period: the ledger’s rows only, the existing flags unchanged', async () => {
    const expected = buildDemoLedger().expectedOneWay;
    const report = join(dir, 'report-one-way.csv');
    const summary = join(dir, 'summary-one-way.csv');
    const r = await run([LEDGER, ...base(), '--out', report, '--summary', summary, '--quiet']);
    expect(r.code).toBe(EXIT.differences);
    expect(countOutcomes(report)).toEqual(nonZero(expected));
    const sum = parseCsvText(readFileSync(summary, 'utf8'));
    const cur = sum.headers.indexOf('Currency');
    const unexplained = sum.headers.indexOf('Unexplained');
    expect(sum.rows.length).toBeGreaterThan(3);
    for (const row of sum.rows) expect(row.cells[unexplained]).toMatch(/^0(\.00)?$/);
    expect(sum.rows.map((x) => x.cells[cur])).toContain('USD');
  });

  it('exits 0 when every row matches', async () => {
    const parsed = parseCsvText(readFileSync(LEDGER, 'utf8'));
    const [no, amount, currency, date] = ['Transaction No', 'Amount', 'Currency', 'Date'].map((h) =>
      parsed.headers.indexOf(h),
    ) as [number, number, number, number];
    const utc8Day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
    // Rows the sandbox holds exactly as booked: a successful payment without refunds, same amount and currency.
    const clean = parsed.rows.filter((r) => {
      const p = sb.state.payment(r.cells[no] ?? '');
      return (
        p &&
        p.status === 'success' &&
        p.refunds.length === 0 &&
        p.currency === r.cells[currency] &&
        r.cells[date] === utc8Day(p.createdAt) &&
        formatMinor(p.amountMinor, p.currency) === (r.cells[amount] ?? '').replace(/,/g, '')
      );
    });
    const seen = new Set<string>();
    const unique = clean.filter((r) => !seen.has(r.cells[no] ?? '') && seen.add(r.cells[no] ?? ''));
    expect(unique.length).toBeGreaterThan(150);
    const report = join(dir, 'clean-report.csv');
    const ledger = join(dir, 'clean.csv');
    writeFileSync(
      ledger,
      [
        parsed.headers.join(','),
        ...unique.map((r) => r.cells.map((c) => (c.includes(',') ? `"${c}"` : c)).join(',')),
      ].join('\n'),
    );
    const r = await run([ledger, ...base(), '--out', report, '--quiet']);
    expect(r.err).toBe('');
    expect(r.code).toBe(EXIT.ok);
  });

  it('exits 2 for bad input: missing arguments, unreadable file, unusable mapping, rejected credentials', async () => {
    expect((await run([LEDGER, ...base()])).code).toBe(EXIT.badInput);
    expect((await run([LEDGER, ...base(), '--out', join(dir, 'x.csv')], {})).err).toContain(
      'REFUND_DESK_API_TOKEN',
    );
    expect((await run([join(dir, 'nope.csv'), ...base(), '--out', join(dir, 'x.csv')])).code).toBe(
      EXIT.badInput,
    );
    const m = await run([
      LEDGER,
      ...base(),
      '--out',
      join(dir, 'x.csv'),
      '--mapping',
      '{"reference":"Order ID","amount":"Nope","currency":"Currency"}',
    ]);
    expect(m.code).toBe(EXIT.badInput);
    expect(m.err).toContain('no column “Nope”');
    const bad = await run([LEDGER, ...base(), '--out', join(dir, 'x.csv'), '--quiet'], {
      REFUND_DESK_API_TOKEN: 'wrong-token',
    });
    expect(bad.code).toBe(EXIT.badInput);
    expect(bad.err).toContain('refused every lookup');
  });

  it('exits 5 when the service cannot be reached, still writing the report', async () => {
    const report = join(dir, 'down.csv');
    const r = await run([
      LEDGER,
      '--base-url',
      'http://127.0.0.1:9',
      '--merchant',
      '200043',
      '--store',
      '300014',
      '--out',
      report,
      '--quiet',
    ]);
    expect(r.code).toBe(EXIT.network);
    expect(readFileSync(report, 'utf8')).toContain('not_checked');
  });
});
