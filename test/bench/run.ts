import { batchBench } from './batch.bench';
import { coreBench } from './core.bench';
import { printTable, type Figure } from './harness';
import { hostileBodyBench } from './hostile-body.bench';
import { reconBench, reconTwoWayBench, reconXlsxBench } from './recon.bench';
import { rendererBench } from './renderer.bench';
import {
  coldStartBench,
  exportsOnlyBench,
  networkBench,
  reconcileBench,
  resultsBench,
} from './results.bench';
import { serviceBench } from './service.bench';
import { storeBench } from './store.bench';

/**
 * `npm run bench`: measures, prints a table, asserts nothing. Tests stay deterministic; figures live
 * here. Each suite is a function returning figures; add new ones to SUITES.
 */
const SUITES: Array<[string, () => Promise<Figure[]>]> = [
  ['core', coreBench],
  ['service', serviceBench],
  ['recon', reconBench],
  ['recon-two-way', reconTwoWayBench],
  // The same 100k rows as .xlsx and as CSV, bytes to report: `npm run bench -- recon-xlsx`.
  ['recon-xlsx', reconXlsxBench],
  // A 10,000-row refund batch dry run (read, classify, against the sandbox; cold, fresh, warm cache).
  ['batch', batchBench],
  ['renderer', rendererBench],
  ['hostile', hostileBodyBench],
  // The network and host cold-start figures alone (also part of `results`): `npm run bench -- network`.
  ['network', networkBench],
  // The host cold-start figure alone, beside its floor (also part of `network` and `results`).
  ['cold-start', coldStartBench],
  // The CSV and Excel export figures alone, printed only: `npm run bench -- exports`.
  ['exports', exportsOnlyBench],
  // The reconciliation figure with its pandas floor alone (also part of `results`).
  ['reconcile', reconcileBench],
  // Refund decision latency, SQLite vs PostgreSQL (starts its own cluster; alone: `npm run bench -- store`).
  ['store', storeBench],
  // Last: the figures with their floors, written to test/bench/results.json.
  ['results', resultsBench],
];

/** Suites whose figures another suite already measures: run only when named. */
const ONLY_WHEN_NAMED = new Set(['network', 'cold-start', 'exports', 'reconcile', 'recon-xlsx']);

async function main(): Promise<void> {
  const only = process.argv[2];
  const figures: Figure[] = [];
  for (const [name, suite] of SUITES) {
    if (only ? only !== name : ONLY_WHEN_NAMED.has(name)) continue;
    process.stderr.write(`running ${name}…\n`);
    figures.push(...(await suite()));
  }
  console.log(`Refund Desk benchmarks — node ${process.version}, ${process.platform}/${process.arch}`);
  printTable(figures);
}

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
