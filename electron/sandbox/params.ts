/**
 * Request parameter checks shared by the endpoints. Each failure throws ApiError with the documented
 * ret_code; the server turns it into the envelope. Checks run before any state changes.
 */
import { type Currency, isKnownCurrency } from '../../shared/domain/currencies';
import { MoneyParseError, parseMinor } from '../../shared/domain/money';
import { RET, type RetCode } from '../../shared/protocol/ret-codes';

/** A business rejection: HTTP 200 with this ret_code and message. */
export class ApiError extends Error {
  override name = 'ApiError';
  constructor(
    readonly retCode: RetCode,
    message: string,
    readonly result?: Record<string, unknown>,
  ) {
    super(message);
  }
}

/** Request parameters after body parsing: every value a string. */
export type Params = Readonly<Record<string, string>>;

/** The value, or undefined when absent or empty (empty values are "not sent", as in signing). */
export function opt(p: Params, key: string): string | undefined {
  const v = p[key];
  return v === undefined || v === '' ? undefined : v;
}

/** Throws 000020 naming every missing key. */
export function requireAll(p: Params, keys: readonly string[]): void {
  const missing = keys.filter((k) => opt(p, k) === undefined);
  if (missing.length > 0)
    throw new ApiError(RET.MISSING_PARAM, `required parameter missing: ${missing.join(', ')}`);
}

export function req(p: Params, key: string): string {
  const v = opt(p, key);
  if (v === undefined) throw new ApiError(RET.MISSING_PARAM, `required parameter missing: ${key}`);
  return v;
}

export function bad(message: string): ApiError {
  return new ApiError(RET.BAD_VALUE, message);
}

/** A known 3-letter currency code. */
export function currencyParam(p: Params, key: string): Currency {
  const v = req(p, key);
  if (!/^[A-Z]{3}$/.test(v) || !isKnownCurrency(v)) throw bad(`${key} is not a supported currency: ${v}`);
  return v;
}

/**
 * A positive amount: an integer or up to 2 decimals, within the currency's exponent (trailing zeros
 * allowed, as the service writes "100.00" for KRW).
 */
export function amountParam(p: Params, key: string, currency: Currency): number {
  const v = req(p, key);
  if (!/^\d+(\.\d{1,2})?$/.test(v)) throw bad(`${key} must be a decimal amount with at most 2 decimals`);
  let minor: number;
  try {
    minor = parseMinor(v, currency, { allowExtraZeros: true });
  } catch (err) {
    if (err instanceof MoneyParseError) throw bad(`${key}: ${err.message}`);
    throw err;
  }
  if (minor <= 0) throw bad(`${key} must be greater than zero`);
  return minor;
}

/** An absolute http(s) URL. Placeholders such as {status} are allowed in callback URLs. */
export function urlParam(p: Params, key: string, required: boolean): string | undefined {
  const v = required ? req(p, key) : opt(p, key);
  if (v === undefined) return undefined;
  let url: URL;
  try {
    url = new URL(v);
  } catch {
    throw bad(`${key} is not a valid URL`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') throw bad(`${key} must be an http(s) URL`);
  return v;
}

/** Optional free text with a length limit. */
export function textParam(p: Params, key: string, max: number): string | undefined {
  const v = opt(p, key);
  if (v !== undefined && v.length > max) throw bad(`${key} is longer than ${max} characters`);
  return v;
}

/** One of a fixed list. */
export function enumParam(
  p: Params,
  key: string,
  allowed: readonly string[],
  required: boolean,
): string | undefined {
  const v = required ? req(p, key) : opt(p, key);
  if (v !== undefined && !allowed.includes(v)) throw bad(`${key} must be one of ${allowed.join(', ')}`);
  return v;
}

/** goodsInfo: a JSON array of {goods_name, quantity} objects, kept verbatim. */
export function goodsInfoParam(p: Params): string | undefined {
  const v = opt(p, 'goodsInfo');
  if (v === undefined) return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(v);
  } catch {
    throw bad('goodsInfo must be a JSON array');
  }
  const ok =
    Array.isArray(parsed) &&
    parsed.every(
      (g: unknown) =>
        typeof g === 'object' && g !== null && typeof (g as Record<string, unknown>).goods_name === 'string',
    );
  if (!ok) throw bad('goodsInfo must be a JSON array of {"goods_name","quantity"} objects');
  return v;
}

/**
 * Exactly one of `keys` (the lookup rule of tran-query and refund): several → 000022, none → 000020.
 */
export function exactlyOne(p: Params, keys: readonly string[]): { key: string; value: string } {
  const present = keys.filter((k) => opt(p, k) !== undefined);
  if (present.length > 1) throw new ApiError(RET.PARAM_CONFLICT, `send only one of ${present.join(', ')}`);
  const key = present[0];
  if (key === undefined) throw new ApiError(RET.MISSING_PARAM, `one of ${keys.join(', ')} is required`);
  return { key, value: req(p, key) };
}
