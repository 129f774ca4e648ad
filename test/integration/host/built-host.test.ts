import { type ChildProcess, spawn } from 'node:child_process';
import {
  copyFileSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import { isBuiltin } from 'node:module';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BUILT_HOST, buildBrowserHost, UNUSED_MESSAGE } from '../../../electron/hosts/web/build';
import { PREBUILT_BRIDGE, pageBridgeScript } from '../../../electron/hosts/web/page-script';

/**
 * The browser host as `npm run build` builds it and `npm run start:web` runs it: one ES module run by
 * plain node, serving the page bridge prebuilt beside it. Built into a stand-in project (package.json,
 * node_modules and a stub renderer) so the repository's own out/ is left alone.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
let project: string;
let child: ChildProcess | undefined;
let url = '';
let stderr = '';

/**
 * Preloaded into the built host: names on stderr every module it asks for by name (not by path), and,
 * as it prints its URL, whether Node's fetch (undici), TLS (which the core's clients load: pg, https) or
 * the core's own code (open-core) have been asked for by then, and where its compile cache is.
 */
const REPORT_IMPORTS = `
import { getCompileCacheDir, registerHooks } from 'node:module';
let coreAsked = false;
registerHooks({
  resolve(specifier, context, next) {
    if (!/^(\\.|\\/|file:)/.test(specifier)) process.stderr.write('imports ' + specifier + '\\n');
    if (/open-core/.test(specifier)) coreAsked = true;
    return next(specifier, context);
  },
});
const write = process.stdout.write.bind(process.stdout);
process.stdout.write = (chunk, ...rest) => {
  if (String(chunk).includes('http://')) {
    const undici = process.moduleLoadList.some((m) => m.includes('undici'));
    const tls = process.moduleLoadList.includes('NativeModule tls');
    process.stderr.write('at url: undici ' + undici + ', tls ' + tls + ', core ' + coreAsked + ', compile cache ' + (getCompileCacheDir() ?? 'off') + '\\n');
  }
  return write(chunk, ...rest);
};
`;

