/**
 * The figures of results.json (results-file.ts FIGURE_NAMES), each beside its floor or peer measured
 * in the same run, alternating. Never asserted: tests stay deterministic; this is evidence. Each group
 * writes its own figures as soon as it has them, so a long run that stops keeps what it measured.
 */
import { coldStart } from './cold-start.bench';
import { exportResults, EXPORT_ROWS } from './exports.bench';
import { type Result, tableOf } from './figure';
import type { Figure } from './harness';
import { LIST_ROWS, listResults } from './list.bench';
import { batchResults } from './network.bench';
import { reconcileResults } from './reconcile.bench';
import { writeResults } from './results-file';

/** A group of figures: measured, written (unless measured at another size than named), tabled. */
function group(measure: () => Promise<Result[]>, write = () => true): () => Promise<Figure[]> {
  return async () => {
    const results = await measure();
    if (write()) writeResults(results);
    else process.stderr.write('  (not written to results.json: measured at another size than named)\n');
    return tableOf(results);
  };
}

export const reconcileBench = group(reconcileResults, () => !process.env['BENCH_RECON_SIZES']);
export const listBench = group(listResults, () => LIST_ROWS === 1_000_000);
export const exportsBench = group(exportResults, () => EXPORT_ROWS === 1_000_000);
export const batchBench = group(batchResults, () => !process.env['BENCH_BATCH_KEYS']);
export const coldStartBench = group(async () => [await coldStart()]);
