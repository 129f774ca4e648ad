import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * A README a newcomer reads in five minutes, and docs split by the reader's question (issue 31): the
 * README stays under 160 lines and no file of docs/ grows past about 400.
 */
const root = resolve(import.meta.dirname, '../../..');
// As wc -l counts them: the newline-terminated lines.
const lines = (path: string) => readFileSync(path, 'utf8').split('\n').length - 1;

function markdownUnder(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(path).isDirectory()) return markdownUnder(path);
    return name.endsWith('.md') ? [path] : [];
  });
}

describe('documentation sizes', () => {
  it('README.md is at most 160 lines', () => {
    expect(lines(join(root, 'README.md'))).toBeLessThanOrEqual(160);
  });

  it('no file in docs/ is over 400 lines', () => {
    const docs = markdownUnder(join(root, 'docs'));
    expect(docs.length).toBeGreaterThan(10);
    const long = docs.filter((p) => lines(p) > 400).map((p) => `${relative(root, p)}: ${lines(p)} lines`);
    expect(long).toEqual([]);
  });

  it('the README links to every file of docs/, so each is one click away', () => {
    const readme = readFileSync(join(root, 'README.md'), 'utf8');
    const missing = markdownUnder(join(root, 'docs'))
      .map((p) => relative(root, p))
      .filter((p) => !readme.includes(`](${p}`));
    expect(missing).toEqual([]);
  });
});
