import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { resolve } from 'node:path';

export const RESULTS_FILE = resolve(import.meta.dirname, 'results.json');

/**
 * Writes figures into results.json by name: a suite replaces its own figures and keeps the others', so
 * the Node figures and the Chromium ones can be measured in separate runs.
 */
export function writeResults(results: ReadonlyArray<{ name: string }>): void {
  let current: Array<{ name: string }> = [];
  try {
    if (existsSync(RESULTS_FILE)) current = JSON.parse(readFileSync(RESULTS_FILE, 'utf8')) as typeof current;
  } catch {
    current = [];
  }
  const fresh = new Map(results.map((r) => [r.name, r]));
  const merged = current.map((r) => {
    const f = fresh.get(r.name);
    fresh.delete(r.name);
    return f ?? r;
  });
  writeFileSync(RESULTS_FILE, `${JSON.stringify([...merged, ...fresh.values()], null, 2)}\n`);
}
