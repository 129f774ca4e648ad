/**
 * Reconciliation as the whole job from files, both directions, every check — Refund Desk beside pandas
 * and DuckDB on the same files, each in a fresh process of its own (time from inside, peak RSS), runs
 * alternating. Every run's outcome counts and per-currency totals must equal Refund Desk's: reconcilers
 * that disagree are not doing the same work, and the bench stops rather than print their ratio.
 *
 * Figures: reconcile_100k_vs_pandas; reconcile_1m_vs_pandas, reconcile_1m_vs_duckdb,
 * reconcile_1m_peak_mb_vs_duckdb. `npm run bench -- recon`. BENCH_RECON_SIZES=10000 tries it small
 * (figures are then printed, not written).
 */
import { copyFileSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { CURRENCIES, currencyExponent } from '../../shared/domain/currencies';
import { loadNow, type Result, result, RUNS } from './figure';
import type { ReconData } from './peers/recon-data';
import {
  checkStatusWords,
  disagreement,
  PEER_STATUS_WORDS,
  type PeerAnswer,
  type ReconFiles,
} from './peers/recon-shared';
import { nodeSide, pythonHas, pythonSide } from './peers/spawn';

const EXPONENTS = Object.fromEntries(CURRENCIES.map((c) => [c, currencyExponent(c)]));

interface Side {
  ms: number[];
  cpu: number[];
  peaks: number[];
  errors: string[];
}
const side = (): Side => ({ ms: [], cpu: [], peaks: [], errors: [] });

function record(s: Side, out: ReturnType<typeof nodeSide<PeerAnswer>>, truth: () => PeerAnswer | undefined) {
  if (!out.ok) {
    s.errors.push(out.error);
    return;
  }
  const t = truth();
  const differs = t ? disagreement(t, out) : undefined;
  if (differs) throw new Error(`the reconcilers disagree, so their times are not comparable:\n${differs}`);
  s.ms.push(out.ms);
  s.cpu.push(out.cpuMs);
  s.peaks.push(out.peakMb);
}

/** Runs every side on `n` rows; `duck` adds DuckDB. */
function measure(n: number, duck: boolean) {
  const dir = mkdtempSync(join(tmpdir(), `rd-recon-${n}-`));
  try {
    const made = nodeSide<ReconData>('recon-data', { dir, rows: n });
    if (!made.ok) throw new Error(`the bench data could not be written: ${made.error}`);
    const files: ReconFiles = {
      ledger: made.ledger,
      payments: made.payments,
      refunds: made.refunds,
      startMs: made.startMs,
      endMs: made.endMs,
      toleranceDays: 1,
    };
    const ours = side();
    const pandas = side();
    const duckdb = side();
    let truth: PeerAnswer | undefined;
    const withPandas = pythonHas('pandas', 'numpy');
    for (let r = 0; r < RUNS; r += 1) {
      // A fresh copy of the database each run (the run is completed by it); no stale -wal beside it.
      const db = join(dir, `run-${r}.db`);
      copyFileSync(made.db, db);
      const o = nodeSide<PeerAnswer>('recon-ours', {
        db,
        runId: made.runId,
        ledger: made.ledger,
        createdMs: made.createdMs,
      });
      for (const f of [db, `${db}-wal`, `${db}-shm`]) rmSync(f, { force: true });
      if (o.ok && !truth) truth = o;
      record(ours, o, () => truth);
      if (withPandas)
        record(
          pandas,
          pythonSide<PeerAnswer>('recon_pandas.py', [
            files.ledger,
            files.payments,
            files.refunds,
            String(files.startMs),
            String(files.endMs),
            String(files.toleranceDays),
            JSON.stringify(EXPONENTS),
            JSON.stringify(PEER_STATUS_WORDS),
          ]),
          () => truth,
        );
      if (duck)
        record(duckdb, nodeSide<PeerAnswer>('recon-duckdb', { files, exponents: EXPONENTS }), () => truth);
      process.stderr.write(
        `  recon ${n}: ours ${ours.ms.map(Math.round).join(',')} pandas ${pandas.ms.map(Math.round).join(',')} duckdb ${duckdb.ms.map(Math.round).join(',')}\n`,
      );
    }
    return { ours, pandas, duckdb, withPandas, rows: made.rows, exceptions: truth };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

const errorsNote = (label: string, s: Side) =>
  s.errors.length ? ` ${label} failed ${s.errors.length}×: ${s.errors[0]}.` : '';
const counts = (a: PeerAnswer | undefined) =>
  a
    ? Object.entries(a.counts)
        .map(([o, k]) => `${o} ${k}`)
        .join(', ')
    : 'none';
const SAME =
  "the same files for every side: the ledger CSV, and the service list of the period + 30-day refund look-back (Refund Desk: the run's stored list windows in its SQLite database; pandas and DuckDB: payments.csv + refunds.csv); each side in a fresh process, timed from inside (start-up and imports excluded), peak = maxRSS; runs alternate; every run's outcome counts and per-currency totals equal Refund Desk's";

export async function reconcileResults(): Promise<Result[]> {
  checkStatusWords();
  const sizes = (process.env['BENCH_RECON_SIZES'] ?? '100000,1000000').split(',').map(Number);
  const out: Result[] = [];
  for (const n of sizes) {
    const load = loadNow();
    const big = n >= 1_000_000;
    const m = measure(n, big);
    const tag = n >= 1_000_000 ? '1m' : '100k';
    const note = `${SAME}. Outcomes: ${counts(m.exceptions)}.${errorsNote('Refund Desk', m.ours)}${errorsNote('pandas', m.pandas)}${errorsNote('DuckDB', m.duckdb)}${m.withPandas ? '' : ' pandas is not installed for /usr/bin/python3 (apt-get install python3-pandas).'}`;
    out.push(
      result(
        {
          name: `reconcile_${tag}_vs_pandas`,
          size: m.rows,
          unit: 'ms',
          goal: 'ratio ≤ 1.0 (pandas: read both files, merge both ways, every check, per-currency summary)',
          note,
        },
        {
          ours: m.ours.ms,
          floor: m.pandas.ms,
          peaks: m.ours.peaks,
          floorPeaks: m.pandas.peaks,
          cpu: m.ours.cpu,
          floorCpu: m.pandas.cpu,
        },
        load,
        (_m, ratio) => (ratio === null ? null : ratio <= 1),
      ),
    );
    if (!big) continue;
    out.push(
      result(
        {
          name: 'reconcile_1m_vs_duckdb',
          size: m.rows,
          unit: 'ms',
          goal: 'ratio ≤ 2.0 (DuckDB, the same checks in SQL)',
          note,
        },
        {
          ours: m.ours.ms,
          floor: m.duckdb.ms,
          peaks: m.ours.peaks,
          floorPeaks: m.duckdb.peaks,
          cpu: m.ours.cpu,
          floorCpu: m.duckdb.cpu,
        },
        load,
        (_m, ratio) => (ratio === null ? null : ratio <= 2),
      ),
      result(
        {
          name: 'reconcile_1m_peak_mb_vs_duckdb',
          size: m.rows,
          unit: 'MB',
          goal: "ratio ≤ 1.5 (DuckDB's peak resident memory for the same job)",
          note,
        },
        { ours: m.ours.peaks, floor: m.duckdb.peaks },
        load,
        (_m, ratio) => (ratio === null ? null : ratio <= 1.5),
      ),
    );
  }
  return out;
}
