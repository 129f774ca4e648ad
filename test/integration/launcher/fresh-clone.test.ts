import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { delimiter, dirname, join, resolve } from 'node:path';
import { rm } from 'node:fs/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { closedPort, parseLaunches, type StubMirror, startStubMirror } from './stub-mirror';

/**
 * A new user's first two commands, for real: a fresh clone of this repository's committed HEAD runs
 * `npm ci`, then `npm start` — first with no way to download Electron (a closed port), then with
 * ELECTRON_MIRROR pointing at a local stub of Electron's releases. Electron's own installer fetches the stub
 * (checksums from the mirror, electron_use_remote_checksums=1, a private electron_config_cache), and
 * electron-vite launches it on the app. Slow (npm ci of the whole tree), hence the long timeouts.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const VERSION = (
  JSON.parse(readFileSync(join(ROOT, 'node_modules/electron/package.json'), 'utf8')) as { version: string }
).version;

const isGitCheckout = spawnSync('git', ['-C', ROOT, 'rev-parse', '--is-inside-work-tree']).status === 0;
const skipReason =
  process.platform === 'win32'
    ? 'the stub Electron is a shell script'
    : !isGitCheckout
      ? 'not a git checkout, so there is no committed HEAD to clone'
      : undefined;

interface Ran {
  code: number | null;
  output: string;
}

/** Runs a command in its own process group and kills the whole group if it outlives `timeoutMs`. */
function run(cmd: string, args: string[], opts: { cwd: string; env: NodeJS.ProcessEnv; timeoutMs: number }) {
  return new Promise<Ran>((done) => {
    const child = spawn(cmd, args, { cwd: opts.cwd, env: opts.env, detached: true, stdio: 'pipe' });
    let output = '';
    child.stdout.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr.on('data', (c: Buffer) => (output += c.toString()));
    const timer = setTimeout(() => {
      output += `\n[killed after ${opts.timeoutMs} ms]`;
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        // already gone
      }
    }, opts.timeoutMs);
    child.on('close', (code) => {
      clearTimeout(timer);
      done({ code, output });
    });
  });
}

/**
 * The environment of a person's shell: no variables from the npm/vitest run around this test (npm_package_*,
 * NODE_ENV=test, …), no Electron settings of this machine, and this test's Node first on PATH.
 */
function userEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = {};
  for (const [k, v] of Object.entries(process.env)) {
    if (
      /^(npm_(lifecycle|package|command|execpath|node_execpath|config_local_prefix|config_call)|NODE$)/.test(
        k,
      )
    )
      continue;
    if (/electron|^force_no_cache$|^VITEST|^NODE_ENV$|^TEST$/i.test(k)) continue;
    env[k] = v;
  }
  env['PATH'] = [dirname(process.execPath), process.env['PATH'] ?? ''].join(delimiter);
  return { ...env, ...extra };
}

