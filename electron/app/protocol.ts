import { readFile } from 'node:fs/promises';
import { join, normalize, sep } from 'node:path';
import { protocol } from 'electron';
import { assetCacheControl } from '../core/adapters/asset-cache';
import { contentTypeOf } from '../core/adapters/content-types';
import { RENDERER_CSP } from './security/csp';
import { APP_HOST, APP_SCHEME } from './security/guards';

/** Must run before app 'ready': our scheme is standard and secure (so 'self' works in the CSP). */
export function registerAppScheme(): void {
  protocol.registerSchemesAsPrivileged([
    {
      scheme: APP_SCHEME,
      // supportFetchAPI: module workers (the CSV parser, the cache writer) are loaded through fetch. The renderer itself
      // still cannot fetch anything: the CSP header says connect-src 'none'.
      privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: false },
    },
  ]);
}

/**
 * Serves the built renderer from app://renderer/ with the CSP and hardening headers on every response,
 * and lets Chromium keep the hashed assets for good (index.html is asked again: see asset-cache).
 * Paths are confined to the renderer directory.
 */
export function serveRenderer(rendererDir: string): void {
  const root = normalize(rendererDir + sep);
  protocol.handle(APP_SCHEME, async (request) => {
    const url = new URL(request.url);
    if (url.host !== APP_HOST) return new Response('Not found', { status: 404 });
    let rel: string;
    try {
      rel = decodeURIComponent(url.pathname === '/' ? '/index.html' : url.pathname);
    } catch {
      return new Response('Bad request', { status: 400 }); // malformed percent-encoding, e.g. `/%`
    }
    const file = normalize(join(root, rel));
    if (!file.startsWith(root)) return new Response('Forbidden', { status: 403 });
    try {
      const body = await readFile(file);
      return new Response(body, {
        headers: {
          'content-type': contentTypeOf(file),
          'cache-control': assetCacheControl(url.pathname === '/' ? '/index.html' : url.pathname),
          'content-security-policy': RENDERER_CSP,
          'x-content-type-options': 'nosniff',
          'cross-origin-opener-policy': 'same-origin',
        },
      });
    } catch {
      return new Response('Not found', { status: 404 });
    }
  });
}
