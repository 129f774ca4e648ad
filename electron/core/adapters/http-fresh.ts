import { request as httpRequest, type IncomingMessage } from 'node:http';
import type { Readable } from 'node:stream';
import {
  type HttpRequest,
  type HttpResponse,
  TOO_LARGE,
  TransportError,
} from '../services/gateway/http-port';

/** Error codes that mean the request never left this machine (nothing can have happened remotely). */
export const BEFORE_SEND = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'EAI_AGAIN',
  'EHOSTUNREACH',
  'ENETUNREACH',
  'ERR_INVALID_URL',
  'ERR_BAD_PORT',
]);

export function causeCode(e: unknown): string | undefined {
  let cur: unknown = e;
  for (let i = 0; i < 4 && cur && typeof cur === 'object'; i += 1) {
    const code = (cur as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    // fetch refuses ports the Fetch standard blocks (e.g. 9, 25, 6000) before connecting, with no code.
    if ((cur as { message?: unknown }).message === 'bad port') return 'ERR_BAD_PORT';
    // AggregateError (happy eyeballs) keeps the per-address errors in `errors`.
    const errors = (cur as { errors?: unknown }).errors;
    if (Array.isArray(errors) && errors[0]) cur = errors[0];
    else cur = (cur as { cause?: unknown }).cause;
  }
  return undefined;
}

/** The Fetch standard's blocked ports: refused here as fetch refuses them, so both paths agree. */
const BAD_PORTS = new Set([
  0, 1, 7, 9, 11, 13, 15, 17, 19, 20, 21, 22, 23, 25, 37, 42, 43, 53, 69, 77, 79, 87, 95, 101, 102, 103, 104,
  109, 110, 111, 113, 115, 117, 119, 123, 135, 137, 139, 143, 161, 179, 389, 427, 465, 512, 513, 514, 515,
  526, 530, 531, 532, 540, 548, 554, 556, 563, 587, 601, 636, 989, 990, 993, 995, 1719, 1720, 1723, 2049,
  3659, 4045, 4190, 5060, 5061, 6000, 6566, 6665, 6666, 6667, 6668, 6669, 6679, 6697, 10080,
]);

/**
 * TLS and the decompressors, loaded when a request first needs them: loading TLS alone costs a start
 * ~7 ms of CPU before the first screen's answer (the browser host's core), and the Demo sandbox is
 * plain HTTP.
 */
const https = () => process.getBuiltinModule('node:https');
const zlib = () => process.getBuiltinModule('node:zlib');

const notSent = (code: string) => new TransportError(`connection failed (${code})`, 'before-send', code);

function decoded(res: IncomingMessage): Readable {
  const enc = String(res.headers['content-encoding'] ?? '')
    .trim()
    .toLowerCase();
  if (enc === 'gzip' || enc === 'x-gzip') return res.pipe(zlib().createGunzip());
  if (enc === 'deflate') return res.pipe(zlib().createInflate());
  if (enc === 'br') return res.pipe(zlib().createBrotliDecompress());
  return res;
}

/**
 * POSTs on a connection opened for this request alone and closed after its answer — never on a pooled
 * one. For requests that may move money: a pooled connection the service closed while it sat idle
 * (its keep-alive timeout) can take the request with it unread, and since a write is never resent,
 * that refund would stay "outcome unknown" for hours though it never reached the service. A busy
 * machine notices such a close late, so this happens there most (seen: "other side closed" on
 * connections idle 5 s, a refund left unknown, the service never saw it). A new connection also
 * tells "never sent" exactly: until it is established, not one byte of the request has left.
 */
export function postOnNewConnection(req: HttpRequest, maxBytes: number): Promise<HttpResponse> {
  return new Promise<HttpResponse>((resolve, reject) => {
    let url: URL;
    try {
      url = new URL(req.url);
    } catch {
      reject(notSent('ERR_INVALID_URL'));
      return;
    }
    const tls = url.protocol === 'https:';
    if (!tls && url.protocol !== 'http:') {
      reject(notSent('ERR_INVALID_URL'));
      return;
    }
    if (BAD_PORTS.has(Number(url.port || (tls ? 443 : 80)))) {
      reject(notSent('ERR_BAD_PORT'));
      return;
    }
    const body = Buffer.from(req.body, 'utf8');
    let connected = false;
    const fail = (e: unknown) => {
      if (req.signal.aborted) {
        reject(req.signal.reason ?? e);
        return;
      }
      const code = causeCode(e);
      // Not connected: not one byte of the request left this machine.
      const before = !connected || (code !== undefined && BEFORE_SEND.has(code));
      const message = code ? `connection failed (${code})` : 'connection failed';
      reject(new TransportError(message, before ? 'before-send' : 'unknown', code));
    };
    const r = (tls ? https().request : httpRequest)(url, {
      method: 'POST',
      // `agent: false`: a connection of its own, not taken from (nor given back to) any pool.
      agent: false,
      headers: { ...req.headers, 'content-length': String(body.length), connection: 'close' },
      signal: req.signal,
    });
    r.once('socket', (s) => s.once(tls ? 'secureConnect' : 'connect', () => (connected = true)));
    r.once('error', fail);
    r.once('response', (res) => {
      const stream = decoded(res);
      const chunks: Buffer[] = [];
      let size = 0;
      const dropped = (e: unknown) => {
        if (req.signal.aborted) reject(req.signal.reason ?? e);
        else if (e instanceof TransportError) reject(e);
        // Headers arrived, then the connection dropped: the service may have acted.
        else
          reject(
            new TransportError('connection dropped while reading the response', 'unknown', causeCode(e)),
          );
      };
      stream.on('data', (c: Buffer) => {
        size += c.length;
        if (size > maxBytes) {
          r.destroy();
          dropped(new TransportError('the answer was too large', 'unknown', TOO_LARGE));
          return;
        }
        chunks.push(c);
      });
      stream.once('error', dropped);
      res.once('error', dropped);
      res.once('close', () => {
        if (!res.complete) dropped(new Error('the connection closed before the answer was complete'));
      });
      stream.once('end', () =>
        resolve({ status: res.statusCode ?? 0, text: Buffer.concat(chunks).toString('utf8') }),
      );
    });
    r.end(body);
  });
}
