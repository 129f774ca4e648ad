import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';

/**
 * Fuzz runs are seeded and bounded so a failure reproduces: FUZZ_SEED and FUZZ_RUNS override the
 * defaults (e.g. `FUZZ_SEED=7 FUZZ_RUNS=500 npx vitest run test/unit/fuzz`).
 */
export const FUZZ_SEED = Number(process.env['FUZZ_SEED'] ?? 18_018);
export const fuzzRuns = (defaultRuns: number): number =>
  process.env['FUZZ_RUNS'] ? Number(process.env['FUZZ_RUNS']) : defaultRuns;

export interface FigureRow {
  /** What was fed: a channel, a fault, an attack. */
  target: string;
  /** Payloads (or faults) tried. */
  tried: number;
  /** Outcome → count, e.g. { invalid_input: 58, ok: 2 }. */
  outcomes: Record<string, number>;
}

/** Counts outcomes per target while a property runs. */
export function createTally() {
  const rows = new Map<string, FigureRow>();
  return {
    add(target: string, outcome: string): void {
      let row = rows.get(target);
      if (!row) rows.set(target, (row = { target, tried: 0, outcomes: {} }));
      row.tried += 1;
      row.outcomes[outcome] = (row.outcomes[outcome] ?? 0) + 1;
    },
    rows: (): FigureRow[] => [...rows.values()],
    total: (): number => [...rows.values()].reduce((n, r) => n + r.tried, 0),
  };
}

/**
 * Prints the figures (so a run's closing note can quote them) and saves them as
 * reports/fuzz/<name>.json beside the other test reports.
 */
export function reportFigures(
  name: string,
  rows: FigureRow[],
  extra: Record<string, unknown> = {},
  unit = 'payloads',
): void {
  const total = rows.reduce((n, r) => n + r.tried, 0);
  const lines = rows.map(
    (r) =>
      `  ${r.target.padEnd(44)} ${String(r.tried).padStart(5)}  ${Object.entries(r.outcomes)
        .sort(([, a], [, b]) => b - a)
        .map(([k, v]) => `${k} ${v}`)
        .join(', ')}`,
  );
  console.log(`[fuzz] ${name} (seed ${FUZZ_SEED}): ${total} ${unit}\n${lines.join('\n')}`);
  const dir = resolve(import.meta.dirname, '../../../reports/fuzz');
  mkdirSync(dir, { recursive: true });
  writeFileSync(
    join(dir, `${name}.json`),
    `${JSON.stringify({ name, seed: FUZZ_SEED, total, rows, ...extra }, null, 2)}\n`,
  );
}
