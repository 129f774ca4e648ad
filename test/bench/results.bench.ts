/**
 * The figures with their floors, measured in the same run and written to test/bench/results.json
 * (`npm run bench -- results`). Each is ≥ 5 runs, alternating the figure and its floor so both see the
 * same machine. Never asserted: tests stay deterministic; this file is evidence.
 *
 * Floors: one MD5 of the final signing string (signing), pandas on the same files (reconciliation) and
 * Python's csv module (CSV export), run by Debian's /usr/bin/python3 when it has them; skipped with a
 * note when not.
 */
import type { Currency } from '../../shared/domain/currencies';
import { execFileSync } from 'node:child_process';
import { hash } from 'node:crypto';
import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { parseCsvBytes } from '../../shared/csv/parser';
import { type CsvColumn, writeCsv } from '../../shared/csv/writer';
import { writeXlsx } from '../../shared/csv/xlsx';
import { formatMinor } from '../../shared/domain/money';
import type { Transaction } from '../../shared/domain/transaction';
import { computeVerifySign, signingString } from '../../shared/protocol/signing';
import { detectFormats, formatsFrom, toLedgerRows } from '../../shared/recon/ledger';
import { guessMapping } from '../../shared/recon/mapping';
import type { ServiceAnswer } from '../../shared/recon/match';
import { buildReport, detailAmount } from '../../shared/recon/report';
import type { Figure } from './harness';
import { coldStart } from './cold-start.bench';
import { networkResults } from './network.bench';
import { writeResults } from './results-file';

export interface Result {
  name: string;
  size: number;
  unit: string;
  median: number;
  min: number;
  max: number;
  runs: number;
  /** The same work done by the floor or peer, same run; null when none exists or it could not run. */
  floor: number | null;
  ratio: number | null;
  goal: string;
  met: boolean | null;
  note?: string;
}

const RUNS = 5;
const PY = '/usr/bin/python3';

const median = (xs: number[]) => {
  const s = [...xs].sort((a, b) => a - b);
  return s[Math.floor(s.length / 2)] ?? NaN;
};
const round = (v: number) => Math.round(v * 100) / 100;

async function timed(fn: () => unknown): Promise<number> {
  const t0 = performance.now();
  await fn();
  return performance.now() - t0;
}

export function result(
  base: Pick<Result, 'name' | 'size' | 'unit' | 'goal'> & { note?: string },
  samples: number[],
  floorSamples: number[] | null,
  met: (median: number, ratio: number | null) => boolean | null,
): Result {
  const m = median(samples);
  const floor = floorSamples && floorSamples.length > 0 ? median(floorSamples) : null;
  const ratio = floor ? round(m / floor) : null;
  return {
    ...base,
    median: round(m),
    min: round(Math.min(...samples)),
    max: round(Math.max(...samples)),
    runs: samples.length,
    floor: floor === null ? null : round(floor),
    ratio,
    met: met(m, ratio),
  };
}

/** Runs a Python snippet that prints its own elapsed milliseconds (interpreter start excluded). */
function python(script: string, args: string[]): number | null {
  try {
    const out = execFileSync(PY, ['-c', script, ...args], { encoding: 'utf8', timeout: 120_000 });
    const v = Number(out.trim().split('\n').at(-1));
    return Number.isFinite(v) ? v : null;
  } catch {
    return null;
  }
}
const hasPython = (module: string) => existsSync(PY) && python(`import ${module}\nprint(0)`, []) !== null;

// —— signing ——
async function signing(): Promise<Result> {
  const n = 100_000;
  const params = (i: number) => ({
    merchantNo: '200043',
    storeNo: '300014',
    transactionNo: '297553638300708562',
    amount: '10.00',
    currency: 'USD',
    reference: `r${i}`,
  });
  // Both sides start from data that already exists: the params (ours) and the final strings (the floor).
  const all = Array.from({ length: n }, (_, i) => params(i));
  const strings = all.map((p) => signingString(p, 'token-0001'));
  const sign: number[] = [];
  const md5: number[] = [];
  for (let r = 0; r < RUNS; r += 1) {
    sign.push(
      await timed(() => {
        for (let i = 0; i < n; i += 1) computeVerifySign(all[i]!, 'token-0001');
      }),
    );
    md5.push(
      await timed(() => {
        // The fastest one MD5 in Node (one-shot, no Hash object): signing uses it too, so the ratio is
        // what building the string costs, not which hashing call each side happens to use.
        for (let i = 0; i < n; i += 1) hash('md5', strings[i]!, 'hex');
      }),
    );
  }
  return result(
    {
      name: 'sign_ratio_to_md5',
      size: n,
      unit: 'ms',
      goal: 'ratio ≤ 2 (one MD5 of the final string)',
      note: 'floor: crypto.hash md5 of the prepared final strings; ours: computeVerifySign from the params',
    },
    sign,
    md5,
    (_m, ratio) => (ratio === null ? null : ratio <= 2),
  );
}

