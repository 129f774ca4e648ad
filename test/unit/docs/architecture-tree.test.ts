import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * The architecture tree (docs/architecture.md, "The tree") is how a newcomer finds code: every entry in
 * it must exist, and every folder of the layers it describes (and every file directly under
 * core/services) must be in it.
 */
const root = resolve(import.meta.dirname, '../../..');
const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
const start = doc.indexOf('```\nelectron/\n');
const block = start < 0 ? '' : doc.slice(start + 4, doc.indexOf('```', start + 4));

/** Entry lines start at column 0, 2, 4 or 6; wrapped descriptions continue at column 24. */
function treePaths(): string[] {
  const stack: string[] = [];
  const paths: string[] = [];
  for (const line of block.split('\n')) {
    const indent = line.length - line.trimStart().length;
    if (!line.trim() || indent >= 24) continue;
    const level = indent / 2;
    // The name (or a comma-separated list of names) is the line's first word(s); the description follows.
    const names = /^((?:\S+,\s)*\S+)/.exec(line.trim())![1]!.split(/,\s/);
    for (const name of names) {
      const full = [...stack.slice(0, level), name].join('');
      paths.push(full);
      if (names.length === 1) stack[level] = name;
    }
    stack.length = level + 1;
  }
  return paths;
}

const isDir = (p: string) => statSync(join(root, p)).isDirectory();
const dirsIn = (p: string) => readdirSync(join(root, p)).filter((n) => isDir(join(p, n)));

describe("docs/architecture.md's tree", () => {
  const paths = treePaths();

  it('is found, and names real paths only', () => {
    expect(paths.length).toBeGreaterThan(40);
    for (const p of paths) {
      const real = p.replace(/<[^>]+>\/?$/, '');
      expect(existsSync(join(root, real)), p).toBe(true);
    }
  });

  it('leaves out no folder of the layers it describes, nor a file directly under core/services', () => {
    const listed = new Set(paths.map((p) => p.replace(/\/$/, '')));
    const expected = [
      ...['electron', 'electron/app', 'electron/core', 'electron/core/services', 'electron/hosts']
        .flatMap((d) => dirsIn(d).map((n) => `${d}/${n}`))
        .filter((d) => d !== 'electron/app/preload'), // listed as its one file, preload/index.ts
      ...readdirSync(join(root, 'electron/core/services'))
        .filter((n) => n.endsWith('.ts'))
        .map((n) => `electron/core/services/${n}`),
      ...dirsIn('renderer/src')
        .filter((n) => n !== 'features' && n !== 'styles')
        .map((n) => `renderer/src/${n}`),
      ...dirsIn('shared').map((n) => `shared/${n}`),
    ];
    for (const e of expected) expect(listed.has(e), e).toBe(true);
  });

  it('names every feature area of the renderer', () => {
    const line = block.slice(block.indexOf('src/features/<area>/'));
    const described = line.slice(0, line.indexOf('shared/'));
    for (const area of dirsIn('renderer/src/features')) expect(described, area).toContain(area);
  });
});
