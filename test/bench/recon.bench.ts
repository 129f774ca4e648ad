/**
 * Reconciliation at month-end scale, measured (never asserted):
 * - `recon 100k`: a 100k-row ledger (CSV bytes) parsed, its formats detected, mapped, matched and
 *   summarised against in-memory answers — the pure work the renderer's worker and the CLI do.
 * - `recon 100k two-way`: a 100k-row ledger reconciled both ways against a sandbox seeded with the
 *   store's payments over real loopback HTTP — the app's own service, as `cli reconcile --from --to`
 *   runs it: the period's list (15-day windows), lookups of what the list does not answer, matching,
 *   and the record written (in-memory SQLite).
 * - `recon 100k xlsx`: the same 100k rows as an Excel workbook and as CSV, each from the file's bytes to
 *   the report (open + read, formats + map, match + summary), side by side (`npm run bench -- recon-xlsx`).
 * Run alone: `npx tsx test/bench/recon.bench.ts [pure|two-way|xlsx]`.
 */
import type { Currency } from '../../shared/domain/currencies';
import { reconcileInMemory } from '../../electron/hosts/cli/recon-run';
import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { createGatewayClient } from '../../electron/core/services/gateway/client';
import { prepareLedger } from '../../electron/core/services/reconciliation/pipeline';
import { DEMO_MERCHANT, startSandbox, type PaymentRecord } from '../../electron/sandbox/index';
import { parseCsvBytes, type ParsedCsv } from '../../shared/csv/parser';
import { openWorkbook } from '../../shared/csv/xlsx-read';
import { formatMinor } from '../../shared/domain/money';
import type { Transaction } from '../../shared/domain/transaction';
import { detectFormats, formatsFrom, toLedgerRows } from '../../shared/recon/ledger';
import { guessMapping } from '../../shared/recon/mapping';
import type { ServiceAnswer } from '../../shared/recon/match';
import { DEFAULT_REFUND_LOOKBACK_DAYS } from '../../shared/recon/period';
import { buildReport, detailAmount } from '../../shared/recon/report';
import { type Figure, ms, perSec, printTable, time } from './harness';

const ROWS = 100_000;
const CURRENCIES: readonly Currency[] = ['USD', 'CNY', 'JPY', 'GBP'];
const FETCHED = '2025-07-01T00:00:00.000Z';

/** A month-end ledger of ROWS rows and what the service says of each (a few amounts off, a few unknown). */
function monthEnd() {
  const lines = ['Date,Order ID,Transaction No,Amount,Currency,Status'];
  const answers = new Map<string, ServiceAnswer>();
  for (let i = 0; i < ROWS; i += 1) {
    const no = `2975536383${String(i).padStart(8, '0')}`;
    const currency = CURRENCIES[i % CURRENCIES.length] ?? 'USD';
    const amountMinor = 100 + ((i * 7919) % 500_000);
    lines.push(
      `2025-06-${String((i % 28) + 1).padStart(2, '0')},SO-${i},${no},${formatMinor(amountMinor, currency)},${currency},Paid`,
    );
    const tx: Transaction = {
      transactionNo: no,
      amountMinor: i % 97 === 0 ? amountMinor + 1 : amountMinor,
      currency,
      status: 'success',
      transactionType: 'payment',
      refunds: [],
      paidAt: `2025-06-${String((i % 28) + 1).padStart(2, '0')}T04:00:00.000Z`,
    };
    answers.set(
      `tx:${no}`,
      i % 501 === 0
        ? { kind: 'not_found', source: 'lookup', fetchedAt: FETCHED }
        : { kind: 'found', transaction: tx, source: 'lookup', fetchedAt: FETCHED },
    );
  }
  return { lines, answers };
}

/** Formats, mapping and the report of parsed records: what follows reading the file, CSV or workbook. */
async function toReport(parsed: ParsedCsv, answers: ReadonlyMap<string, ServiceAnswer>) {
  const map = await time(() => {
    const mapping = guessMapping(parsed.headers);
    return toLedgerRows(parsed, mapping, formatsFrom(detectFormats(parsed, mapping)));
  });
  const match = await time(() =>
    buildReport({
      rows: map.value.rows,
      unusable: map.value.unusable,
      answer: (k) => answers.get(k),
      listed: [],
      listing: 'none',
      options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
      fmt: detailAmount,
    }),
  );
  return { map, match };
}

/**
 * The same 100k rows as a workbook (written by exceljs as Excel would store them: ids as text, amounts
 * as numbers, dates as date cells) and as CSV, each timed from its bytes to the report.
 */