// —— reconciliation vs pandas ——
const PANDAS = `
import sys, time
import pandas as pd
ledger_path, service_path = sys.argv[1], sys.argv[2]
t0 = time.perf_counter()
ledger = pd.read_csv(ledger_path, dtype={'Transaction No': str})
service = pd.read_csv(service_path, dtype={'transactionNo': str})
m = ledger.merge(service, left_on='Transaction No', right_on='transactionNo', how='outer', indicator=True)
m['differs'] = (m['_merge'] == 'both') & ((m['Amount'] - m['amount']).abs() > 1e-9)
summary = m.groupby('Currency', dropna=False).agg(ledger=('Amount', 'sum'), service=('amount', 'sum'), differs=('differs', 'sum'))
back = service.merge(ledger, left_on='transactionNo', right_on='Transaction No', how='left', indicator=True)
missing = int((back['_merge'] == 'left_only').sum())
print((time.perf_counter() - t0) * 1000)
`;

async function reconcile(): Promise<Result> {
  const ROWS = 100_000;
  const CURRENCIES: readonly Currency[] = ['USD', 'CNY', 'JPY', 'GBP'];
  const FETCHED = '2025-07-01T00:00:00.000Z';
  const lines = ['Date,Order ID,Transaction No,Amount,Currency,Status'];
  const serviceLines = ['transactionNo,amount,currency,status'];
  const answers = new Map<string, ServiceAnswer>();
  for (let i = 0; i < ROWS; i += 1) {
    const no = `2975536383${String(i).padStart(8, '0')}`;
    const currency = CURRENCIES[i % CURRENCIES.length] ?? 'USD';
    const amountMinor = 100 + ((i * 7919) % 500_000);
    const day = String((i % 28) + 1).padStart(2, '0');
    lines.push(`2025-06-${day},SO-${i},${no},${formatMinor(amountMinor, currency)},${currency},Paid`);
    const serviceMinor = i % 97 === 0 ? amountMinor + 1 : amountMinor;
    if (i % 501 !== 0) serviceLines.push(`${no},${formatMinor(serviceMinor, currency)},${currency},success`);
    const tx: Transaction = {
      transactionNo: no,
      amountMinor: serviceMinor,
      currency,
      status: 'success',
      transactionType: 'payment',
      refunds: [],
      paidAt: `2025-06-${day}T04:00:00.000Z`,
    };
    answers.set(
      `tx:${no}`,
      i % 501 === 0
        ? { kind: 'not_found', source: 'lookup', fetchedAt: FETCHED }
        : { kind: 'found', transaction: tx, source: 'lookup', fetchedAt: FETCHED },
    );
  }
  const ledgerText = `${lines.join('\r\n')}\r\n`;
  const bytes = new TextEncoder().encode(ledgerText);
  const dir = mkdtempSync(join(tmpdir(), 'rd-results-'));
  const ledgerPath = join(dir, 'ledger.csv');
  const servicePath = join(dir, 'service.csv');
  writeFileSync(ledgerPath, ledgerText);
  writeFileSync(servicePath, `${serviceLines.join('\n')}\n`);
  const withPandas = hasPython('pandas');
  const ours: number[] = [];
  const peer: number[] = [];
  for (let r = 0; r < RUNS; r += 1) {
    ours.push(
      await timed(() => {
        const parsed = parseCsvBytes(bytes);
        const mapping = guessMapping(parsed.headers);
        const mapped = toLedgerRows(parsed, mapping, formatsFrom(detectFormats(parsed, mapping)));
        return buildReport({
          rows: mapped.rows,
          unusable: mapped.unusable,
          answer: (k) => answers.get(k),
          listed: [],
          listing: 'none',
          options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
          fmt: detailAmount,
        });
      }),
    );
    if (withPandas) {
      const v = python(PANDAS, [ledgerPath, servicePath]);
      if (v !== null) peer.push(v);
    }
  }
  rmSync(dir, { recursive: true, force: true });
  return result(
    {
      name: 'reconcile_100k_ms',
      size: ROWS,
      unit: 'ms',
      goal: 'ratio ≤ 1.0 (pandas read_csv ×2 + merge + compare + per-currency summary)',
      ...(withPandas ? {} : { note: `pandas is not installed for ${PY}: no floor this run` }),
    },
    ours,
    withPandas ? peer : null,
    (_m, ratio) => (ratio === null ? null : ratio <= 1),
  );
}

