import { existsSync, globSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';

/**
 * Every file the documentation names exists: a path in backticks that looks like a repository path, and
 * every relative link. A file renamed or removed without the docs fails here.
 *
 * A backticked token is a path when it starts with a top-level folder or file of the repository
 * (`electron/…`, `test/…`, `package.json`), or when it has a folder and a source file's extension
 * (`engine/port.ts`): then it must be a repository path or the end of one. `<placeholders>` stand for any
 * name; `*` is a glob that must match something. Build output (`out/`, `reports/`, `test-results/`) is
 * made by the build, so it is not looked for.
 */
const root = resolve(import.meta.dirname, '../../..');
const SKIPPED_DIRS = new Set(['node_modules', 'out', 'reports', 'test-results', 'playwright-report', 'dist']);
const GENERATED = /^(out|reports|test-results)\//;
const SOURCE_EXT = /\.(ts|tsx|js|mjs|cjs|json|md|csv|yml|yaml|sql|css|html|svg|png)$/;

function filesUnder(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    if (SKIPPED_DIRS.has(name) || name === '.git') return [];
    const path = dir ? `${dir}/${name}` : name;
    // A file another process removes while the tree is walked (a test's scratch file) is not the docs'.
    const stat = statSync(join(root, path), { throwIfNoEntry: false });
    if (!stat) return [];
    return stat.isDirectory() ? [`${path}/`, ...filesUnder(path)] : [path];
  });
}
const repoFiles = filesUnder('');
const topLevel = new Set(readdirSync(root).filter((n) => !SKIPPED_DIRS.has(n) && n !== '.git'));

const docs = [
  'README.md',
  'SECURITY.md',
  ...repoFiles.filter((p) => p.startsWith('docs/') && p.endsWith('.md')),
];

/** A path as written, with `<placeholders>` as one path segment of any name. */
function matches(written: string): boolean {
  const path = written.replace(/\/+$/, '');
  if (path.includes('*')) return globSync(path, { cwd: root }).length > 0;
  if (/<[^>]+>/.test(path)) {
    const re = new RegExp(
      `(^|/)${path
        .split(/(<[^>]+>)/)
        .map((part) => (/^<[^>]+>$/.test(part) ? '[^/]+' : part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')))
        .join('')}/?$`,
    );
    return repoFiles.some((f) => re.test(f));
  }
  if (existsSync(join(root, path))) return true;
  // The end of a repository path: `engine/port.ts` for electron/core/services/engine/port.ts.
  return repoFiles.some((f) => f.replace(/\/$/, '').endsWith(`/${path}`));
}

/** Backticked tokens that look like repository paths, with the line they are on. */
function pathsIn(text: string): Array<{ path: string; line: number }> {
  const found: Array<{ path: string; line: number }> = [];
  // Fenced blocks are commands and trees (the tree has its own test), not prose naming files.
  const prose = text.replace(/^```[\s\S]*?^```/gm, (block) => block.replace(/[^\n]/g, ' '));
  prose.split('\n').forEach((lineText, i) => {
    for (const m of lineText.matchAll(/`([^`\s]+)`/g)) {
      const token = m[1]!.replace(/[),.:;]+$/, '').replace(/:\d+$/, '');
      if (/^[a-z]+:\/\//i.test(token) || /^[-/]/.test(token) || GENERATED.test(token)) continue;
      const first = token.split('/')[0]!;
      const looksLikePath =
        (topLevel.has(first) && (token.includes('/') || SOURCE_EXT.test(token) || topLevel.has(token))) ||
        (token.includes('/') && SOURCE_EXT.test(token.replace(/\/$/, '')));
      if (looksLikePath) found.push({ path: token, line: i + 1 });
    }
  });
  return found;
}

/** Relative links: [text](path#anchor), resolved from the file that holds them. */
function linksIn(file: string, text: string): Array<{ path: string; anchor?: string; line: number }> {
  const found: Array<{ path: string; anchor?: string; line: number }> = [];
  text.split('\n').forEach((lineText, i) => {
    for (const m of lineText.matchAll(/\]\(([^)\s]+)\)/g)) {
      const [target = '', anchor] = m[1]!.split('#');
      if (/^[a-z]+:/i.test(target)) continue;
      const path = target ? relative(root, resolve(root, dirname(file), target)) : file;
      found.push({ path, ...(anchor ? { anchor } : {}), line: i + 1 });
    }
  });
  return found;
}

/** The anchors GitHub makes of a Markdown file's headings. */
function anchorsOf(path: string): Set<string> {
  const text = readFileSync(join(root, path), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set(
    [...text.matchAll(/^#+ (.+)$/gm)].map((m) =>
      m[1]!
        .toLowerCase()
        .replace(/[^\p{L}\p{N} _-]/gu, '')
        .replace(/ /g, '-'),
    ),
  );
}

describe('paths named in README.md, SECURITY.md and docs/', () => {
  it('finds the documentation and the paths it names', () => {
    expect(docs.length).toBeGreaterThan(10);
    const all = docs.flatMap((f) => pathsIn(readFileSync(join(root, f), 'utf8')));
    expect(all.length).toBeGreaterThan(150);
  });

  it('every backticked repository path exists', () => {
    const missing = docs.flatMap((f) =>
      pathsIn(readFileSync(join(root, f), 'utf8'))
        .filter((p) => !matches(p.path))
        .map((p) => `${f}:${p.line}: ${p.path}`),
    );
    expect(missing).toEqual([]);
  });

  it('every relative link points at a file that exists, and at a heading of it', () => {
    const broken = docs.flatMap((f) =>
      linksIn(f, readFileSync(join(root, f), 'utf8'))
        .filter(
          (p) =>
            !existsSync(join(root, p.path)) ||
            (p.anchor !== undefined && p.path.endsWith('.md') && !anchorsOf(p.path).has(p.anchor)),
        )
        .map((p) => `${f}:${p.line}: ${p.path}${p.anchor ? `#${p.anchor}` : ''}`),
    );
    expect(broken).toEqual([]);
  });

  it('a renamed file is caught', () => {
    expect(matches('electron/core/services/engine/port.ts')).toBe(true);
    expect(matches('engine/port.ts')).toBe(true);
    expect(matches('engine/ports.ts')).toBe(false);
    expect(matches('electron/core/ipc/handlers/<domain>.ts')).toBe(true);
    expect(matches('test/unit/app/*.test.ts')).toBe(true);
    expect(pathsIn('see `electron/core/gone.ts` and `settings.json`').map((p) => p.path)).toEqual([
      'electron/core/gone.ts',
    ]);
    expect(anchorsOf('SECURITY.md')).toContain('fuses-electron-builderyml--electronfuses');
  });
});