export async function reconXlsxBench(): Promise<Figure[]> {
  const { lines, answers } = monthEnd();
  const csvBytes = new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
  const { default: ExcelJS } = await import('exceljs');
  const wb = new ExcelJS.Workbook();
  const ws = wb.addWorksheet('Ledger');
  ws.addRow(lines[0]!.split(','));
  for (const line of lines.slice(1)) {
    const [date = '', order, no, amount, currency, status] = line.split(',');
    ws.addRow([new Date(`${date}T00:00:00Z`), order, no, Number(amount), currency, status]);
  }
  const xlsxBytes = new Uint8Array(await wb.xlsx.writeBuffer());
  const csvRead = await time(() => parseCsvBytes(csvBytes));
  const csv = await toReport(csvRead.value, answers);
  const xlsxRead = await time(async () => (await openWorkbook(xlsxBytes)).read());
  const xlsx = await toReport(xlsxRead.value, answers);
  const same =
    csv.match.value.summary.exceptions === xlsx.match.value.summary.exceptions &&
    csv.map.value.rows.length === xlsx.map.value.rows.length;
  const total = (r: { ms: number }, t: typeof csv) => r.ms + t.map.ms + t.match.ms;
  const bench = 'recon 100k xlsx';
  return [
    {
      bench,
      metric: 'xlsx: open + read sheet (exceljs)',
      value: ms(xlsxRead.ms),
      note: `${(xlsxBytes.length / 1e6).toFixed(1)} MB workbook, ${perSec(ROWS, xlsxRead.ms)}`,
    },
    { bench, metric: 'xlsx: formats + map + match + summary', value: ms(xlsx.map.ms + xlsx.match.ms) },
    {
      bench,
      metric: 'xlsx: bytes to report',
      value: ms(total(xlsxRead, xlsx)),
      note: same ? 'same report as the CSV' : 'REPORT DIFFERS FROM THE CSV',
    },
    {
      bench,
      metric: 'csv: bytes to report (same rows)',
      value: ms(total(csvRead, csv)),
      note: `${(csvBytes.length / 1e6).toFixed(1)} MB CSV`,
    },
  ];
}

export async function reconBench(): Promise<Figure[]> {
  const { lines, answers } = monthEnd();
  const bytes = new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);
  const parse = await time(() => parseCsvBytes(bytes));
  const map = await time(() => {
    const mapping = guessMapping(parse.value.headers);
    return toLedgerRows(parse.value, mapping, formatsFrom(detectFormats(parse.value, mapping)));
  });
  const match = await time(() =>
    buildReport({
      rows: map.value.rows,
      unusable: map.value.unusable,
      answer: (k) => answers.get(k),
      listed: [],
      listing: 'none',
      options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
      fmt: detailAmount,
    }),
  );
  const total = parse.ms + map.ms + match.ms;
  const mb = (bytes.length / 1e6).toFixed(1);
  return [
    {
      bench: 'recon 100k',
      metric: 'parse (decode + CSV reader)',
      value: ms(parse.ms),
      note: `${mb} MB, ${perSec(ROWS, parse.ms)}`,
    },
    {
      bench: 'recon 100k',
      metric: 'formats + map to ledger rows',
      value: ms(map.ms),
      note: `${map.value.rows.length} rows, ${map.value.unusable.length} unusable`,
    },
    {
      bench: 'recon 100k',
      metric: 'match + summary (with dates)',
      value: ms(match.ms),
      note: `${match.value.summary.exceptions} exceptions`,
    },
    { bench: 'recon 100k', metric: 'parse + map + match + summary', value: ms(total) },
  ];
}

const UTC8_DAY = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/**
 * The store's books over the sandbox's 90 days: every paid, closed or failed payment (refunded ones
 * marked so), with planted differences — one in 250 amounts off by 1.00, one in 400 payments left out,
 * 100 rows the service never had and 50 ids Excel shortened.
 */
