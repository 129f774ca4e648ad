import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { BENCH_DOC, benchTable, publishedTable, readResults } from '../../bench/doc-table';
import { FIGURE_NAMES } from '../../bench/results-file';

/**
 * docs/benchmarks.md publishes the figures the bench measured: its table is the one generated from
 * test/bench/results.json (`npm run bench` rewrites it; `npx tsx test/bench/doc-table.ts` alone too).
 */
describe("docs/benchmarks.md's table", () => {
  const results = readResults();

  it('is the table generated from test/bench/results.json, row for row', () => {
    const published = publishedTable(readFileSync(BENCH_DOC, 'utf8'));
    expect(published, 'the table markers are missing').not.toBeNull();
    expect(published).toBe(benchTable(results));
  });

  it('has one row per named figure of results.json, in its order', () => {
    expect(results.map((r) => r.name)).toEqual([...FIGURE_NAMES]);
    const rows = benchTable(results).split('\n').slice(2);
    expect(rows.map((r) => /^\| `([^`]+)`/.exec(r)?.[1])).toEqual([...FIGURE_NAMES]);
  });

  it('writes every figure as measured: median, range, peer, ratio and verdict', () => {
    const row = benchTable([
      { ...results[0]!, median: 1234.5, min: 1000, max: 1500.25, floor: 617.25, ratio: 2, met: false },
    ]);
    expect(row.split('\n')[2]).toContain('| 1,234.50 ms | 1,000 – 1,500.25 | 617.25 | 2 |');
    expect(row.split('\n')[2]).toMatch(/\| no \|$/);
  });
});
