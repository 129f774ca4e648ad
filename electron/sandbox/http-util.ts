/** Small HTTP helpers on node:http (no framework): body reading and parsing, JSON/HTML replies. */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { RET } from '../../shared/protocol/ret-codes';
import { ApiError, type Params } from './params';

export const BODY_LIMIT_BYTES = 1_000_000;

/** Reads the whole body as UTF-8; rejects with ApiError(000023) past the limit. */
export function readBody(req: IncomingMessage, limit = BODY_LIMIT_BYTES): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    let failed = false;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit && !failed) {
        failed = true;
        reject(new ApiError(RET.BAD_VALUE, 'request body too large'));
      }
      if (!failed) chunks.push(chunk);
    });
    req.on('end', () => {
      if (!failed) resolve(Buffer.concat(chunks).toString('utf8'));
    });
    req.on('error', (err) => {
      if (!failed) reject(err);
    });
  });
}

/**
 * Parses a JSON or form-urlencoded body into string params. Numbers and booleans become strings (the
 * signature covers their text form); null means "not sent"; nested values and duplicate form keys are
 * malformed (000023); an empty body lacks every parameter (000020).
 */
export function parseParams(contentType: string | undefined, raw: string): Params {
  const text = raw.trim();
  if (text === '') throw new ApiError(RET.MISSING_PARAM, 'empty request body');
  const type = (contentType ?? '').toLowerCase();
  const isForm =
    type.includes('application/x-www-form-urlencoded') || (!type.includes('json') && !text.startsWith('{'));
  const out: Record<string, string> = {};
  if (isForm) {
    for (const [k, v] of new URLSearchParams(text)) {
      if (Object.hasOwn(out, k)) throw new ApiError(RET.BAD_VALUE, `parameter ${k} sent twice`);
      out[k] = v;
    }
    return out;
  }
  let parsed: unknown;
  try {
    parsed = JSON.parse(text);
  } catch {
    throw new ApiError(RET.BAD_VALUE, 'request body is not valid JSON');
  }
  if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) {
    throw new ApiError(RET.BAD_VALUE, 'request body must be a JSON object');
  }
  for (const [k, v] of Object.entries(parsed)) {
    if (typeof v === 'string') out[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') out[k] = String(v);
    else if (v !== null) throw new ApiError(RET.BAD_VALUE, `parameter ${k} must be a string`);
  }
  return out;
}

export function sendJson(res: ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** The hosted pages carry no script; the CSP says so (no form-action: the Pay redirect leaves the origin). */
export function sendHtml(res: ServerResponse, status: number, html: string): void {
  res.writeHead(status, {
    'content-type': 'text/html; charset=utf-8',
    'content-length': Buffer.byteLength(html),
    'content-security-policy': "default-src 'none'; style-src 'unsafe-inline'",
    'x-content-type-options': 'nosniff',
    'cache-control': 'no-store',
  });
  res.end(html);
}

export function redirect(res: ServerResponse, location: string): void {
  res.writeHead(303, { location, 'content-length': 0, 'cache-control': 'no-store' });
  res.end();
}

export function sleep(ms: number): Promise<void> {
  return ms > 0 ? new Promise((resolve) => setTimeout(resolve, ms)) : Promise.resolve();
}
