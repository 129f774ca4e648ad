/**
 * The table of docs/benchmarks.md, generated from results.json: `npm run bench` rewrites it after a
 * suite of results.json ran, and `npx tsx test/bench/doc-table.ts` rewrites it from the file as it is.
 * test/unit/docs/bench-table.test.ts fails when the two differ, so the published figures are always
 * the measured ones.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { Result } from './figure';
import { RESULTS_FILE } from './results-file';

export const BENCH_DOC = resolve(import.meta.dirname, '../../docs/benchmarks.md');
export const TABLE_START =
  '<!-- bench-table: generated from test/bench/results.json by test/bench/doc-table.ts -->';
export const TABLE_END = '<!-- /bench-table -->';

/** Whole numbers as they are, others with two decimals (results.json rounds to hundredths). */
const num = (v: number) =>
  v.toLocaleString(
    'en-US',
    Number.isInteger(v) ? {} : { minimumFractionDigits: 2, maximumFractionDigits: 2 },
  );
const orDash = (v: number | null | undefined) => (v === null || v === undefined ? '—' : num(v));

/** One row per figure, in the order of results.json. */
export function benchTable(results: readonly Result[]): string {
  const rows = results.map((r) =>
    [
      `\`${r.name}\``,
      num(r.size),
      `${num(r.median)} ${r.unit}`,
      `${num(r.min)} – ${num(r.max)}`,
      orDash(r.floor),
      orDash(r.ratio),
      r.peak_mb === undefined ? '—' : `${num(r.peak_mb)} / ${orDash(r.floor_peak_mb)}`,
      r.goal,
      r.met === null ? '—' : r.met ? 'yes' : 'no',
    ].join(' | '),
  );
  return [
    '| figure | size | median | min – max | floor / peer | ratio | peak MB (ours / peer) | goal | met |',
    '|---|---|---|---|---|---|---|---|---|',
    ...rows.map((r) => `| ${r} |`),
  ].join('\n');
}

export const readResults = (): Result[] => JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as Result[];

/** The table as docs/benchmarks.md holds it between its markers (null when the markers are missing). */
export function publishedTable(doc: string): string | null {
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) return null;
  return doc.slice(start + TABLE_START.length, end).trim();
}

/** Rewrites the table of docs/benchmarks.md from results.json; the text around it is kept. */
export function writeBenchDoc(): void {
  const doc = readFileSync(BENCH_DOC, 'utf8');
  const start = doc.indexOf(TABLE_START);
  const end = doc.indexOf(TABLE_END);
  if (start < 0 || end < start) throw new Error(`${BENCH_DOC} has no ${TABLE_START} … ${TABLE_END} markers.`);
  const table = benchTable(readResults());
  writeFileSync(BENCH_DOC, `${doc.slice(0, start + TABLE_START.length)}\n${table}\n${doc.slice(end)}`);
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) writeBenchDoc();
