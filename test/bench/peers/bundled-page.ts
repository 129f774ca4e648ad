/**
 * A page of the cold-start bench's references (cold-start.bench.ts): `source`, plain JS importing the
 * app's packages, bundled and minified for production as a page built with them would ship, written as
 * `dir`/app.js beside an index.html that loads it as a module into #root.
 */
import { writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { build } from 'esbuild';

const ROOT = resolve(import.meta.dirname, '../../..');

export async function writeBundledPage(dir: string, source: string, title: string): Promise<void> {
  const out = await build({
    stdin: { contents: source, resolveDir: ROOT, loader: 'js' },
    bundle: true,
    minify: true,
    write: false,
    format: 'esm',
    platform: 'browser',
    target: 'chrome120',
    define: { 'process.env.NODE_ENV': '"production"' },
    logLevel: 'silent',
  });
  writeFileSync(join(dir, 'app.js'), out.outputFiles[0]?.text ?? '');
  writeFileSync(
    join(dir, 'index.html'),
    `<!doctype html><meta charset="utf-8"><title>${title}</title><div id="root"></div><script type="module" src="/app.js"></script>`,
  );
}
