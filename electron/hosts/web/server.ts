import { randomBytes, timingSafeEqual } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { createServer, type IncomingMessage, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize, sep } from 'node:path';
import { assetCacheControl } from '../../core/adapters/asset-cache';
import { contentTypeOf } from '../../core/adapters/content-types';
import type { AppCore } from '../../core/compose';
import { BROWSER_HOST_CSP } from '../../app/security/csp';
import { pageBridgeScript } from './page-script';

const MAX_BODY = 16 * 1024 * 1024;
/**
 * An oversized body is read to its end and dropped (so a keep-alive connection stays usable for the
 * next request); past this much the connection is closed instead of draining any longer.
 */
const MAX_DRAIN = 64 * 1024 * 1024;

/** decodeURIComponent that answers undefined for malformed percent-encoding (e.g. `/%`) instead of throwing. */
function decodePath(text: string): string | undefined {
  try {
    return decodeURIComponent(text);
  } catch {
    return undefined;
  }
}

/**
 * The request target as a URL on our own origin. Only origin-form targets (`/path?query`) are taken:
 * `//other/x` would otherwise parse as another host, and `http://…` (proxy form) is not for us.
 */
function requestUrl(target: string | undefined, origin: string): URL | undefined {
  if (!target?.startsWith('/')) return undefined;
  try {
    return new URL(`${origin}${target}`);
  } catch {
    return undefined;
  }
}

/** A core as the host serves it: each call's envelope and each event already as the JSON text that goes out. */
interface ServedCore {
  call(channel: string, input: unknown): Promise<string>;
  /** Each event as its line of the event stream (JSON of `{ event, payload }`); returns unsubscribe. */
  onEvent(listener: (line: string) => void): () => void;
}

function servedCore(core: Pick<AppCore, 'dispatch' | 'events'>): ServedCore {
  return {
    call: async (channel, input) => JSON.stringify(await core.dispatch(channel, input)),
    onEvent: (listener) =>
      core.events.subscribe((event, payload) => listener(JSON.stringify({ event, payload }))),
  };
}

export interface BrowserHostOptions {
  /**
   * The core, or the promise of it: a host may start serving the page while its core opens (cli.ts),
   * and calls wait for it. A core that fails to open fails the calls (the host's process exits).
   */
  core: AppCore | Promise<AppCore>;
  rendererDir: string;
  port?: number;
  /** Fixed secret for tests; a random one per run otherwise. */
  secret?: string;
  /**
   * The page bridge script to serve (the built host passes its prebuilt out/web/bridge.js); bundled
   * from page/bridge.ts in memory when absent, as for a host run from source.
   */
  bridgeScript?: string;
}

export interface BrowserHost {
  /** Origin, e.g. http://127.0.0.1:5123 */
  origin: string;
  /** The URL to open: origin + '/#secret=…' (the fragment never reaches the server). */
  url: string;
  secret: string;
  port: number;
  close(): Promise<void>;
}

const secretMatches = (given: string | undefined, secret: string): boolean => {
  if (!given) return false;
  const a = Buffer.from(given);
  const b = Buffer.from(secret);
  return a.length === b.length && timingSafeEqual(a, b);
};

function send(
  res: ServerResponse,
  status: number,
  type: string,
  body: string | Buffer,
  extra: Record<string, string> = {},
  // Only the renderer's own files may be kept (see asset-cache); calls, the bridge (which holds the
  // per-run secret) and errors never are.
  cacheControl = 'no-store',
): void {
  res.writeHead(status, {
    ...extra,
    'content-type': type,
    'content-security-policy': BROWSER_HOST_CSP,
    'x-content-type-options': 'nosniff',
    'cache-control': cacheControl,
    'referrer-policy': 'no-referrer',
  });
  res.end(body);
}

type Body = { kind: 'ok'; text: string } | { kind: 'too_large'; drained: boolean };

/**
 * Reads the request body. Over MAX_BODY the bytes are no longer kept but still read to the end
 * (breaking off would leave the rest on a keep-alive socket, and destroying the stream resets the
 * connection under the client's next request); past MAX_DRAIN reading stops and the caller closes.
 */
function readBody(req: IncomingMessage): Promise<Body> {
  return new Promise((resolve, reject) => {
    let size = 0;
    const chunks: Buffer[] = [];
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= MAX_BODY) chunks.push(chunk);
      else if (size > MAX_DRAIN) {
        req.off('data', onData);
        req.pause();
        resolve({ kind: 'too_large', drained: false });
      }
    };
    req.on('data', onData);
    req.on('end', () =>
      resolve(
        size > MAX_BODY
          ? { kind: 'too_large', drained: true }
          : { kind: 'ok', text: Buffer.concat(chunks).toString('utf8') },
      ),
    );
    req.on('error', reject);
  });
}

/** The refusals' envelopes, loaded when first needed (see refusals.ts). */
const refusals = () => import('./refusals');

const BRIDGE_SRC = '/__host/bridge.js';

/**
 * The page with the bridge's script in its head. The bridge must exist before the renderer's module
 * runs. In a built page it goes right before the entry module's tag as a deferred classic script:
 * deferred scripts and module scripts run in document order once the document is parsed, so the bridge
 * still runs first, while the parser no longer stops to fetch and run it, as it did for a plain script
 * (measured with the core's turns in cli.ts). A page without a module script gets it as a plain script
 * first in its head: deferred, the page's own classic scripts would run before it.
 */