function twoWayLedger(payments: readonly PaymentRecord[]) {
  const store = payments
    .filter((p) => p.merchantNo === DEMO_MERCHANT.merchantNo && p.storeNo === DEMO_MERCHANT.storeNo)
    .filter((p) => p.status === 'success' || p.status === 'closed' || p.status === 'failed');
  const lines = ['Date,Order ID,Transaction No,Amount,Currency,Status'];
  let left = 0;
  for (const [i, p] of store.entries()) {
    if (i % 400 === 7) {
      left += 1; // left out of the books: the service has it, the ledger does not
      continue;
    }
    const amount = i % 250 === 3 ? p.amountMinor + 100 : p.amountMinor;
    const status = p.status !== 'success' ? 'Cancelled' : p.refunds.length > 0 ? 'Refunded' : 'Paid';
    lines.push(
      `${UTC8_DAY(p.createdAt)},SO-${i},${p.transactionNo},${formatMinor(amount, p.currency)},${p.currency},${status}`,
    );
  }
  for (let i = 0; i < 100; i += 1)
    lines.push(`2025-06-10,SO-M${i},2975536383${String(i).padStart(8, '0')},1.00,USD,Paid`);
  for (let i = 0; i < 50; i += 1) lines.push(`2025-06-10,SO-X${i},5.${39117 + i}E+17,1.00,USD,Paid`);
  const dates = store.map((p) => UTC8_DAY(p.createdAt)).sort();
  return {
    bytes: new TextEncoder().encode(`${lines.join('\r\n')}\r\n`),
    dataRows: lines.length - 1,
    leftOut: left,
    period: { from: dates[0] ?? '', to: dates.at(-1) ?? '' },
  };
}

/** The figures of a 100k-row two-way run against the sandbox. */
export async function reconTwoWayBench(): Promise<Figure[]> {
  const seeded = await time(() =>
    startSandbox({ seed: 7, transactions: 192_000, now: () => Date.UTC(2025, 6, 1) }),
  );
  const sandbox = seeded.value;
  try {
    const ledger = twoWayLedger(sandbox.state.snapshot().payments);
    const prepare = await time(() => prepareLedger(ledger.bytes, 'ledger-100k.csv'));
    const gateway = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log: { info: () => undefined, warn: () => undefined, error: () => undefined },
      config: () => ({ baseUrl: sandbox.baseUrl, ...DEMO_MERCHANT }),
      timeoutMs: 60_000,
    });
    const phases: Record<string, number> = {};
    let phase = '';
    let since = performance.now();
    const run = await time(() =>
      reconcileInMemory(prepare.value, {
        gateway,
        clock: { now: Date.now },
        options: {
          period: ledger.period,
          days: 'service',
          timeZone: 'UTC',
          dateToleranceDays: 1,
          refundLookbackDays: DEFAULT_REFUND_LOOKBACK_DAYS,
        },
        profileName: 'bench',
        onProgress: (p) => {
          if (p.phase === phase) return;
          if (phase) phases[phase] = (phases[phase] ?? 0) + performance.now() - since;
          phase = p.phase;
          since = performance.now();
        },
      }),
    );
    const { facts, summary } = run.value;
    const c = summary.counts;
    const counts = Object.entries(c)
      .filter(([, n]) => n > 0)
      .map(([o, n]) => `${o} ${n}`)
      .join(', ');
    const b = 'recon 100k two-way';
    return [
      { bench: b, metric: 'sandbox seeded', value: ms(seeded.ms), note: '192,000 payments (all merchants)' },
      {
        bench: b,
        metric: 'prepare (parse, formats, map)',
        value: ms(prepare.ms),
        note: `${ledger.dataRows} data rows: ${summary.read} read, ${summary.unusable} unusable`,
      },
      {
        bench: b,
        metric: 'list the period',
        value: ms(phases['listing'] ?? 0),
        note: `${facts.listing.windows} windows, ${facts.listing.payments} payments (${ledger.period.from}…${ledger.period.to} + ${DEFAULT_REFUND_LOOKBACK_DAYS} d)`,
      },
      {
        bench: b,
        metric: 'look up the rest',
        value: ms(phases['lookups'] ?? 0),
        note: `${facts.lookups.asked} lookups (rows the list does not answer)`,
      },
      { bench: b, metric: 'match + write the record', value: ms(phases['matching'] ?? 0) },
      {
        bench: b,
        metric: 'whole run (as cli reconcile --from --to)',
        value: ms(run.ms),
        note: `${run.value.items.length} report items`,
      },
      { bench: b, metric: 'outcomes', value: String(summary.exceptions), note: counts },
    ];
  } finally {
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const which = process.argv[2];
  void (async () => {
    const figures =
      which === 'xlsx'
        ? await reconXlsxBench()
        : [
            ...(which === 'two-way' ? [] : await reconBench()),
            ...(which === 'pure' ? [] : await reconTwoWayBench()),
          ];
    printTable(figures);
  })();
}
