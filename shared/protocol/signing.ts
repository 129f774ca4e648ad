import { createHash, timingSafeEqual } from 'node:crypto';

/**
 * verifySign as ./README.md "Signing" describes it: every parameter but verifySign, empty/null values
 * left out, keys in plain byte order, `k=v` joined by '&', values verbatim (goodsInfo is signed as the
 * exact JSON text sent), then '&' + md5(trimmed token), md5 of the whole as lowercase hex.
 *
 * Node-only (node:crypto): the renderer never signs anything. Nothing here logs; callers must never log
 * the token, md5(token), the string being signed or the signature.
 */
export type SignableParams = Readonly<Record<string, string | null | undefined>>;

function md5Hex(text: string): string {
  return createHash('md5').update(text, 'utf8').digest('hex');
}

// Printable ASCII and space: what parameter names are made of; anything else takes the byte-order path.
const ASCII = /^[\x20-\x7e]*$/;

/**
 * md5 of each token seen, kept in memory (main holds the tokens anyway): hashing the same token again for
 * every signature was a third of the signing time. A handful of profiles at most; the map is bounded.
 */
const tokenHashes = new Map<string, string>();
function tokenHash(token: string): string {
  let h = tokenHashes.get(token);
  if (h === undefined) {
    h = md5Hex(token.trim());
    if (tokenHashes.size >= 32) tokenHashes.clear();
    tokenHashes.set(token, h);
  }
  return h;
}

function byteOrder(a: string, b: string): number {
  // Plain byte order (case-sensitive), not locale order.
  return Buffer.compare(Buffer.from(a, 'utf8'), Buffer.from(b, 'utf8'));
}

/** Builds the string that is hashed. Exported for tests only: never log its result. */
export function signingString(
  params: SignableParams,
  token: string,
  opts: { includeEmpty?: boolean } = {},
): string {
  // A plain loop: this runs for every request and IPN, and the filter/map chain cost more than the MD5.
  const keys: string[] = [];
  let ascii = true;
  for (const k of Object.keys(params)) {
    if (k === 'verifySign') continue;
    const v = params[k];
    if (v === null || v === undefined || (!opts.includeEmpty && v === '')) continue;
    keys.push(k);
    if (ascii && !ASCII.test(k)) ascii = false;
  }
  // For ASCII keys (every name the service uses) the default UTF-16 order is byte order.
  if (ascii) keys.sort();
  else keys.sort(byteOrder);
  let joined = keys.length === 0 ? '&' : '';
  for (const k of keys) joined += `${k}=${params[k] ?? ''}&`;
  return `${joined}${tokenHash(token)}`;
}

/** Computes verifySign for a request or IPN. */
export function computeVerifySign(params: SignableParams, token: string): string {
  return md5Hex(signingString(params, token));
}

/** Returns a copy of `params` with empty values removed and verifySign added. */
export function signParams(params: SignableParams, token: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(params))
    if (v !== null && v !== undefined && v !== '' && k !== 'verifySign') out[k] = v;
  out.verifySign = computeVerifySign(out, token);
  return out;
}

const HEX32 = /^[0-9a-f]{32}$/;

function constantTimeEqualHex(a: string, b: string): boolean {
  const ab = Buffer.from(a, 'utf8');
  const bb = Buffer.from(b, 'utf8');
  return ab.length === bb.length && timingSafeEqual(ab, bb);
}

/**
 * Verifies a received verifySign in constant time. Accepts the standard form (empty values left out)
 * and, when `acceptEmptyVariant`, the PHP/Java SDK variant that signs empty values as `key=`.
 */
export function verifySignature(
  params: Readonly<Record<string, unknown>>,
  token: string,
  opts: { acceptEmptyVariant?: boolean } = {},
): boolean {
  const given = params.verifySign;
  if (typeof given !== 'string' || !HEX32.test(given)) return false;
  const stringParams: Record<string, string> = {};
  for (const [k, v] of Object.entries(params)) {
    if (typeof v === 'string') stringParams[k] = v;
    else if (typeof v === 'number' || typeof v === 'boolean') stringParams[k] = String(v);
    else if (v !== null && v !== undefined) return false; // nested values are never part of a signed body
  }
  const standard = constantTimeEqualHex(computeVerifySign(stringParams, token), given);
  if (!opts.acceptEmptyVariant) return standard;
  const variant = constantTimeEqualHex(
    md5Hex(signingString(stringParams, token, { includeEmpty: true })),
    given,
  );
  return standard || variant;
}
