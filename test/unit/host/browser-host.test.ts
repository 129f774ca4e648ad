import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createContext, runInContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { AppCore } from '../../../electron/core/compose';
import { createNodeCore } from '../../../electron/hosts/node-core';
import {
  PREBUILT_BRIDGE,
  pageBridgeScript,
  servedBridgeScript,
} from '../../../electron/hosts/web/page-script';
import { type BrowserHost, startBrowserHost, withBridge } from '../../../electron/hosts/web/server';
import { buildBridge } from '../../../shared/ipc/bridge';
import { BRIDGE_GLOBAL, EVENT_CHANNELS, INVOKE_CHANNELS } from '../../../shared/ipc/channels';
import { createFakeLogger } from '../../fakes/logger';

let host: BrowserHost;
let core: AppCore;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-host-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>app</body></html>');
  mkdirSync(join(rendererDir, 'assets'));
  writeFileSync(join(rendererDir, 'assets', 'index-DyDeDOq2.js'), 'console.log(1)');
  writeFileSync(join(rendererDir, 'favicon.svg'), '<svg/>');
  core = await createNodeCore({ host: 'browser', dataDir: join(dir, 'data'), log: createFakeLogger() });
  host = await startBrowserHost({ core, rendererDir, secret: 's3cret-for-tests' });
});
afterAll(() => host.close());

function call(path: string, opts: { method?: string; headers?: Record<string, string>; body?: string } = {}) {
  return new Promise<{ status: number; body: string; headers: Record<string, unknown> }>(
    (resolve, reject) => {
      const req = request(
        `${host.origin}${path}`,
        { method: opts.method ?? 'POST', headers: opts.headers },
        (res) => {
          let body = '';
          res.on('data', (c: Buffer) => (body += c.toString()));
          res.on('end', () => resolve({ status: res.statusCode ?? 0, body, headers: res.headers }));
        },
      );
      req.on('error', reject);
      req.end(opts.body);
    },
  );
}
const auth = { 'x-refund-desk-secret': 's3cret-for-tests', 'content-type': 'application/json' };

