import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { request } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import fc from 'fast-check';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVOKE_CHANNELS } from '../../../shared/ipc/channels';
import { createNodeCore } from '../../../electron/hosts/node-core';
import type { AppCore } from '../../../electron/core/compose';
import { type BrowserHost, startBrowserHost } from '../../../electron/hosts/web/server';
import { createFakeLogger } from '../../fakes/logger';
import { createTally, FUZZ_SEED, fuzzRuns, reportFigures } from './figures';

/**
 * The browser host's HTTP transport of the same IPC (dev and tests only, but it listens on a port):
 * random bodies, content types, paths, methods and headers. With the secret, every /ipc call answers
 * the envelope (or 413 past 16 MB); without it, 403 before the body is read; nothing answers 500, and
 * the profiles (the state this host's callers could change) stay as they were.
 */
const SECRET = 'fuzz-host-secret-0123456789';
const tally = createTally();
let core: AppCore;
let host: BrowserHost;

beforeAll(async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-fuzz-host-'));
  mkdirSync(join(dir, 'renderer'));
  writeFileSync(join(dir, 'renderer', 'index.html'), '<html><head></head><body></body></html>');
  core = await createNodeCore({
    host: 'browser',
    dataDir: join(dir, 'data'),
    log: createFakeLogger(),
    demo: false,
  });
  host = await startBrowserHost({ core, rendererDir: join(dir, 'renderer'), secret: SECRET });
});
afterAll(async () => {
  await host.close();
  await core.close();
  reportFigures('browser-host', tally.rows());
});

function call(path: string, method: string, headers: Record<string, string>, body?: Buffer | string) {
  return new Promise<{ status: number; body: string } | { error: string }>((resolve) => {
    const req = request(`${host.origin}${path}`, { method, headers, agent: false }, (res) => {
      let text = '';
      res.on('data', (c: Buffer) => (text += c.toString()));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
    });
    req.on('error', (e: NodeJS.ErrnoException) => resolve({ error: e.code ?? 'error' }));
    req.end(body);
  });
}

const profiles = async () => JSON.stringify(await core.dispatch('profiles.list', undefined));

describe('browser host transport under hostile requests', () => {
  it('with the secret: any body to any channel answers 200 with the envelope, never a 500', async () => {
    const before = await profiles();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INVOKE_CHANNELS),
        fc.oneof(
          fc.uint8Array({ maxLength: 512 }).map((b) => Buffer.from(b)),
          fc.string({ maxLength: 200 }),
          fc.jsonValue({ maxDepth: 4 }).map((v) => JSON.stringify(v)),
          fc.jsonValue({ maxDepth: 3 }).map((v) => JSON.stringify({ input: v })),
          fc.constantFrom(
            '',
            '{',
            '{"input":',
            'null',
            '[]',
            '{"input":{"__proto__":{"polluted":1}}}',
            '\u0000',
          ),
        ),
        fc.constantFrom(
          'application/json',
          'text/plain',
          'application/x-www-form-urlencoded',
          'multipart/form-data',
        ),
        async (channel, body, type) => {
          const r = await call(
            `/ipc/${channel}`,
            'POST',
            { 'x-refund-desk-secret': SECRET, 'content-type': type },
            body,
          );
          const outcome =
            'error' in r
              ? r.error
              : `${r.status} ${r.status === 200 ? ((JSON.parse(r.body) as { ok: boolean; error?: { code: string } }).error?.code ?? 'ok') : ''}`;
          tally.add('body with secret', outcome.trim());
          expect('status' in r && r.status).toBe(200);
          const envelope = JSON.parse((r as { body: string }).body) as {
            ok: boolean;
            error?: { code: string };
          };
          expect(envelope.error?.code).not.toBe('internal');
        },
      ),
      { seed: FUZZ_SEED + 200, numRuns: fuzzRuns(200) },
    );
    expect(await profiles()).toBe(before);
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
  });

  it('without the right secret, or from another origin or host: refused before anything runs', async () => {
    const before = await profiles();
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...INVOKE_CHANNELS),
        fc.oneof(
          fc.record({
            kind: fc.constant('secret'),
            value: fc.string({ maxLength: 64 }).filter((s) => s !== SECRET),
          }),
          fc.record({ kind: fc.constant('origin'), value: fc.webUrl() }),
          fc.record({ kind: fc.constant('host'), value: fc.domain() }),
        ),
        async (channel, attack) => {
          const headers: Record<string, string> = { 'content-type': 'application/json' };
          if (attack.kind === 'secret')
            headers['x-refund-desk-secret'] = attack.value.replace(/[^\x21-\x7e]/g, 'x');
          else headers['x-refund-desk-secret'] = SECRET;
          if (attack.kind === 'origin') headers['origin'] = attack.value;
          if (attack.kind === 'host') headers['host'] = attack.value;
          const r = await call(
            `/ipc/${channel}`,
            'POST',
            headers,
            '{"input":{"name":"x","merchantNo":"1","storeNo":"1","environment":"vendor-sandbox"}}',
          );
          tally.add(`wrong ${attack.kind}`, 'error' in r ? r.error : String(r.status));
          expect('status' in r && [403, 421].includes(r.status)).toBe(true);
        },
      ),
      { seed: FUZZ_SEED + 201, numRuns: fuzzRuns(150) },
    );
    expect(await profiles()).toBe(before);
  });

  it('random paths and methods never answer 500', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.webPath(),
        fc.constantFrom('GET', 'POST', 'PUT', 'DELETE', 'OPTIONS', 'PATCH'),
        async (path, method) => {
          const r = await call(
            path.startsWith('/') ? path : `/${path}`,
            method,
            { 'x-refund-desk-secret': SECRET },
            '{}',
          );
          tally.add('random path/method', 'error' in r ? r.error : String(r.status));
          expect('status' in r && r.status < 500).toBe(true);
        },
      ),
      { seed: FUZZ_SEED + 202, numRuns: fuzzRuns(100) },
    );
  });
});
