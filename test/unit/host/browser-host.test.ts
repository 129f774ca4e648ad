import { mkdtempSync, mkdirSync, writeFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createNodeCore } from '../../../electron/hosts/node-core';
import { type BrowserHost, startBrowserHost } from '../../../electron/hosts/web/server';
import { createFakeLogger } from '../../fakes/logger';

let host: BrowserHost;
beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-host-'));
  const rendererDir = join(dir, 'renderer');
  mkdirSync(rendererDir);
  writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>app</body></html>');
  const core = await createNodeCore({ host: 'browser', dataDir: join(dir, 'data'), log: createFakeLogger() });
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
