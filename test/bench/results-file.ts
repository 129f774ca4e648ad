import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const RESULTS_FILE = resolve(import.meta.dirname, 'results.json');

/**
 * The figures results.json holds, in this order, and no others (issue 30): each compares the same work
 * on both sides, measured in the same run, with its floor or peer.
 */
export const FIGURE_NAMES = [
  'reconcile_100k_vs_pandas',
  'reconcile_1m_vs_pandas',
  'reconcile_1m_vs_duckdb',
  'reconcile_1m_peak_mb_vs_duckdb',
  'list_1m_first_rows_ms',
  'list_1m_longest_task_ms',
  'list_1m_sort_ms',
  'list_1m_filter_sorted_ms',
  'list_100k_counted_vs_getall',
  'list_1m_heap_mb',
  'scroll_busy_p95_vs_plain_list',
  'xlsx_1m_vs_xlsxwriter',
  'xlsx_1m_peak_mb',
  'csv_1m_vs_python',
  'batch_vs_sdk_pool',
  'cold_start_vs_react_page',
] as const;
export type FigureName = (typeof FIGURE_NAMES)[number];

/**
 * Writes figures into results.json by name: a suite replaces its own figures and keeps the others', so
 * suites can be measured in separate runs (`npm run bench -- recon`). Names outside FIGURE_NAMES are
 * refused; figures of earlier versions of the bench under other names are dropped.
 */
export function writeResults(results: ReadonlyArray<{ name: string }>): void {
  for (const r of results)
    if (!(FIGURE_NAMES as readonly string[]).includes(r.name))
      throw new Error(`results.json has no figure named ${r.name}`);
  let current: Array<{ name: string }> = [];
  try {
    if (existsSync(RESULTS_FILE)) current = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as typeof current;
  } catch {
    current = [];
  }
  const byName = new Map(current.map((r) => [r.name, r]));
  for (const r of results) byName.set(r.name, r);
  const ordered = FIGURE_NAMES.flatMap((n) => {
    const r = byName.get(n);
    return r ? [r] : [];
  });
  writeFileSync(RESULTS_FILE, `${JSON.stringify(ordered, null, 2)}\n`);
}
