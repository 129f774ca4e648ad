import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { createBatchDryRun, sha256Hex } from '../../../electron/core/services/batch/dry-run';
import { refundStoreOn } from '../../../electron/core/services/refunds/store';
import { createGatewayClient } from '../../../electron/core/services/gateway/client';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { runCli } from '../../../electron/hosts/cli/main';
import {
  DEMO_MERCHANT,
  type PaymentRecord,
  type RunningSandbox,
  startSandbox,
} from '../../../electron/sandbox/index';
import { rowKey } from '../../../shared/batch/row-key';
import type { BatchRowClass } from '../../../shared/batch/result';
import { CURRENCIES, type Currency } from '../../../shared/domain/currencies';
import { formatMinor } from '../../../shared/domain/money';
import { parseCsvText } from '../../../shared/csv/parser';
import { createFakeLogger } from '../../fakes/logger';

/**
 * Issue 27's dry run against the embedded sandbox over real HTTP and the app's database on a real
 * SQLite file: a 300-row file mixing every class a live service and database can produce, each line's
 * class known from how the file was built (not from the code under test), and nothing sent.
 */

let sb: RunningSandbox;
const dataDir = mkdtempSync(join(tmpdir(), 'rd-batch-'));
const HEADER = 'Transaction No,Order No,Refund amount,Currency,Reason,Claim ID';

interface Built {
  text: string;
  expected: BatchRowClass[];
  /** Rows (by index) a "previous batch" refunded, with their transaction number. */
  done: Array<{ index: number; transactionNo: string }>;
}

const io = (): CliIo & { stdout: string[]; stderr: string[] } => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (l) => void stdout.push(l),
    err: (l) => void stderr.push(l),
    env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
  };
};
const conn = () => [
  '--base-url',
  sb.baseUrl,
  '--merchant',
  DEMO_MERCHANT.merchantNo,
  '--store',
  DEMO_MERCHANT.storeNo,
  '--data-dir',
  dataDir,
];

let built: Built;
const mine = () =>
  sb.state
    .snapshot()
    .payments.filter((p) => p.merchantNo === DEMO_MERCHANT.merchantNo && p.storeNo === DEMO_MERCHANT.storeNo);
const amountOf = (minor: number, c: Currency) => formatMinor(minor, c);