export function withBridge(html: string): string {
  const entry = /<script\b[^>]*\btype="module"[^>]*><\/script>/.exec(html);
  const headEnd = html.indexOf('</head>');
  if (!entry || headEnd < 0 || entry.index > headEnd)
    return html.replace('<head>', `<head>\n    <script src="${BRIDGE_SRC}"></script>`);
  return `${html.slice(0, entry.index)}<script defer src="${BRIDGE_SRC}"></script>\n    ${html.slice(entry.index)}`;
}

/**
 * Development/test host: serves the built renderer and the same IPC handlers over loopback HTTP.
 * Bound to 127.0.0.1 only; every IPC and event call must carry the per-run secret; the Host header must
 * be our own (DNS-rebinding guard) and a cross-origin Origin is refused. Not packaged with the app.
 */
export async function startBrowserHost(opts: BrowserHostOptions): Promise<BrowserHost> {
  const secret = opts.secret ?? randomBytes(24).toString('base64url');
  const bridgeScript = opts.bridgeScript ?? (await pageBridgeScript()).code;
  const root = normalize(opts.rendererDir + sep);
  const streams = new Set<ServerResponse>();
  let origin = '';

  const core = Promise.resolve(opts.core).then(servedCore);
  let stopped = false;
  let unsubscribe = () => {};
  core.then(
    (c) => {
      if (stopped) return;
      unsubscribe = c.onEvent((line) => {
        for (const s of streams) s.write(`${line}\n`);
      });
    },
    // Whoever opens the core reports its failure; calls made meanwhile fail with "Host error".
    () => undefined,
  );

  const server = createServer((req, res) => {
    void (async () => {
      const host = req.headers.host ?? '';
      if (host !== new URL(origin).host) return send(res, 421, 'text/plain', 'Wrong host');
      const reqOrigin = req.headers.origin;
      if (reqOrigin && reqOrigin !== origin)
        return send(res, 403, 'text/plain', 'Cross-origin requests are refused');
      const url = requestUrl(req.url, origin);
      if (!url) return send(res, 400, 'text/plain', 'Bad request');

      if (url.pathname.startsWith('/ipc/')) {
        if (req.method !== 'POST') return send(res, 405, 'text/plain', 'POST only');
        if (!secretMatches(req.headers['x-refund-desk-secret'] as string | undefined, secret)) {
          return send(res, 403, 'application/json', (await refusals()).forbidden());
        }
        const channel = decodePath(url.pathname.slice('/ipc/'.length));
        if (channel === undefined) return send(res, 400, 'text/plain', 'Bad request');
        const body = await readBody(req);
        if (body.kind === 'too_large') {
          // Drained: the connection stays usable. Not drained (absurdly large): close it after answering.
          return send(
            res,
            413,
            'application/json',
            (await refusals()).tooLarge(MAX_BODY),
            body.drained ? {} : { connection: 'close' },
          );
        }
        let input: unknown;
        try {
          const parsed: unknown = body.text ? JSON.parse(body.text) : {};
          input =
            parsed && typeof parsed === 'object' && 'input' in parsed
              ? (parsed as { input: unknown }).input
              : undefined;
          if (input === null) input = undefined;
        } catch {
          input = Symbol('unparseable'); // fails schema validation → invalid_input envelope
        }
        return send(res, 200, 'application/json', await (await core).call(channel, input));
      }

      if (url.pathname === '/events') {
        if (!secretMatches(req.headers['x-refund-desk-secret'] as string | undefined, secret)) {
          return send(res, 403, 'application/json', (await refusals()).forbidden());
        }
        res.writeHead(200, { 'content-type': 'application/x-ndjson', 'cache-control': 'no-store' });
        res.write('\n');
        streams.add(res);
        req.on('close', () => streams.delete(res));
        return;
      }

      if (req.method !== 'GET' && req.method !== 'HEAD') return send(res, 405, 'text/plain', 'GET only');
      if (url.pathname === BRIDGE_SRC) return send(res, 200, contentTypeOf('bridge.js'), bridgeScript);
      const rel = url.pathname === '/' ? '/index.html' : decodePath(url.pathname);
      if (rel === undefined) return send(res, 400, 'text/plain', 'Bad request');
      const file = normalize(join(root, rel));
      if (!file.startsWith(root)) return send(res, 403, 'text/plain', 'Forbidden');
      try {
        // Read in the request's own turn: the renderer's files are small and in the OS cache, and a
        // file answered at once never waits behind the core's opening (cli.ts), which blocks the thread
        // between its own turns; a read on the thread pool would be answered only after it.
        let body: string | Buffer = readFileSync(file);
        if (rel === '/index.html') body = withBridge(body.toString('utf8'));
        return send(res, 200, contentTypeOf(file), body, {}, assetCacheControl(rel));
      } catch {
        return send(res, 404, 'text/plain', 'Not found — run npm run build first.');
      }
    })().catch(() => {
      if (!res.headersSent) send(res, 500, 'text/plain', 'Host error');
      else res.end();
    });
  });

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, '127.0.0.1', () => resolve());
  });
  const port = (server.address() as AddressInfo).port;
  origin = `http://127.0.0.1:${port}`;
  return {
    origin,
    url: `${origin}/#secret=${secret}`,
    secret,
    port,
    close: async () => {
      stopped = true;
      unsubscribe();
      for (const s of streams) s.end();
      const closed = new Promise<void>((resolve) => server.close(() => resolve()));
      // Browsers keep connections alive; close() alone would wait for them.
      server.closeAllConnections();
      await closed;
    },
  };
}
