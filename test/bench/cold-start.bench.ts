/**
 * cold_start_vs_react_page: from starting a fresh browser-host process — the command `npm run start:web` runs
 * once its build is done, read from package.json (the built host, out/web/host.mjs) — to the
 * Transactions screen being interactive in Chromium: the search box enabled and the list area settled
 * (rows or the empty state). Needs the renderer built (`npm run build`); the host is built here.
 *
 * Chromium is launched once and each run opens a fresh context (empty IndexedDB), as a person's browser
 * is already running when they open the host's URL. Floor, alternating with it: a fresh node process
 * serving a minimal React page (bundled and minified for production), loaded in the same browser until
 * its input is there — process start, one page load, React starting and rendering. A reference,
 * alternating with both and served the same way: the product's fixed renderer packages alone doing what
 * the first screen needs of them (peers/stack-page.ts), the part of the ratio no code of ours takes.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Browser, chromium } from '@playwright/test';
import { buildBrowserHost } from '../../electron/hosts/web/build';
import { loadNow, median, type Result, result, round, RUNS } from './figure';
import { writeBundledPage } from './peers/bundled-page';
import { buildStackPage } from './peers/stack-page';

const ROOT = resolve(import.meta.dirname, '../..');
const CHROMIUM = '/usr/bin/chromium';

/**
 * The node arguments of what `npm run start:web` runs after building: the script's last command, which
 * must be `node <file> …` — so the bench times exactly the process a person starts, nothing else.
 */
export function startWebArgs(): string[] {
  const pkg = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as {
    scripts: Record<string, string>;
  };
  const script = pkg.scripts['start:web'] ?? '';
  const [command, ...args] = (script.split('&&').at(-1) ?? '').trim().split(/\s+/);
  if (command !== 'node' || !args[0]) {
    throw new Error(`start:web should end in \`node <file>\`, not: ${script}`);
  }
  return args;
}

/** Spawns `node <args>` and resolves with the first http URL it prints, and the process. */
function spawnUntilUrl(args: string[]): Promise<{ child: ChildProcess; url: string }> {
  return new Promise((resolveUrl, reject) => {
    const child = spawn(process.execPath, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    let err = '';
    const timer = setTimeout(() => {
      child.kill('SIGKILL');
      reject(new Error(`no URL within 60 s: ${err.slice(-500)}`));
    }, 60_000);
    child.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\S*)/.exec(out);
      if (m) {
        clearTimeout(timer);
        resolveUrl({ child, url: m[1]! });
      }
    });
    child.stderr!.on('data', (d: Buffer) => void (err += d.toString()));
    child.on('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`exited with ${String(code)} before printing a URL: ${err.slice(-500)}`));
    });
  });
}

function stop(child: ChildProcess): Promise<void> {
  return new Promise((done) => {
    if (child.exitCode !== null) return done();
    child.once('exit', () => done());
    child.kill('SIGTERM');
    setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
  });
}

/** What the predicate reads of the page (this file is type-checked without the DOM library). */
interface PageDoc {
  querySelector(selector: string): { disabled?: boolean; offsetParent?: unknown } | null;
}

/**
 * The search box is usable and the list area has settled: rows, or the empty state with its button.
 * A function, not a string: the host's CSP forbids evaluating strings.
 */
const interactive = () => {
  const doc = (globalThis as unknown as { document: PageDoc }).document;
  const search = doc.querySelector('[data-testid="tx-search"]');
  const settled = doc.querySelector('[data-testid="tx-empty"], [data-testid="tx-row"]');
  return !!search && !search.disabled && search.offsetParent !== null && !!settled;
};

/** Starts the host with `hostArgs` (node's arguments) and times it to the interactive screen. */
export async function hostToInteractive(
  browser: Browser,
  hostArgs: string[],
): Promise<{ total: number; hostReady: number }> {
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-coldstart-'));
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = await spawnUntilUrl([...hostArgs, '--port', '0', '--data-dir', dataDir]);
  const hostReady = performance.now() - t0;
  try {
    await page.goto(url);
    await page.waitForFunction(interactive, undefined, { timeout: 60_000, polling: 'raf' });
    return { total: performance.now() - t0, hostReady };
  } finally {
    await context.close();
    await stop(child);
    rmSync(dataDir, { recursive: true, force: true });
  }
}