/** Builds the 300-row file and the class each line must get; refunds and in-flight intents made first. */
async function build(): Promise<Built> {
  const all = mine();
  const fresh = all.filter((p) => p.status === 'success' && p.refunds.length === 0 && p.amountMinor >= 1000);
  const take = (n: number) => fresh.splice(0, n);
  const lines: string[] = [];
  const expected: BatchRowClass[] = [];
  const done: Built['done'] = [];
  const add = (line: string, cls: BatchRowClass) => {
    lines.push(line);
    expected.push(cls);
  };
  const row = (
    p: PaymentRecord,
    minor: number | 'full',
    extra: { ccy?: string; ref?: string; byRef?: boolean } = {},
  ) =>
    `${extra.byRef ? '' : p.transactionNo},${extra.byRef ? p.reference : ''},${minor === 'full' ? 'full' : amountOf(minor, p.currency)},${extra.ccy ?? p.currency},recall,${extra.ref ?? ''}`;

  // Nothing remains: fully refunded through the app's own refund command first.
  for (const p of take(8)) {
    const o = io();
    const code = await runCli(
      [
        'refund',
        ...conn(),
        '--transaction-no',
        p.transactionNo,
        '--amount',
        amountOf(p.amountMinor, p.currency),
        '--currency',
        p.currency,
        '--reason',
        'setup',
        '--yes',
      ],
      o,
    );
    expect(code, o.stderr.join('\n')).toBe(0);
    add(row(p, 100), 'nothing_remains');
  }
  // In progress: a refund left `sending` in the database (a desk that crashed mid-request).
  const inFlight = take(8);
  const storage = openAppStorage({ dataDir, now: Date.now, log: createFakeLogger() });
  const refunds = refundStoreOn(storage.intents);
  const account = {
    environment: 'custom',
    baseUrl: sb.baseUrl,
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
  } as const;
  for (const [i, p] of inFlight.entries())
    await refunds.decide({ account, transactionNo: p.transactionNo, currency: p.currency }, (tx) =>
      tx.insertSending(
        {
          id: `RDBATCHTEST${i}`,
          profileId: 'other-desk',
          profileName: 'Other desk',
          ...account,
          transactionNo: p.transactionNo,
          amountMinor: 100,
          currency: p.currency,
          settleCurrency: p.settleCurrency,
          reasonCode: 'other',
          reasonNote: 'crashed desk',
          operator: 'someone',
          createdAt: new Date().toISOString(),
        },
        // Held by a process that is gone, for longer than this test runs: the intent stays `sending`.
        { holder: 'elsewhere:1', ms: 60 * 60_000 },
        new Date().toISOString(),
      ),
    );
  storage.close();
  for (const p of inFlight) add(row(p, 100), 'in_progress');
  // Not successful.
  for (const p of all.filter((x) => x.status !== 'success').slice(0, 20)) add(row(p, 100), 'not_successful');
  // Other currency.
  for (const p of take(15)) add(row(p, 100, { ccy: p.currency === 'EUR' ? 'USD' : 'EUR' }), 'other_currency');
  // Unknown ids.
  for (let i = 0; i < 15; i += 1)
    add(`19999999999999${String(i).padStart(4, '0')},,1.00,USD,recall,`, 'unknown_id');
  // Exceeds: one minor unit more than the payment.
  for (const p of take(12)) add(row(p, p.amountMinor + 1), 'exceeds_remaining');
  // Cumulative: two rows of 60% of one payment, each with its own claim id; the second exceeds.
  for (const p of take(10)) {
    const part = Math.ceil(p.amountMinor * 0.6);
    add(row(p, part, { ref: `A-${p.transactionNo}` }), 'will_refund');
    add(row(p, part, { ref: `B-${p.transactionNo}` }), 'exceeds_remaining');
  }
  // Unusable rows.
  const unusable = [
    '297553638300000001,,1.005,USD,recall,',
    '297553638300000001,,1.00,XYZ,recall,',
    '297553638300000001,,1.00,USD,,',
    ',,1.00,USD,recall,',
    '5.39117E+17,,1.00,USD,recall,',
    '297553638300000001,,0,USD,recall,',
    '297553638300000001,,-3.00,USD,recall,',
    '297553638300000001,,abc,USD,recall,',
    '297553638300000001,,1.00,USD,recall,x,extra',
    '297553638300000001,,99999999999999999999.00,USD,recall,',
  ];
  for (let i = 0; i < 20; i += 1) add(unusable[i % unusable.length]!, 'unusable');
  // Will refund (by number, by merchant reference, `full`), then duplicates of some of them.
  const goodStart = expected.length;
  const good = take(300 - 20 - goodStart);
  const goodLines: string[] = [];
  for (const [i, p] of good.entries()) {
    const line = row(p, i % 10 === 0 ? 'full' : 100, { byRef: i % 7 === 3 });
    goodLines.push(line);
    add(line, 'will_refund');
  }
  for (let i = 0; i < 20; i += 1) add(goodLines[i * 3]!, 'duplicate');
  // "A previous batch" refunded 10 of the good rows (their keys given as done): already refunded.
  for (let i = 0; i < 10; i += 1)
    done.push({ index: goodStart + 1 + i * 4, transactionNo: good[1 + i * 4]!.transactionNo });
  expect(lines).toHaveLength(300);
  return { text: [HEADER, ...lines].join('\r\n'), expected, done };
}

beforeAll(async () => {
  sb = await startSandbox({ seed: 27, transactions: 1500, refundSettleMs: 30 });
  built = await build();
}, 120_000);
afterAll(() => sb.close());

