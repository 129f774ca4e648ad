/**
 * host_cold_start_ms: from starting a fresh browser-host process — the command `npm run start:web` runs
 * once its build is done, read from package.json (the built host, out/web/host.mjs) — to the
 * Transactions screen being interactive in Chromium: the search box enabled and the list area settled
 * (rows or the empty state). Needs the renderer built (`npm run build`); the host is built here.
 *
 * Chromium is launched once and each run opens a fresh context (empty IndexedDB), as a person's browser
 * is already running when they open the host's URL. Floor, alternating with it: a fresh node process
 * serving one static page, loaded in the same browser — process start plus one page load.
 */
import { type ChildProcess, spawn } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { performance } from 'node:perf_hooks';
import { type Browser, chromium } from '@playwright/test';
import { buildBrowserHost } from '../../electron/hosts/web/build';
import { type Result, result } from './results.bench';

const RUNS = 5;
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

const BARE_SERVER = `
const http = require('node:http');
const s = http.createServer((q, r) => r.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>x</title><input>'));
s.listen(0, '127.0.0.1', () => console.log('http://127.0.0.1:' + s.address().port + '/'));
process.on('SIGTERM', () => process.exit(0));
`;

export async function bareToLoaded(browser: Browser): Promise<number> {
  const context = await browser.newContext();
  const page = await context.newPage();
  const t0 = performance.now();
  const { child, url } = await spawnUntilUrl(['-e', BARE_SERVER]);
  try {
    await page.goto(url, { waitUntil: 'load' });
    return performance.now() - t0;
  } finally {
    await context.close();
    await stop(child);
  }
}

export async function coldStart(): Promise<Result> {
  const base = {
    name: 'host_cold_start_ms',
    size: 1,
    unit: 'ms',
    goal: '≤ 1500 ms (process start to the Transactions screen interactive)',
  };
  const hostArgs = startWebArgs();
  if (!existsSync(join(ROOT, 'out/renderer/index.html')) || !existsSync(CHROMIUM)) {
    return {
      ...base,
      median: NaN,
      min: NaN,
      max: NaN,
      runs: 0,
      floor: null,
      ratio: null,
      met: null,
      note: 'not measured: needs `npm run build` (out/renderer) and /usr/bin/chromium',
    };
  }
  // The host step of `npm run build`, run here so the figure is of the current sources even after a
  // plain `npx electron-vite build` (which leaves out/web alone, possibly stale or missing).
  await buildBrowserHost(join(ROOT, 'out/web'));
  if (!existsSync(join(ROOT, hostArgs[0]!))) {
    throw new Error(`start:web runs ${hostArgs[0]}, which the host build does not write.`);
  }
  const browser = await chromium.launch({ executablePath: CHROMIUM });
  const ours: number[] = [];
  const hostReady: number[] = [];
  const floor: number[] = [];
  try {
    await hostToInteractive(browser, hostArgs); // warm-up: the OS file cache, as on any second start
    for (let r = 0; r < RUNS; r += 1) {
      const o = await hostToInteractive(browser, hostArgs);
      ours.push(o.total);
      hostReady.push(Math.round(o.hostReady));
      floor.push(await bareToLoaded(browser));
    }
  } finally {
    await browser.close();
  }
  return result(
    {
      ...base,
      note:
        `fresh data directory each run; node ${hostArgs.join(' ')} (what npm run start:web runs after its build), then a fresh context in an already-running Chromium; ` +
        `host printed its URL after ${hostReady.join(', ')} ms; floor: a bare node http server process plus one page load`,
    },
    ours,
    floor,
    (m) => m <= 1500,
  );
}
