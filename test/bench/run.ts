import { batchBench as batchDryRunBench } from './batch.bench';
import { coreBench } from './core.bench';
import { printTable, type Figure } from './harness';
import { hostileBodyBench } from './hostile-body.bench';
import { backOffResults } from './network.bench';
import { reconBench, reconTwoWayBench, reconXlsxBench } from './recon.bench';
import { rendererBench } from './renderer.bench';
import { batchBench, coldStartBench, exportsBench, listBench, reconcileBench } from './results.bench';
import { serviceBench } from './service.bench';
import { storeBench } from './store.bench';
import { teamBench } from './team.bench';

/**
 * `npm run bench`: measures, prints a table, asserts nothing. Tests stay deterministic; figures live
 * here. `npm run bench` alone measures every figure of test/bench/results.json (minutes to an hour on a
 * small machine); `npm run bench -- <suite> [<suite>…]` runs those suites only, e.g. `-- recon` or
 * `-- list exports`. Suites marked "printed" are earlier or narrower figures, run only when named.
 */
const SUITES: Array<[string, () => Promise<Figure[]>, 'results' | 'printed']> = [
  // The figures of results.json, each beside its floor or peer in the same run:
  ['recon', reconcileBench, 'results'],
  ['exports', exportsBench, 'results'],
  ['batch', batchBench, 'results'],
  ['cold-start', coldStartBench, 'results'],
  ['list', listBench, 'results'],
  // Printed only:
  ['core', coreBench, 'printed'],
  ['service', serviceBench, 'printed'],
  ['recon-phases', reconBench, 'printed'],
  ['recon-two-way', reconTwoWayBench, 'printed'],
  // The same 100k rows as .xlsx and as CSV, bytes to report.
  ['recon-xlsx', reconXlsxBench, 'printed'],
  // A 10,000-row refund batch dry run (read, classify, against the sandbox; cold, fresh, warm cache).
  ['batch-dry-run', batchDryRunBench, 'printed'],
  // Refund decision latency, SQLite vs PostgreSQL (starts its own throw-away cluster).
  ['store', storeBench, 'printed'],
  // Team mode's closing figures: decision latency PostgreSQL vs SQLite, and desk A → desk B reach.
  ['team', teamBench, 'printed'],
  ['renderer', rendererBench, 'printed'],
  ['hostile', hostileBodyBench, 'printed'],
  [
    'batch-5xx',
    async () =>
      (await backOffResults()).map((r) => ({
        bench: r.name,
        metric: `median of ${r.runs}`,
        value: `${r.median} ${r.unit}`,
        note: `${r.goal}; ${r.note ?? ''}`,
      })),
    'printed',
  ],
];

async function main(): Promise<void> {
  const named = process.argv.slice(2);
  const unknown = named.filter((n) => !SUITES.some(([s]) => s === n));
  if (unknown.length > 0) {
    console.error(`Unknown suite ${unknown.join(', ')}. Suites: ${SUITES.map(([s]) => s).join(', ')}.`);
    process.exit(2);
  }
  const figures: Figure[] = [];
  for (const [name, suite, kind] of SUITES) {
    if (named.length > 0 ? !named.includes(name) : kind !== 'results') continue;
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
