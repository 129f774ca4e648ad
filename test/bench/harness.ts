import { performance } from 'node:perf_hooks';

/** One measured figure in the bench table. */
export interface Figure {
  bench: string;
  metric: string;
  value: string;
  note?: string;
}

/** Runs `fn` `iterations` times and returns per-iteration milliseconds (sorted). */
export async function sample(iterations: number, fn: (i: number) => unknown): Promise<number[]> {
  const out: number[] = [];
  for (let i = 0; i < iterations; i += 1) {
    const t0 = performance.now();
    await fn(i);
    out.push(performance.now() - t0);
  }
  return out.sort((a, b) => a - b);
}

export const pct = (sorted: number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN;
export const ms = (v: number) => `${v.toFixed(v < 10 ? 2 : 0)} ms`;
export const perSec = (count: number, totalMs: number) =>
  `${Math.round((count / totalMs) * 1000).toLocaleString('en-US')}/s`;

export async function time<T>(fn: () => Promise<T> | T): Promise<{ ms: number; value: T }> {
  const t0 = performance.now();
  const value = await fn();
  return { ms: performance.now() - t0, value };
}

export function printTable(figures: Figure[]): void {
  const cols: (keyof Figure)[] = ['bench', 'metric', 'value', 'note'];
  const widths = cols.map((c) => Math.max(c.length, ...figures.map((f) => (f[c] ?? '').length)));
  const line = (cells: string[]) => `| ${cells.map((c, i) => c.padEnd(widths[i]!)).join(' | ')} |`;
  console.log(line(cols));
  console.log(`|${widths.map((w) => '-'.repeat(w + 2)).join('|')}|`);
  for (const f of figures) console.log(line(cols.map((c) => f[c] ?? '')));
}