describe('refund batch dry run against the sandbox', () => {
  it('classifies each of 300 rows as built, every class present; totals are its will-refund rows; nothing is sent', async () => {
    const log = createFakeLogger();
    const storage = openAppStorage({ dataDir, now: Date.now, log });
    const gateway = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log,
      config: () => ({
        baseUrl: sb.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        token: DEMO_MERCHANT.token,
      }),
    });
    const account = {
      environment: 'custom',
      baseUrl: sb.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
    };
    // Keys of the rows a previous batch refunded, made from the rows as the file says them.
    // (Split by hand: the file has no quotes, and a line's index is its row's.)
    const cellsOf = (i: number) => built.text.split('\r\n')[i + 1]!.split(',');
    const done = new Map(
      built.done.map(({ index, transactionNo }) => {
        const c = cellsOf(index);
        const ccy = c[3] as Currency;
        const amount =
          c[2] === 'full'
            ? ('full' as const)
            : { minor: Math.round(Number(c[2]) * 10 ** (formatMinor(1, ccy).split('.')[1]?.length ?? 0)) };
        const r = {
          line: 0,
          amount,
          currency: ccy,
          reason: c[4]!,
          ...(c[1] ? { reference: c[1] } : {}),
          ...(c[0] ? { transactionNo: c[0] } : {}),
        };
        return [rowKey(account, r, transactionNo, sha256Hex), 'B-PREVIOUS'] as const;
      }),
    );
    for (const { index } of built.done) built.expected[index] = 'already_refunded';
    // Team mode: GBP rows are above a limit of 0.50 GBP; every other currency's limit is high.
    const limits = Object.fromEntries(CURRENCIES.map((c) => [c, c === 'GBP' ? 50 : 10 ** 12])) as Record<
      Currency,
      number
    >;
    const gbp = built.expected.flatMap((cls, i) =>
      cls === 'will_refund' && cellsOf(i)[3] === 'GBP' ? [i] : [],
    );
    for (const i of gbp) built.expected[i] = 'needs_approval';
    const refundsBefore = sb.state.counts().refunds;
    try {
      const service = createBatchDryRun({
        profile: () => ({ ...account, profileId: 'p', profileName: 'Shop', moneyMode: 'local' }),
        gatewayFor: () => gateway,
        intentsOf: (a, no) => refundStoreOn(storage.intents).forPayment(a.merchantNo, a.storeNo, no),
        doneKeys: async () => done,
        approvalLimits: () => limits,
        clock: { now: Date.now },
      });
      const r = await service.dryRun('p', { name: 'batch.csv', bytes: new TextEncoder().encode(built.text) });
      expect(r.dataRows).toBe(300);
      expect(r.rowsRead + r.unusableRows).toBe(300);
      expect(r.rows.map((x) => x.class)).toEqual(built.expected);
      const present = new Set(r.rows.map((x) => x.class));
      for (const cls of [
        'will_refund',
        'needs_approval',
        'already_refunded',
        'duplicate',
        'nothing_remains',
        'exceeds_remaining',
        'not_successful',
        'other_currency',
        'unknown_id',
        'in_progress',
        'unusable',
      ] as const)
        expect(present, cls).toContain(cls);
      expect(gbp.length).toBeGreaterThan(0);
      for (const t of r.totals) {
        const rows = r.rows.filter((x) => x.class === 'will_refund' && x.currency === t.currency);
        expect(t.amountMinor).toBe(rows.reduce((a, x) => a + x.amountMinor!, 0));
        expect(t.rows).toBe(rows.length);
      }
      // A `full` row is the payment's whole amount here (nothing was refunded of it).
      const full = r.rows.find((x) => x.full && x.class === 'will_refund')!;
      expect(full.amountMinor).toBe(sb.state.payment(full.transactionNo!)!.amountMinor);
      expect(sb.state.counts().refunds).toBe(refundsBefore);
    } finally {
      storage.close();
    }
  });

  it('queries every payment fresh unless told to reuse answers of the last minutes; intents are read again either way', async () => {
    const log = createFakeLogger();
    const storage = openAppStorage({ dataDir, now: Date.now, log });
    const real = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log,
      config: () => ({
        baseUrl: sb.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        token: DEMO_MERCHANT.token,
      }),
    });
    let queries = 0;
    const account = {
      environment: 'custom',
      baseUrl: sb.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
    };
    let intentReads = 0;
    try {
      const service = createBatchDryRun({
        profile: () => ({ ...account, profileId: 'p', profileName: 'Shop', moneyMode: 'local' }),
        gatewayFor: () => ({ queryTransaction: (k, o) => ((queries += 1), real.queryTransaction(k, o)) }),
        intentsOf: (a, no) => (
          (intentReads += 1),
          refundStoreOn(storage.intents).forPayment(a.merchantNo, a.storeNo, no)
        ),
        clock: { now: Date.now },
      });
      const file = { name: 'batch.csv', bytes: new TextEncoder().encode(built.text) };
      const first = await service.dryRun('p', file);
      const distinct = queries;
      const readsOnce = intentReads;
      expect(first.queried).toBe(distinct);
      const reused = await service.dryRun('p', file, { reuseWithinMs: 60_000 });
      expect(queries).toBe(distinct);
      expect(reused).toMatchObject({ queried: 0, reused: distinct });
      expect(reused.rows.map((r) => r.class)).toEqual(first.rows.map((r) => r.class));
      expect(readsOnce).toBeGreaterThan(0);
      expect(intentReads).toBe(2 * readsOnce);
      await service.dryRun('p', file);
      expect(queries).toBe(2 * distinct);
    } finally {
      storage.close();
    }
  });

  it('cli refund-batch --dry-run: exit 1 when rows are refused, the report has every row, nothing is sent', async () => {
    const file = join(dataDir, 'batch.csv');
    writeFileSync(file, built.text);
    const out = join(dataDir, 'report.csv');
    const before = sb.state.counts().refunds;
    const o = io();
    expect(
      await runCli(['refund-batch', file, ...conn(), '--dry-run', '--out', out], o),
      o.stderr.join('\n'),
    ).toBe(1);
    expect(sb.state.counts().refunds).toBe(before);
    expect(o.stdout[0]).toBe('batch.csv: 300 data rows — 280 read, 20 cannot be used');
    expect(o.stdout.join('\n')).toMatch(/Dry run: nothing was sent/);
    expect(o.stdout.join('\n')).toMatch(/Refund in progress: 8/);
    const report = parseCsvText(readFileSync(out, 'utf8'));
    expect(report.rows).toHaveLength(300);
    expect(report.headers.slice(0, 3)).toEqual(['Line', 'Class', 'Class code']);
    const codes = report.rows.map((x) => x.cells[2]);
    expect(codes.filter((c) => c === 'in_progress')).toHaveLength(8);
    expect(codes.filter((c) => c === 'nothing_remains')).toHaveLength(8);
  });

  it('cli refund-batch --dry-run: exit 0 when every row would be refunded; 2 for bad input', async () => {
    const good = built.text
      .split('\r\n')
      .filter(
        (l, i) =>
          i === 0 ||
          built.expected[i - 1] === 'will_refund' ||
          built.expected[i - 1] === 'needs_approval' ||
          built.expected[i - 1] === 'already_refunded',
      );
    const file = join(dataDir, 'good.csv');
    writeFileSync(file, good.join('\r\n'));
    const ok = io();
    expect(await runCli(['refund-batch', file, ...conn(), '--dry-run'], ok), ok.stdout.join('\n')).toBe(0);
    expect(ok.stdout.join('\n')).toMatch(/Would refund: /);

    // Neither or both of --dry-run and --yes, or --total without --yes: bad input, nothing sent.
    const before = sb.state.counts().refunds;
    for (const flags of [[], ['--dry-run', '--yes'], ['--dry-run', '--total', '1.00 USD']]) {
      const bad = io();
      expect(await runCli(['refund-batch', file, ...conn(), ...flags], bad), flags.join(' ')).toBe(2);
    }
    expect(sb.state.counts().refunds).toBe(before);
    // Team mode (--database-url) at a team database that cannot be reached: exit 5, nothing sent.
    const team = io();
    expect(
      await runCli(
        ['refund-batch', file, ...conn(), '--yes', '--database-url', 'postgres://nobody@127.0.0.1:1/y'],
        team,
      ),
    ).toBe(5);
    expect(team.stderr.join('\n')).toMatch(/team database/);
    expect(sb.state.counts().refunds).toBe(before);

    const badMap = io();
    expect(
      await runCli(['refund-batch', file, ...conn(), '--dry-run', '--mapping', '{"amount":"Nope"}'], badMap),
    ).toBe(2);
    expect(badMap.stderr.join('\n')).toMatch(/could not be mapped/);

    const missing = io();
    expect(await runCli(['refund-batch', join(dataDir, 'nope.csv'), ...conn(), '--dry-run'], missing)).toBe(
      2,
    );
    expect(missing.stderr.join('\n')).toMatch(/cannot be read/);
  });
});