/** A static server for one folder: a fresh node process, as the host is (it prints its URL). */
const STATIC_SERVER = `
const http = require('node:http');
const fs = require('node:fs');
const path = require('node:path');
const dir = process.argv[1];
const types = { '.html': 'text/html; charset=utf-8', '.js': 'text/javascript; charset=utf-8' };
const s = http.createServer((q, r) => {
  const name = q.url === '/' ? 'index.html' : path.basename(q.url);
  fs.readFile(path.join(dir, name), (e, body) => {
    if (e) return r.writeHead(404).end();
    r.writeHead(200, { 'content-type': types[path.extname(name)] ?? 'application/octet-stream' }).end(body);
  });
});
s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port + '/'));
process.on('SIGTERM', () => process.exit(0));
`;

/**
 * The floor's page: a minimal React app — react-dom/client rendering one enabled input — bundled and
 * minified for production, as a page built with React would ship it.
 */
export function buildReactPage(dir: string): Promise<void> {
  return writeBundledPage(
    dir,
    `import { createRoot } from 'react-dom/client';
    import { createElement, useState } from 'react';
    function App() {
      const [q, setQ] = useState('');
      return createElement('main', null, createElement('input', { 'data-testid': 'tx-search', value: q, onChange: (e) => setQ(e.target.value) }), createElement('p', { 'data-testid': 'tx-empty' }, 'Nothing yet'));
    }
    createRoot(document.getElementById('root')).render(createElement(App));`,
    'React',
  );
}

/** A fresh node process serving a static page (the floor's, the stack's), to it interactive (as `interactive`). */
export async function reactPageToInteractive(browser: Browser, dir: string): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = await spawnUntilUrl(['-e', STATIC_SERVER, dir]);
  try {
    await page.goto(url);
    await page.waitForFunction(interactive, undefined, { timeout: 60_000, polling: 'raf' });
    return performance.now() - t0;
  } finally {
    await context.close();
    await stop(child);
  }
}

export async function coldStart(): Promise<Result> {
  const load = loadNow();
  const base = {
    name: 'cold_start_vs_react_page',
    size: 1,
    unit: 'ms',
    goal: 'ratio ≤ 1.5 (a minimal React page: a fresh node process serving it, to its input interactive)',
  } as const;
  const hostArgs = startWebArgs();
  if (!existsSync(join(ROOT, 'out/renderer/index.html')) || !existsSync(CHROMIUM))
    throw new Error('the cold start needs `npx electron-vite build` (out/renderer) and /usr/bin/chromium');
  // The host step of `npm run build`, run here so the figure is of the current sources even after a
  // plain `npx electron-vite build` (which leaves out/web alone, possibly stale or missing).
  await buildBrowserHost(join(ROOT, 'out/web'));
  if (!existsSync(join(ROOT, hostArgs[0]!))) {
    throw new Error(`start:web runs ${hostArgs[0]}, which the host build does not write.`);
  }
  const reactDir = mkdtempSync(join(tmpdir(), 'rd-react-page-'));
  const stackDir = mkdtempSync(join(tmpdir(), 'rd-stack-page-'));
  await buildReactPage(reactDir);
  await buildStackPage(stackDir);
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const ours: number[] = [];
  const hostReady: number[] = [];
  const floor: number[] = [];
  const stack: number[] = [];
  try {
    // Warm-up: the OS file cache, as on any second start.
    await hostToInteractive(browser, hostArgs);
    await reactPageToInteractive(browser, reactDir);
    await reactPageToInteractive(browser, stackDir);
    for (let r = 0; r < RUNS; r += 1) {
      const o = await hostToInteractive(browser, hostArgs);
      ours.push(o.total);
      hostReady.push(Math.round(o.hostReady));
      floor.push(await reactPageToInteractive(browser, reactDir));
      stack.push(await reactPageToInteractive(browser, stackDir));
    }
  } finally {
    await browser.close();
    rmSync(reactDir, { recursive: true, force: true });
    rmSync(stackDir, { recursive: true, force: true });
  }
  const reference = {
    what: 'the fixed renderer packages alone (react, @tanstack/react-query, @tanstack/react-table, dexie: test/bench/peers/stack-page.ts), served and timed as the floor',
    median: round(median(stack)),
    ratio: round(median(stack) / median(floor)),
  };
  return result(
    {
      ...base,
      reference,
      note:
        `fresh data directory each run; node ${hostArgs.join(' ')} (what npm run start:web runs after its build), then a fresh context (empty cache) in an already-running Chromium, to the Transactions screen's search box enabled and its list settled; ` +
        `host printed its URL after ${hostReady.join(', ')} ms; floor: a fresh node process serving a minimal React page (react-dom rendering an input, minified), to that input present, timed the same way`,
    },
    { ours, floor },
    load,
    (_m, ratio) => (ratio === null ? null : ratio <= 1.5),
  );
}
