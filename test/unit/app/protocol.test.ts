import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { beforeAll, describe, expect, it, vi } from 'vitest';

/** Electron's protocol module is mocked: `handle` captures the handler so it can be called directly. */
type ProtocolHandler = (request: Request) => Promise<Response>;
let handler: ProtocolHandler | undefined;
vi.mock('electron', () => ({
  protocol: {
    handle: (_scheme: string, fn: ProtocolHandler) => (handler = fn),
    registerSchemesAsPrivileged: () => {},
  },
}));

const { serveRenderer } = await import('../../../electron/app/protocol');
const { RENDERER_CSP } = await import('../../../electron/app/security/csp');

const get = (url: string) => handler!(new Request(url));

describe('app:// renderer protocol', () => {
  beforeAll(() => {
    // Deep enough that six `..` would reach / if confinement failed.
    const rendererDir = join(mkdtempSync(join(tmpdir(), 'rd-proto-')), 'a', 'b', 'renderer');
    mkdirSync(join(rendererDir, 'assets'), { recursive: true });
    writeFileSync(join(rendererDir, 'index.html'), '<html><head></head><body>app</body></html>');
    writeFileSync(join(rendererDir, 'assets', 'main.js'), 'console.log(1)');
    writeFileSync(join(rendererDir, 'assets', 'index-DyDeDOq2.js'), 'console.log(2)');
    writeFileSync(join(rendererDir, 'assets', 'index-C1o7_rzL.css'), 'a{}');
    writeFileSync(join(rendererDir, '..', 'outside.txt'), 'outside the renderer');
    serveRenderer(rendererDir);
  });

  it('serves the renderer with the CSP and hardening headers', async () => {
    for (const url of ['app://renderer/index.html', 'app://renderer/']) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('content-security-policy')).toBe(RENDERER_CSP);
      expect(r.headers.get('x-content-type-options')).toBe('nosniff');
      expect(await r.text()).toContain('<body>app</body>');
    }
    const js = await get('app://renderer/assets/main.js');
    expect(js.status).toBe(200);
    expect(js.headers.get('content-security-policy')).toBe(RENDERER_CSP);
  });

  it('lets Chromium keep the hashed assets for good; index.html and unhashed files are asked again', async () => {
    for (const url of ['app://renderer/assets/index-DyDeDOq2.js', 'app://renderer/assets/index-C1o7_rzL.css'])
      expect((await get(url)).headers.get('cache-control'), url).toBe('public, max-age=31536000, immutable');
    for (const url of ['app://renderer/', 'app://renderer/index.html', 'app://renderer/assets/main.js']) {
      const r = await get(url);
      expect(r.status, url).toBe(200);
      expect(r.headers.get('cache-control'), url).toBe('no-cache');
      expect(r.headers.get('content-security-policy'), url).toBe(RENDERER_CSP);
    }
  });

  it('confines paths to the renderer directory, encoded or not', async () => {
    for (const url of [
      'app://renderer/..%2f..%2f..%2f..%2f..%2f..%2f..%2f..%2fetc%2fpasswd',
      'app://renderer/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/%2e%2e/etc/passwd',
      'app://renderer/..%2foutside.txt',
      'app://renderer/../outside.txt',
    ]) {
      const r = await get(url);
      expect([403, 404], url).toContain(r.status);
      const body = await r.text();
      expect(body, url).not.toMatch(/root:/);
      expect(body, url).not.toContain('outside the renderer');
    }
  });

  it('answers another host with 404 and malformed percent-encoding with 400', async () => {
    expect((await get('app://evil/index.html')).status).toBe(404);
    expect((await get('app://renderer/%')).status).toBe(400);
    expect((await get('app://renderer/index%E0%A4%A.html')).status).toBe(400);
  });
});