// —— exports ——
const PY_CSV = `
import csv, io, sys, time
n = int(sys.argv[1])
rows = [(str(2975536383000000000 + i), 'INV-%d' % i, '%d.%02d' % (i % 5000, i % 100), 'USD', 'success') for i in range(n)]
t0 = time.perf_counter()
buf = io.StringIO()
w = csv.writer(buf)
w.writerow(['transactionNo', 'reference', 'amount', 'currency', 'status'])
w.writerows(rows)
text = buf.getvalue()
print((time.perf_counter() - t0) * 1000)
`;

interface Row {
  transactionNo: string;
  reference: string;
  amountMinor: number;
  currency: Currency;
  status: string;
}
const EXPORT_COLUMNS: CsvColumn<Row>[] = [
  { header: 'Transaction no.', kind: 'id', value: (r) => r.transactionNo },
  { header: 'Reference', kind: 'id', value: (r) => r.reference },
  { header: 'Amount', kind: 'amount', value: (r) => formatMinor(r.amountMinor, r.currency) },
  { header: 'Currency', kind: 'text', value: (r) => r.currency },
  { header: 'Status', kind: 'text', value: (r) => r.status },
];

async function exportsBench(): Promise<Result[]> {
  const n = 100_000;
  const rows: Row[] = Array.from({ length: n }, (_, i) => ({
    transactionNo: String(2975536383000000000n + BigInt(i)),
    reference: `INV-${i}`,
    amountMinor: (i % 5000) * 100 + (i % 100),
    currency: 'USD',
    status: 'success',
  }));
  const withCsv = existsSync(PY) && python('print(0)', []) !== null;
  const csv: number[] = [];
  const pyCsv: number[] = [];
  const xlsx: number[] = [];
  // The CSV runs alternate with their floor, all before the workbooks: exceljs leaves hundreds of MB of
  // garbage behind, and collecting it would land in whichever CSV run came next (in the app every
  // export runs in a fresh worker, with no one else's garbage).
  for (let r = 0; r < RUNS; r += 1) {
    csv.push(await timed(() => writeCsv(EXPORT_COLUMNS, rows)));
    if (withCsv) {
      const v = python(PY_CSV, [String(n)]);
      if (v !== null) pyCsv.push(v);
    }
  }
  for (let r = 0; r < RUNS; r += 1)
    xlsx.push(await timed(() => writeXlsx(EXPORT_COLUMNS, rows, { sheetName: 'Transactions' })));
  return [
    result(
      {
        name: 'csv_export_100k_ms',
        size: n,
        unit: 'ms',
        goal: "ratio ≤ 1.0 (Python's csv module, same rows)",
        note: 'ours also formats each amount from integer minor units and neutralises formulas; the Python rows are finished strings',
      },
      csv,
      withCsv ? pyCsv : null,
      (_m, ratio) => (ratio === null ? null : ratio <= 1),
    ),
    result(
      {
        name: 'xlsx_export_100k_node_ms',
        size: n,
        unit: 'ms',
        goal: 'none: a reference (the app writes workbooks in its renderer worker, xlsx_export_100k_ms)',
        note: 'writeXlsx alone in Node, the same columns and rows as the renderer figure',
      },
      xlsx,
      null,
      () => null,
    ),
  ];
}

export function tableOf(results: Result[]): Figure[] {
  return results.map((r) => ({
    bench: r.name,
    metric: `median of ${r.runs} (${r.size.toLocaleString('en-US')})`,
    value: `${r.median} ${r.unit}`,
    note: `${r.floor === null ? 'no floor' : `floor ${r.floor} ${r.unit}, ratio ${r.ratio}`}; goal ${r.goal}; ${r.met === null ? 'not judged' : r.met ? 'met' : 'missed'}${r.note ? `; ${r.note}` : ''}`,
  }));
}

/** The service and host figures (network, cold start): measured and written on their own. */
export async function networkBench(): Promise<Figure[]> {
  const results = [...(await networkResults()), await coldStart()];
  writeResults(results);
  return tableOf(results);
}

/** The host's cold start alone, beside its floor: `npm run bench -- cold-start`. */
export async function coldStartBench(): Promise<Figure[]> {
  const results = [await coldStart()];
  writeResults(results);
  return tableOf(results);
}

/** The export figures alone, printed and not written (`npm run bench -- exports`). */
export async function exportsOnlyBench(): Promise<Figure[]> {
  return tableOf(await exportsBench());
}

/** The reconciliation figure alone, beside its pandas floor: `npm run bench -- reconcile`. */
export async function reconcileBench(): Promise<Figure[]> {
  const results = [await reconcile()];
  writeResults(results);
  return tableOf(results);
}

/** Measures every figure of this suite, writes results.json, and returns the table rows. */
export async function resultsBench(): Promise<Figure[]> {
  const results: Result[] = [
    await signing(),
    await reconcile(),
    ...(await exportsBench()),
    ...(await networkResults()),
    await coldStart(),
  ];
  writeResults(results);
  return tableOf(results);
}