beforeAll(async () => {
  project = mkdtempSync(join(tmpdir(), 'rd-built-host-'));
  copyFileSync(join(ROOT, 'package.json'), join(project, 'package.json'));
  symlinkSync(join(ROOT, 'node_modules'), join(project, 'node_modules'), 'dir');
  mkdirSync(join(project, 'out/renderer'), { recursive: true });
  writeFileSync(
    join(project, 'out/renderer/index.html'),
    '<html><head><script type="module" src="./assets/index-A1.js"></script></head><body>built</body></html>',
  );
  await buildBrowserHost(join(project, 'out/web'));

  const started = Date.now();
  const proc = spawn(
    process.execPath,
    [
      '--import',
      `data:text/javascript,${encodeURIComponent(REPORT_IMPORTS)}`,
      join(project, 'out/web', BUILT_HOST),
      '--port',
      '0',
      '--data-dir',
      join(project, 'data'),
    ],
    { cwd: project, stdio: ['ignore', 'pipe', 'pipe'] },
  );
  child = proc;
  proc.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
  url = await new Promise<string>((done, fail) => {
    let out = '';
    proc.stdout.on('data', (d: Buffer) => {
      out += d.toString();
      const m = /(http:\/\/127\.0\.0\.1:\d+\/#secret=\S+)/.exec(out);
      if (m) done(m[1]!);
    });
    proc.on('exit', (code) => fail(new Error(`the built host exited with ${code}: ${stderr}`)));
  });
  process.stderr.write(`built host printed its URL after ${Date.now() - started} ms\n`);
}, 120_000);

afterAll(async () => {
  if (child && child.exitCode === null) {
    const exited = new Promise((done) => child!.once('exit', done));
    child.kill('SIGTERM');
    await exited;
  }
  if (project) rmSync(project, { recursive: true, force: true });
});

describe('the built browser host', () => {
  it('is one module beside its prebuilt page bridge, which is the very script bundled from source', async () => {
    expect(existsSync(join(project, 'out/web', BUILT_HOST))).toBe(true);
    const prebuilt = readFileSync(join(project, 'out/web', PREBUILT_BRIDGE), 'utf8');
    expect(prebuilt).toBe((await pageBridgeScript()).code);
  });

  it('starts under plain node, serves the renderer and that bridge, and says nothing of bundling', async () => {
    const { origin, hash } = new URL(url);
    const page = await fetch(`${origin}/`);
    expect(page.headers.get('content-security-policy')).toContain("script-src 'self'");
    // The bridge, deferred, comes right before the entry module: it runs first, the parser never waits for it.
    expect(await page.text()).toMatch(
      /<head>[\s\S]*<script defer src="\/__host\/bridge\.js"><\/script>\s*<script type="module"[^>]*><\/script>[\s\S]*<\/head>[\s\S]*built/,
    );
    const bridge = await fetch(`${origin}/__host/bridge.js`);
    expect(await bridge.text()).toBe(readFileSync(join(project, 'out/web', PREBUILT_BRIDGE), 'utf8'));
    expect(stderr).not.toContain('bundling');
    // Its start compiles nothing and reads no package from node_modules: everything is in the one file
    // (Vite is loaded only to bundle the bridge in memory, which it did not).
    const imported = [...stderr.matchAll(/^imports (\S+)$/gm)].map((m) => m[1]);
    expect(imported).toContain('node:http');
    // Node's own modules may be named without `node:` (the bundled pg client does): none is a package.
    expect(imported.filter((s) => !s?.startsWith('node:') && !isBuiltin(s!))).toEqual([]);
    // By the time the URL is printed the start has not loaded Node's fetch (importing node:http reads
    // its WebSocket getters, which do), nor the core's code: a single desk loads and opens its core only
    // once it serves. V8's code for the host is kept for the next start.
    expect(stderr).toMatch(/at url: undici false, tls false, core false, compile cache \/\S+/);

    const secret = new URLSearchParams(hash.slice(1)).get('secret')!;
    const info = await fetch(`${origin}/ipc/app.info`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', 'x-refund-desk-secret': secret },
      body: '{"input":null}',
    });
    // The version is package.json's, found above the built chunk the core runs from (out/web/chunks).
    const { version } = JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')) as { version: string };
    expect(await info.json()).toMatchObject({ ok: true, value: { host: 'browser', version } });
    const refused = await fetch(`${origin}/ipc/app.info`, { method: 'POST', body: '{"input":null}' });
    expect(refused.status).toBe(403);
  });

  it('loads no team-database code (the pg client) for a single desk: the core imports it only on demand', () => {
    const web = join(project, 'out/web');
    // The modules a single desk loads: the host's bundle, the core's chunk, and what they import statically.
    const core = readdirSync(join(web, 'chunks')).filter((f) => f.startsWith('open-core-'));
    expect(core).toHaveLength(1);
    const loaded = new Set<string>();
    const queue = ['host-bundle.mjs', `chunks/${core[0]!}`];
    while (queue.length) {
      const file = queue.pop()!;
      if (loaded.has(file)) continue;
      loaded.add(file);
      const text = readFileSync(join(web, file), 'utf8');
      for (const m of text.matchAll(/^import [^;]*?from "(\.[^"]+)";/gm))
        queue.push(join(dirname(file), m[1]!));
    }
    expect(loaded.size).toBeGreaterThan(1);
    const withPg = [...loaded].filter((f) => /node_modules\/pg\//.test(readFileSync(join(web, f), 'utf8')));
    expect(withPg).toEqual([]);
    // It is still built, for a team desk and Settings → Team database → Test.
    const chunks = readdirSync(join(web, 'chunks')).map((f) => readFileSync(join(web, 'chunks', f), 'utf8'));
    expect(chunks.some((text) => /node_modules\/pg\//.test(text))).toBe(true);
  });

  it('keeps its settings through conf with ajv left out of the bundle (no schema is ever given)', async () => {
    const web = join(project, 'out/web');
    const built = ['host-bundle.mjs', ...readdirSync(join(web, 'chunks')).map((f) => `chunks/${f}`)].map(
      (f) => readFileSync(join(web, f), 'utf8'),
    );
    expect(built.filter((text) => /node_modules\/ajv/.test(text))).toEqual([]);
    expect(built.some((text) => text.includes(UNUSED_MESSAGE))).toBe(true);
    const { origin, hash } = new URL(url);
    const secret = new URLSearchParams(hash.slice(1)).get('secret')!;
    const call = async (channel: string, input: unknown) =>
      (await fetch(`${origin}/ipc/${channel}`, {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-refund-desk-secret': secret },
        body: JSON.stringify({ input }),
      }).then((r) => r.json())) as { ok: boolean; value?: { profiles: { id: string; name: string }[] } };
    const listed = await call('profiles.list', null);
    expect(listed.ok).toBe(true);
    const demo = listed.value!.profiles[0]!;
    // The Demo profile, made at this first start, was written through conf to its file.
    expect(readFileSync(join(project, 'data', 'settings.json'), 'utf8')).toContain(demo.id);
  });
});
