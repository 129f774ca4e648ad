import { type HttpClient, TOO_LARGE, TransportError } from '../services/gateway/http-port';
import { BEFORE_SEND, causeCode, postOnNewConnection } from './http-fresh';

/**
 * The largest answer read when the caller names none (the gateway names one per endpoint: see
 * services/gateway/errors.ts). Reading a bigger one whole (fetch decompresses gzip as it goes) would let a
 * hostile or broken service exhaust main's memory.
 */
export const MAX_RESPONSE_BYTES = 32 * 1024 * 1024;

/** Reads the body as UTF-8 text, refusing (and cancelling) past `max` decoded bytes. */
async function readCapped(res: Response, max: number): Promise<string> {
  if (!res.body) return '';
  const reader = res.body.getReader();
  const decoder = new TextDecoder();
  let size = 0;
  let text = '';
  for (;;) {
    const { done, value } = await reader.read();
    if (done) return text + decoder.decode();
    size += value.byteLength;
    if (size > max) {
      await reader.cancel().catch(() => {});
      throw new TransportError('the answer was too large', 'unknown', TOO_LARGE);
    }
    text += decoder.decode(value, { stream: true });
  }
}

/**
 * Plain-Node HTTP adapter over the built-in fetch (undici). Used by every host: Electron's main
 * process runs Node too. Maps failures to TransportError without copying request data into messages.
 * A request marked `fresh` (one that may move money) goes on a connection of its own instead of
 * fetch's pool: see http-fresh.ts.
 */
export function createFetchHttpClient(): HttpClient {
  return async (req) => {
    if (req.fresh) return postOnNewConnection(req, req.maxBytes ?? MAX_RESPONSE_BYTES);
    let res: Response;
    try {
      res = await fetch(req.url, {
        method: 'POST',
        headers: req.headers,
        body: req.body,
        signal: req.signal,
        redirect: 'error',
      });
    } catch (e) {
      if (req.signal.aborted) throw e;
      const code = causeCode(e);
      throw new TransportError(
        code ? `connection failed (${code})` : 'connection failed',
        code && BEFORE_SEND.has(code) ? 'before-send' : 'unknown',
        code,
      );
    }
    try {
      return { status: res.status, text: await readCapped(res, req.maxBytes ?? MAX_RESPONSE_BYTES) };
    } catch (e) {
      if (req.signal.aborted || e instanceof TransportError) throw e;
      // Headers arrived, then the connection dropped: the service may have acted.
      throw new TransportError('connection dropped while reading the response', 'unknown', causeCode(e));
    }
  };
}
