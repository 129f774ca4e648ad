/**
 * A measurement, not part of `npm run bench`: what the matching's join would cost in DuckDB fed from
 * the run's own rows (its appender), beside the matching as the app does it, on the same stored run.
 * Answers the "if a well-kept engine does the join better in main, use it: measure both".
 *
 *   node --import tsx test/bench/peers/recon-duckdb-join.ts <bench data dir>   (copy of its db is used)
 *
 * DuckDB's side is only the join and the per-row outcome of rows keyed by transaction number (the
 * bench's ledger has no other), read back as columns; the items, their sentences and the summary would
 * still be made in JS from those columns. Ours is the whole matching: index, positions, items, summary.
 * Rows the list does not answer are not looked up here: ours says not_checked where the run, having
 * asked the service, says missing_at_service (DuckDB's word for them); every other count is compared.
 */
import { copyFileSync, readFileSync, rmSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { DuckDBInstance } from '@duckdb/node-api';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { listedWithPlaces } from '../../../electron/core/services/reconciliation/listing';
import { listPositions } from '../../../electron/core/services/reconciliation/run';
import { parseCsvBytes } from '../../../shared/csv/parser';
import { epochDay, instantMs } from '../../../shared/recon/dates';
import { detectFormats, formatsFrom, toLedgerRows } from '../../../shared/recon/ledger';
import { chooseMapping } from '../../../shared/recon/mapping';
import { refundCounts } from '../../../shared/recon/match';
import { buildReport, detailAmount } from '../../../shared/recon/report';

const cpu = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return Math.round((u.user + u.system) / 1000);
};
const timed = async <T>(what: string, fn: () => Promise<T> | T): Promise<T> => {
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const out = await fn();
  console.log(`${what}: ${Math.round(performance.now() - t0)} ms wall, ${cpu(c0)} ms CPU`);
  return out;
};

async function main(): Promise<void> {
  const dir = process.argv[2] ?? '/tmp/rp/cur';
  const meta = JSON.parse(readFileSync(`${dir}/meta.json`, 'utf8')) as { runId: string };
  const file = `/tmp/recon-duckdb-join-${process.pid}.db`;
  copyFileSync(`${dir}/refund-desk.db`, file);
  const db = openDatabase(file, MIGRATIONS);
  const runs = createSqliteRunStore(db);
  const facts = runs.get(meta.runId)!.facts;
  // The ledger as the run would hold it (the bench hands it over from the file; see child.ts).
  const parsed = parseCsvBytes(readFileSync(`${dir}/ledger.csv`));
  const mapping = chooseMapping(parsed.headers);
  const input = toLedgerRows(parsed, mapping, formatsFrom(detectFormats(parsed, mapping)));
  const windows = runs.readWindows(meta.runId);
  const { rows } = input;

  const ours = await timed('ours: index + positions + matching both ways (items, summary)', () => {
    const { listed, index } = listedWithPlaces(windows);
    const positions = listPositions(rows, index, listed);
    return buildReport({
      rows,
      unusable: input.unusable,
      answer: () => undefined,
      answerAt: (i) => (positions[i]! >= 0 ? listed.answer(positions[i]!) : undefined),
      listed,
      listedUnique: true,
      listedAt: (i) => positions[i]!,
      listedPositionOf: (no) => index.positionBy(true, no),
      listing: 'complete',
      options: facts.options,
      fmt: detailAmount,
    });
  });

  const { listed } = listedWithPlaces(windows);
  const duck = await DuckDBInstance.create(':memory:');
  const c = await duck.connect();
  await c.run(
    `CREATE TABLE ledger (i INTEGER, tx VARCHAR, amt BIGINT, cur VARCHAR, st VARCHAR, day INTEGER)`,
  );
  await c.run(
    `CREATE TABLE pay (p INTEGER, tx VARCHAR, amt BIGINT, cur VARCHAR, st VARCHAR, paid BIGINT, refunded BIGINT)`,
  );
  await timed('duckdb: appender, ledger rows + listed payments', async () => {
    const a = await c.createAppender('ledger');
    for (let i = 0; i < rows.length; i += 1) {
      const r = rows[i]!;
      a.appendInteger(i);
      a.appendVarchar(r.transactionNo ?? '');
      a.appendBigInt(BigInt(r.amountMinor));
      a.appendVarchar(r.currency);
      a.appendVarchar(r.status);
      if (r.day) a.appendInteger(epochDay(r.day));
      else a.appendNull();
      a.endRow();
    }
    a.closeSync();
    const b = await c.createAppender('pay');
    for (let p = 0; p < listed.length; p += 1) {
      const t = listed.transaction(p);
      let refunded = 0;
      for (const r of t.refunds)
        if (refundCounts(r.status) && r.currency === t.currency) refunded += r.refundAmountMinor;
      const paid = t.paidAt || t.createdAt;
      b.appendInteger(p);
      b.appendVarchar(t.transactionNo);
      b.appendBigInt(BigInt(t.amountMinor));
      b.appendVarchar(t.currency);
      b.appendVarchar(t.status);
      if (paid) b.appendBigInt(BigInt(instantMs(paid)));
      else b.appendNull();
      b.appendBigInt(BigInt(refunded));
      b.endRow();
    }
    b.closeSync();
  });
  const tol = facts.options.dateToleranceDays;
  const result = await timed('duckdb: join + per-row outcome (first row per number; duplicates)', () =>
    c.runAndReadAll(`
      SELECT l.i, p.p,
        CASE
          WHEN row_number() OVER (PARTITION BY l.tx ORDER BY l.i) > 1 THEN 'duplicate_in_ledger'
          WHEN p.p IS NULL THEN 'missing_at_service'
          WHEN l.cur <> p.cur THEN 'currency_mismatch'
          WHEN l.amt <> p.amt THEN 'amount_mismatch'
          WHEN l.st <> 'unpaid' AND p.st <> 'success' THEN 'status_mismatch'
          WHEN l.st = 'unpaid' AND p.st = 'success' THEN 'status_mismatch'
          WHEN p.refunded > 0 AND l.st <> 'refunded' THEN 'refunded_not_in_ledger'
          WHEN l.st = 'refunded' AND p.refunded = 0 THEN 'status_mismatch'
          WHEN p.paid IS NOT NULL AND abs(l.day - floor((p.paid + 28800000) / 86400000)) > ${tol}
            THEN 'date_mismatch'
          ELSE 'matched'
        END AS outcome
      FROM ledger l LEFT JOIN pay p ON l.tx = p.tx ORDER BY l.i`),
  );
  const columns = await timed('duckdb: read the result back (3 columns)', () => result.getColumnsJS());
  const counts: Record<string, number> = {};
  for (const o of columns[2]!) counts[String(o)] = (counts[String(o)] ?? 0) + 1;
  const oursCounts: Record<string, number> = {};
  for (const it of ours.items)
    if (it.line !== undefined && it.outcome !== 'unreadable')
      oursCounts[it.outcome] = (oursCounts[it.outcome] ?? 0) + 1;
  console.log('duckdb per-row outcomes', counts);
  console.log('ours per-row outcomes  ', oursCounts);
  console.log(`peak ${Math.round(process.resourceUsage().maxRSS / 1024)} MB`);
  c.closeSync();
  db.close();
  rmSync(file, { force: true });
  rmSync(`${file}-wal`, { force: true });
  rmSync(`${file}-shm`, { force: true });
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
