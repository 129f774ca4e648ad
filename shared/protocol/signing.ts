import { hash, timingSafeEqual } from 'node:crypto';

/**
 * verifySign as ./README.md "Signing" describes it: every parameter but verifySign, empty/null values
 * left out, keys in plain byte order, `k=v` joined by '&', values verbatim (goodsInfo is signed as the
 * exact JSON text sent), then '&' + md5(trimmed token), md5 of the whole as lowercase hex.
 *
 * Node-only (node:crypto): the renderer never signs anything. Nothing here logs; callers must never log
 * the token, md5(token), the string being signed or the signature.
 */
export type SignableParams = Readonly<Record<string, string | null | undefined>>;

/**
 * One-shot MD5 (crypto.hash): no Hash object per call, which cost more than hashing the ~150-byte
 * signing string itself.
 */
function md5Hex(text: string): string {
  return hash('md5', text, 'hex');
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

/**
 * The sorted order of each key sequence seen. Requests and IPNs of one kind are built the same way, so
 * their keys come in the same order every time: sorting them (and checking them for non-ASCII) once per
 * shape, not once per signature, was most of the cost of building the string. A few shapes at most
 * (one per endpoint and IPN kind); the list is bounded.
 */
const orders: Array<{ keys: readonly string[]; sorted: readonly string[] }> = [];
function sortedKeys(keys: readonly string[]): readonly string[] {
  for (const o of orders) {
    if (o.keys.length !== keys.length) continue;
    let same = true;
    for (let i = 0; i < keys.length; i += 1)
      if (o.keys[i] !== keys[i]) {
        same = false;
        break;
      }
    if (same) return o.sorted;
  }
  const sorted = [...keys];
  // For ASCII keys (every name the service uses) the default UTF-16 order is byte order.
  if (sorted.every((k) => ASCII.test(k))) sorted.sort();
  else sorted.sort(byteOrder);
  if (orders.length >= 16) orders.shift();
  orders.push({ keys, sorted });
  return sorted;
}

/** Builds the string that is hashed. Exported for tests only: never log its result. */
export function signingString(
  params: SignableParams,
  token: string,
  opts: { includeEmpty?: boolean } = {},
): string {
  // A plain loop: this runs for every request and IPN, and a filter/map chain cost more than the MD5.
  const keys = sortedKeys(Object.keys(params));
  let joined = '';
  for (let i = 0; i < keys.length; i += 1) {
    const k = keys[i]!;
    if (k === 'verifySign') continue;
    const v = params[k];
    if (v === null || v === undefined || (!opts.includeEmpty && v === '')) continue;
    joined += k + '=' + v + '&';
  }
  return (joined === '' ? '&' : joined) + tokenHash(token);
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