describe.skipIf(skipReason !== undefined)('a fresh clone: npm ci, then npm start', () => {
  let work: string;
  let clone: string;
  let record: string;
  let mirror: StubMirror;
  let electronEnv: Record<string, string>;

  beforeAll(async () => {
    work = mkdtempSync(join(tmpdir(), 'refund-desk-fresh-clone-'));
    clone = join(work, 'refund-desk');
    record = join(work, 'launches.txt');
    mirror = await startStubMirror({ version: VERSION, recordFile: record });
    electronEnv = {
      ELECTRON_MIRROR: mirror.url,
      electron_use_remote_checksums: '1',
      electron_config_cache: join(work, 'electron-cache'),
    };
    mkdirSync(electronEnv['electron_config_cache']!);
    const cloned = spawnSync('git', ['clone', '--quiet', ROOT, clone], { encoding: 'utf8' });
    expect(cloned.status, cloned.stderr).toBe(0);
    // Straight from the lockfile, through npm's cache when it already holds the packages (it does in CI,
    // which has just installed the same lockfile); otherwise from the registry.
    const ci = await run('npm', ['ci', '--prefer-offline', '--no-audit', '--no-fund'], {
      cwd: clone,
      env: userEnv({}),
      timeoutMs: 280_000,
    });
    expect(ci.code, ci.output.slice(-3000)).toBe(0);
  }, 300_000);

  // The clone holds a whole node_modules (~300 MB): removing it can take a while on a busy machine.
  afterAll(async () => {
    await mirror?.close();
    if (work) await rm(work, { recursive: true, force: true, maxRetries: 3 });
  }, 180_000);

  const launches = () => (existsSync(record) ? parseLaunches(readFileSync(record, 'utf8')) : []);

  it('without network, npm start says in one message what failed and points to npm run start:web', async () => {
    const port = await closedPort();
    const r = await run('npm', ['start'], {
      cwd: clone,
      env: userEnv({ ...electronEnv, ELECTRON_MIRROR: `http://127.0.0.1:${port}/` }),
      timeoutMs: 60_000,
    });
    expect(r.code).not.toBe(0);
    expect(r.output).toContain(
      `Refund Desk could not start: Electron ${VERSION} (${process.platform}-${process.arch}) is not installed yet, and downloading http://127.0.0.1:${port}/v${VERSION}/electron-v${VERSION}-${process.platform}-${process.arch}.zip failed: the connection was refused (ECONNREFUSED).`,
    );
    expect(r.output).toContain('npm run start:web');
    // No stack trace, no electron-vite "Electron uninstall", nothing launched.
    expect(r.output).not.toMatch(/^\s+at /m);
    expect(r.output).not.toContain('Electron uninstall');
    expect(launches()).toEqual([]);
    expect(existsSync(join(clone, 'node_modules/electron/path.txt'))).toBe(false);
  }, 90_000);

  it('npm start downloads Electron through its installer from ELECTRON_MIRROR and launches it on the app', async () => {
    const r = await run('npm', ['start'], { cwd: clone, env: userEnv(electronEnv), timeoutMs: 120_000 });
    expect(r.code, r.output.slice(-3000)).toBe(0);
    // The zip and, because of electron_use_remote_checksums, the mirror's SHASUMS256.txt.
    expect(mirror.requests).toEqual(
      expect.arrayContaining([
        `/v${VERSION}/electron-v${VERSION}-${process.platform}-${process.arch}.zip`,
        `/v${VERSION}/SHASUMS256.txt`,
      ]),
    );
    expect(cachedZip(electronEnv['electron_config_cache']!)).toBe(true);
    expect(launches()).toEqual([{ cwd: realpathSync(clone), rendererUrl: '', args: ['.'] }]);
    // `.` is the clone, whose package.json main is the freshly built main process.
    expect(existsSync(join(clone, 'out/main/index.js'))).toBe(true);
  }, 150_000);

  it('a second npm start launches at once, without downloading again', async () => {
    const before = mirror.requests.length;
    const r = await run('npm', ['start'], { cwd: clone, env: userEnv(electronEnv), timeoutMs: 120_000 });
    expect(r.code, r.output.slice(-3000)).toBe(0);
    expect(r.output).not.toContain('Downloading Electron');
    expect(mirror.requests.length).toBe(before);
    expect(launches()).toHaveLength(2);
  }, 150_000);

  it('npm run dev installs a missing Electron the same way, then starts it against the dev server', async () => {
    const pkg = join(clone, 'node_modules/electron');
    rmSync(join(pkg, 'dist'), { recursive: true, force: true });
    rmSync(join(pkg, 'path.txt'), { force: true });
    const r = await run('npm', ['run', 'dev'], { cwd: clone, env: userEnv(electronEnv), timeoutMs: 120_000 });
    expect(r.code, r.output.slice(-3000)).toBe(0);
    expect(r.output).toContain('Downloading Electron');
    const last = launches().at(-1);
    expect(last?.cwd).toBe(realpathSync(clone));
    expect(last?.args).toEqual(['.']);
    expect(last?.rendererUrl).toMatch(/^http:\/\/(localhost|127\.0\.0\.1|\[::1\]):\d+\/?$/);
  }, 150_000);
});

/** True when the installer left the download in the private cache (so the machine's own was not used). */
function cachedZip(dir: string): boolean {
  return readdirSync(dir, { recursive: true }).some((f) => String(f).endsWith('.zip'));
}