describe('browser host', () => {
  it('serves the page while its core opens; a call made meanwhile is answered once the core is open', async () => {
    let open: (c: AppCore) => void = () => {};
    const opening = new Promise<AppCore>((resolve) => (open = resolve));
    const rendererDir = join(mkdtempSync(join(tmpdir(), 'rd-host-early-')), 'renderer');
    mkdirSync(rendererDir);
    writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>early</body></html>');
    const early = await startBrowserHost({ core: opening, rendererDir, secret: 's3cret-for-tests' });
    try {
      const page = await fetch(`${early.origin}/`);
      expect(page.status).toBe(200);
      expect(await page.text()).toContain('early');
      let answered = false;
      const info = fetch(`${early.origin}/ipc/app.info`, {
        method: 'POST',
        headers: auth,
        body: '{"input":null}',
      })
        .then((r) => r.json())
        .finally(() => (answered = true));
      await new Promise((r) => setTimeout(r, 50));
      expect(answered).toBe(false);
      open(core);
      expect(await info).toMatchObject({ ok: true, value: { host: 'browser' } });
    } finally {
      await early.close();
    }
  });

  it('binds to 127.0.0.1 and serves the handlers with the per-run secret', async () => {
    expect(host.origin).toMatch(/^http:\/\/127\.0\.0\.1:\d+$/);
    const r = await call('/ipc/app.info', { headers: auth, body: '{"input":null}' });
    expect(JSON.parse(r.body)).toMatchObject({ ok: true, value: { host: 'browser' } });
  });

  it('refuses calls without the secret, or with a wrong one', async () => {
    for (const headers of [
      {} as Record<string, string>,
      { 'x-refund-desk-secret': 'wrong' },
      { 'x-refund-desk-secret': 's3cret-for-testz' },
    ]) {
      const r = await call('/ipc/app.info', { headers, body: '{}' });
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });

  it('refuses a foreign Origin and a rebinding Host header', async () => {
    const a = await call('/ipc/app.info', {
      headers: { ...auth, origin: 'https://evil.example' },
      body: '{}',
    });
    expect(a.status).toBe(403);
    const b = await call('/ipc/app.info', { headers: { ...auth, host: 'evil.example' }, body: '{}' });
    expect(b.status).toBe(421);
  });

  it('answers bad input and unparseable bodies with invalid_input in the envelope', async () => {
    const a = await call('/ipc/app.openExternal', { headers: auth, body: '{"input":{"url":1}}' });
    expect(JSON.parse(a.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const b = await call('/ipc/app.openExternal', { headers: auth, body: '{not json' });
    expect(JSON.parse(b.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    const c = await call('/ipc/nope.nothing', { headers: auth, body: '{}' });
    expect(JSON.parse(c.body)).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
  });

  it('serves the renderer with the CSP header and the bridge script injected first', async () => {
    const r = await call('/', { method: 'GET' });
    expect(r.headers['content-security-policy']).toContain("script-src 'self'");
    expect(r.body).toMatch(/<head>\s*<script src="\/__host\/bridge\.js"><\/script>/);
    const traversal = await call('/../../etc/passwd', { method: 'GET' });
    expect([403, 404]).toContain(traversal.status);
  });

  it('puts the bridge, deferred, right before the entry module in a built page, so it runs first without stopping the parser', () => {
    // The shape Vite writes: the entry module, its preloads, the stylesheet.
    const built = [
      '<html><head>',
      '<meta charset="UTF-8" />',
      '<script type="module" crossorigin src="./assets/index-A1.js"></script>',
      '<link rel="modulepreload" crossorigin href="./assets/react-B2.js">',
      '<link rel="stylesheet" crossorigin href="./assets/index-C3.css">',
      '</head><body><div id="root"></div></body></html>',
    ].join('\n');
    const page = withBridge(built);
    const at = (text: string) => page.indexOf(text);
    const bridge = at('<script defer src="/__host/bridge.js"></script>');
    // Deferred scripts and module scripts run in document order once the document is parsed: the
    // bridge, before the entry module, runs before it.
    expect(bridge).toBeGreaterThan(at('<meta charset'));
    expect(bridge).toBeLessThan(at('<script type="module"'));
    expect(page.match(/__host\/bridge\.js/g)).toHaveLength(1);
    expect(page.replace(/<script defer src="\/__host\/bridge\.js"><\/script>\n\s*/, '')).toBe(built);
    // Without a module script in the head (as this suite's page): a plain script first in the head, as
    // deferring it would let the page's own classic scripts run before it.
    expect(withBridge('<html><head></head><body>app</body></html>')).toMatch(
      /^<html><head>\s*<script src="\/__host\/bridge\.js"><\/script>\s*<\/head>/,
    );
  });

  it('answers app.bootstrap with what app.info, app.health, profiles.list, team.status and the active profile’s refunds.list answer, in one round', async () => {
    const one = async (channel: string) =>
      JSON.parse((await call(`/ipc/${channel}`, { headers: auth, body: '{}' })).body);
    const boot = await one('app.bootstrap');
    expect(boot.ok).toBe(true);
    expect(boot.value.info).toEqual((await one('app.info')).value);
    expect(boot.value.profiles).toEqual((await one('profiles.list')).value);
    expect(boot.value.team).toEqual((await one('team.status')).value);
    const active = boot.value.profiles.activeProfileId;
    expect(active).toBeTruthy();
    const intents = JSON.parse(
      (
        await call('/ipc/refunds.list', {
          headers: auth,
          body: JSON.stringify({ input: { profileId: active } }),
        })
      ).body,
    );
    expect(intents.ok).toBe(true);
    expect(boot.value.intents).toEqual(intents.value);
    const health = (await one('app.health')).value;
    expect(boot.value.health.status).toBe(health.status);
    expect(boot.value.health.checks.map((c: { name: string }) => c.name)).toEqual(
      health.checks.map((c: { name: string }) => c.name),
    );
  });

  it('lets the browser keep hashed assets for good; index.html is asked again, the bridge and calls never kept', async () => {
    const asset = await call('/assets/index-DyDeDOq2.js', { method: 'GET' });
    expect(asset.status).toBe(200);
    expect(asset.headers['cache-control']).toBe('public, max-age=31536000, immutable');
    expect(asset.headers['content-security-policy']).toContain("script-src 'self'");
    for (const path of ['/', '/index.html', '/favicon.svg']) {
      const r = await call(path, { method: 'GET' });
      expect(r.status, path).toBe(200);
      expect(r.headers['cache-control'], path).toBe('no-cache');
    }
    expect((await call('/__host/bridge.js', { method: 'GET' })).headers['cache-control']).toBe('no-store');
    expect((await call('/ipc/app.info', { headers: auth, body: '{}' })).headers['cache-control']).toBe(
      'no-store',
    );
    expect((await call('/assets/index-AAAAAAAA.js', { method: 'GET' })).headers['cache-control']).toBe(
      'no-store',
    );
  });

  it('confines percent-encoded traversal to the renderer directory', async () => {
    // URL parsing leaves %2f alone, so this reaches the check as `/../../etc/passwd` only after decoding.
    for (const path of [
      '/..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      '/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
    ]) {
      const r = await call(path, { method: 'GET' });
      expect([403, 404], path).toContain(r.status);
      expect(r.body).not.toMatch(/root:/);
    }
  });

  it('answers malformed percent-encoding with 400, not an error', async () => {
    for (const [path, method] of [
      ['/%', 'GET'],
      ['/index%E0%A4%A.html', 'GET'],
      ['/ipc/app.info%', 'POST'],
    ] as const) {
      const r = await call(path, { method, headers: auth, body: method === 'POST' ? '{}' : undefined });
      expect(r.status, path).toBe(400);
    }
  });

  it('takes `//…` request targets as paths on our origin, never as another host (found by fuzzing: 500)', async () => {
    expect((await call('//', { method: 'GET' })).status).toBe(404);
    // Not dispatched as /ipc/app.info of another host: it is the path `//evil.example/…` here.
    const r = await call('//evil.example/ipc/app.info', { headers: auth, body: '{}' });
    expect(r.status).toBe(405);
  });

  it('refuses the event stream without the secret', async () => {
    for (const headers of [{} as Record<string, string>, { 'x-refund-desk-secret': 'wrong' }]) {
      const r = await call('/events', { method: 'GET', headers });
      expect(r.status).toBe(403);
      expect(JSON.parse(r.body)).toMatchObject({ ok: false, error: { code: 'forbidden' } });
    }
  });
});

/**
 * Runs the served /__host/bridge.js as a page would: a fresh global with the page's APIs (fetch goes to
 * the host over real HTTP; timers stop once the test is done, so the stream's reconnect loop ends).
 */
function loadPage(script: string) {
  const stored = new Map<string, string>();
  const replaced: string[] = [];
  let done = false;
  const page: Record<string, unknown> = {
    location: { hash: '#secret=s3cret-for-tests', pathname: '/', search: '' },
    history: { replaceState: (_s: unknown, _t: string, url: string) => replaced.push(url) },
    sessionStorage: {
      getItem: (k: string) => stored.get(k) ?? null,
      setItem: (k: string, v: string) => stored.set(k, v),
    },
    fetch: (path: string, init: RequestInit) => fetch(`${host.origin}${path}`, init),
    setTimeout: (fn: () => void, ms: number) => (done ? undefined : setTimeout(fn, ms)),
    URLSearchParams,
    TextDecoderStream,
    console,
  };
  page.window = page;
  createContext(page);
  runInContext(script, page);
  return { page, stored, replaced, stop: () => (done = true) };
}

describe('browser host: the page bridge', () => {
  it('is bundled from the shared builder, and served as it was bundled', async () => {
    const { code, moduleIds } = await pageBridgeScript();
    expect(moduleIds).toContain(resolve('shared/ipc/bridge.ts'));
    expect(moduleIds).toContain(resolve('electron/hosts/web/page/bridge.ts'));
    // Nothing but plain constants, types and the early bootstrap besides: no zod, no contract schemas.
    expect(moduleIds.map((m) => m.replace(`${resolve('.')}/`, '')).sort()).toEqual([
      'electron/hosts/web/page/bridge.ts',
      'shared/ipc/bridge.ts',
      'shared/ipc/channels.ts',
      'shared/ipc/early-bootstrap.ts',
    ]);
    const served = await call('/__host/bridge.js', { method: 'GET' });
    expect(served.status).toBe(200);
    expect(served.headers['content-type']).toMatch(/^text\/javascript/);
    expect(served.body).toBe(code);
  });

  it('exposes exactly the channel list, frozen, and its operations reach main over HTTP', async () => {
    const { body } = await call('/__host/bridge.js', { method: 'GET' });
    const { page, stored, replaced, stop } = loadPage(body);
    try {
      const bridge = page[BRIDGE_GLOBAL] as Record<string, unknown> & { on: Record<string, unknown> };
      // The same keys in the same order as the builder gives any transport (and so the preload).
      const reference = buildBridge({
        invoke: async () => ({ ok: true, value: undefined as never }),
        subscribe: () => () => {},
      });
      expect(Object.keys(bridge)).toEqual(Object.keys(reference));
      expect(Object.keys(bridge).sort()).toEqual([...INVOKE_CHANNELS, 'on'].sort());
      expect(Object.keys(bridge.on).sort()).toEqual([...EVENT_CHANNELS].sort());
      for (const name of ['nope.nothing', 'invoke', 'call', 'refunds.delete']) {
        expect(name in bridge, name).toBe(false);
      }
      expect(Object.isFrozen(bridge)).toBe(true);
      // The secret moved from the address into sessionStorage, and the address lost it.
      expect([...stored.values()]).toEqual(['s3cret-for-tests']);
      expect(replaced).toEqual(['/']);

      const info = await (bridge['app.info'] as () => Promise<unknown>)();
      expect(info).toMatchObject({ ok: true, value: { host: 'browser' } });
      const bad = await (bridge['app.openExternal'] as (i: unknown) => Promise<unknown>)({ url: 1 });
      expect(bad).toMatchObject({ ok: false, error: { code: 'invalid_input' } });
    } finally {
      stop();
    }
  });

  it('delivers an event main emits to a listener, payload only, until it unsubscribes', async () => {
    const { body } = await call('/__host/bridge.js', { method: 'GET' });
    const { page, stop } = loadPage(body);
    try {
      const on = (page[BRIDGE_GLOBAL] as { on: Record<string, (l: (...a: unknown[]) => void) => () => void> })
        .on;
      const got: unknown[][] = [];
      const off = on['app.notice']!((...args) => got.push(args));
      const notice = { level: 'info' as const, message: 'hello from main' };
      // The stream connects asynchronously: emit until the listener has heard it.
      await expect
        .poll(() => {
          core.events.emit('app.notice', notice);
          return got.length;
        })
        .toBeGreaterThan(0);
      expect(got[0]).toEqual([notice]);
      off();
      const heard = got.length;
      core.events.emit('app.notice', notice);
      await new Promise((r) => setTimeout(r, 50));
      expect(got).toHaveLength(heard);
    } finally {
      stop();
    }
  });
});

describe('browser host: a prebuilt page bridge', () => {
  it('serves the script it is given, with the same headers, instead of bundling one', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-host-prebuilt-'));
    mkdirSync(join(dir, 'renderer'));
    writeFileSync(join(dir, 'renderer', 'index.html'), '<html><head></head><body>app</body></html>');
    const given = '/* prebuilt */ window.prebuiltBridge = true;';
    const other = await startBrowserHost({ core, rendererDir: join(dir, 'renderer'), bridgeScript: given });
    try {
      const served = await fetch(`${other.origin}/__host/bridge.js`);
      expect(served.status).toBe(200);
      expect(served.headers.get('content-type')).toMatch(/^text\/javascript/);
      expect(served.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(await served.text()).toBe(given);
      const page = await (await fetch(`${other.origin}/`)).text();
      expect(page).toMatch(/<head>\s*<script src="\/__host\/bridge\.js"><\/script>/);
    } finally {
      await other.close();
    }
  });

  it('takes the prebuilt file beside the host when there is one, and says nothing', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-host-prebuilt-'));
    writeFileSync(join(dir, PREBUILT_BRIDGE), '/* from the build */');
    const notes: string[] = [];
    expect(await servedBridgeScript(dir, (n) => notes.push(n))).toBe('/* from the build */');
    expect(notes).toEqual([]);
  });

  it('bundles from source when no prebuilt file is there, and says so', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'rd-host-prebuilt-'));
    const notes: string[] = [];
    const code = await servedBridgeScript(dir, (n) => notes.push(n));
    expect(code).toBe((await pageBridgeScript()).code);
    expect(notes).toHaveLength(1);
    expect(notes[0]).toContain(join(dir, PREBUILT_BRIDGE));
    expect(notes[0]).toContain('bundling it from source in memory');
  });
});

describe('browser host: oversized bodies on a keep-alive connection', () => {
  /** Sends over one keep-alive socket (maxSockets 1) so the second request must reuse the first's. */
  function send(agent: Agent, body: Buffer | string) {
    return new Promise<{ status: number; body: string; reused: boolean }>((resolve, reject) => {
      const req = request(`${host.origin}/ipc/app.info`, { method: 'POST', agent, headers: auth }, (res) => {
        let text = '';
        res.on('data', (c: Buffer) => (text += c.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text, reused: req.reusedSocket }));
      });
      req.on('error', reject);
      req.end(body);
    });
  }

  it('answers a body over 16 MB with 413 and drains it, so the next request on the connection works', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const huge = Buffer.alloc(17 * 1024 * 1024, 0x61);
      const first = await send(agent, huge);
      expect(first.status).toBe(413);
      expect(JSON.parse(first.body)).toMatchObject({
        ok: false,
        error: { code: 'invalid_input', message: expect.stringContaining('16 MB') },
      });
      const next = await send(agent, '{"input":null}');
      expect(next.status).toBe(200);
      expect(next.reused).toBe(true);
      expect(JSON.parse(next.body)).toMatchObject({ ok: true, value: { host: 'browser' } });
    } finally {
      agent.destroy();
    }
  });

  it('closes instead of draining past 64 MB, and the host keeps serving', async () => {
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const absurd = Buffer.alloc(65 * 1024 * 1024, 0x61);
      const first = await send(agent, absurd).catch((e: NodeJS.ErrnoException) => e.code);
      // Either the 413 arrives before the close, or the client sees the close while still writing.
      if (typeof first === 'object') expect(first.status).toBe(413);
      else expect(['ECONNRESET', 'EPIPE']).toContain(first);
      const next = await send(agent, '{"input":null}');
      expect(next.status).toBe(200);
    } finally {
      agent.destroy();
    }
  });
});
