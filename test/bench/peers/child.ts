/**
 * One side of a bench comparison, in a process of its own so its peak memory (maxRSS) is its own:
 * `node --import tsx test/bench/peers/child.ts <mode> <json args>`. Prints one JSON line last. Each
 * mode times its job from inside (process start and module loading excluded, as for the Python peers).
 *
 * Modes: recon-data, recon-ours, recon-duckdb.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { openDatabase } from '../../../electron/core/adapters/sqlite/database';
import { createSqliteCloseStore } from '../../../electron/core/adapters/sqlite/recon-close-store';
import { createSqliteRunStore } from '../../../electron/core/adapters/sqlite/recon-run-store';
import { createSqliteJobStore } from '../../../electron/core/adapters/sqlite/recon-store';
import { MIGRATIONS } from '../../../electron/core/adapters/sqlite/schema';
import { chunked } from '../../../electron/hosts/cli/recon-run';
import { prepareParsed } from '../../../electron/core/services/reconciliation/pipeline';
import { createReconciliationService } from '../../../electron/core/services/reconciliation/service';
import { parseCsvBytes } from '../../../shared/csv/parser';
import { AppError } from '../../../shared/domain/errors';
import { detectFormats, formatsFrom, toLedgerRows } from '../../../shared/recon/ledger';
import { RECON_MAX_ROWS } from '../../../shared/recon/limits';
import { chooseMapping } from '../../../shared/recon/mapping';
import { writeReconData } from './recon-data';
import { answerOf, type ReconFiles } from './recon-shared';

const peakMb = () => process.resourceUsage().maxRSS / 1024;
/** CPU time (user + system, every thread) since `from`: on a loaded machine it drifts less than wall time. */
const cpuMs = (from: NodeJS.CpuUsage) => {
  const u = process.cpuUsage(from);
  return (u.user + u.system) / 1000;
};
const silent = { info: () => undefined, warn: () => undefined, error: () => undefined };

/**
 * The ledger made ready as the app does it (pipeline.ts prepareParsed, after one parse). Over the
 * app's 250,000-row limit (the 1M figure) the same steps run without that one check, which would
 * refuse the file.
 */
function prepare(bytes: Uint8Array) {
  // Parsed once, as the app does: the file is not read a second time to learn its size.
  const parsed = parseCsvBytes(bytes);
  if (parsed.dataRows <= RECON_MAX_ROWS) return prepareParsed(parsed, 'ledger.csv').imported;
  const mapping = chooseMapping(parsed.headers);
  return toLedgerRows(parsed, mapping, formatsFrom(detectFormats(parsed, mapping)));
}

/**
 * Reads, parses and maps the ledger, and hands it to the service in the renderer's chunks. The parsed
 * rows are not kept once handed over: in the app they are the renderer's (another process), and main
 * only ever holds the chunk it is storing — kept here, they would add the renderer's copy of the
 * whole ledger to main's peak for the whole run.
 */
function handOver(service: ReconService, runId: string, ledger: string): void {
  const imported = prepare(readFileSync(ledger));
  for (const c of chunked(imported.rows)) service.addInput(runId, 'row', c);
  for (const c of chunked(imported.unusable)) service.addInput(runId, 'unusable', c);
}

type ReconService = ReturnType<typeof createReconciliationService>;

/**
 * Refund Desk's whole job: read the ledger file, parse and map it, hand it to the reconciliation
 * service in the renderer's chunks, run (the list comes from the stored windows, the rows it does not
 * answer are looked up — the service says not found), match both ways, store the record, read the
 * summary. The database is open before the clock starts, as the app's is.
 */
async function reconOurs(a: { db: string; runId: string; ledger: string; createdMs: number }) {
  const db = openDatabase(a.db, MIGRATIONS);
  // The clock starts where the run was created: a draft older than an hour would be pruned.
  const since = Date.now();
  const service = createReconciliationService({
    runs: createSqliteRunStore(db),
    closing: createSqliteCloseStore(db),
    jobs: createSqliteJobStore(db),
    clock: { now: () => a.createdMs + (Date.now() - since) },
    log: silent,
    gatewayFor: () => ({
      queryTransaction: () => Promise.reject(new AppError('not_found', 'no such payment')),
      listTransactions: () => Promise.reject(new Error('the list is stored')),
    }),
    profile: () => ({ id: 'bench', name: 'Bench' }),
    onProgress: () => undefined,
  });
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  handOver(service, a.runId, a.ledger);
  service.start(a.runId);
  await service.settled(a.runId);
  const { summary } = service.report(a.runId);
  const ms = performance.now() - t0;
  const cpu = cpuMs(c0);
  db.close();
  return { ms, cpuMs: cpu, peakMb: peakMb(), ...answerOf(summary) };
}

async function reconDuck(a: { files: ReconFiles; exponents: Record<string, number> }) {
  // Loaded here, not at the top: DuckDB's library would otherwise sit in every side's memory.
  const { reconcileWithDuckDb } = await import('./recon-duckdb');
  const t0 = performance.now();
  const c0 = process.cpuUsage();
  const answer = await reconcileWithDuckDb(a.files, a.exponents);
  return { ms: performance.now() - t0, cpuMs: cpuMs(c0), peakMb: peakMb(), ...answer };
}

async function main(): Promise<void> {
  const [mode, json] = process.argv.slice(2);
  const args = JSON.parse(json ?? '{}') as Record<string, unknown>;
  let out: unknown;
  if (mode === 'recon-data') out = writeReconData(String(args['dir']), Number(args['rows']));
  else if (mode === 'recon-ours') out = await reconOurs(args as Parameters<typeof reconOurs>[0]);
  else if (mode === 'recon-duckdb') out = await reconDuck(args as Parameters<typeof reconDuck>[0]);
  else throw new Error(`unknown mode ${mode}`);
  process.stdout.write(`\n${JSON.stringify(out)}\n`);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
