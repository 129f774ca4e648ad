/**
 * Request authentication: merchant and store must exist, and verifySign must match the merchant's token
 * (standard form, or the PHP/Java variant that signs empty values as `key=`), compared in constant time
 * by shared/protocol/signing. Nothing here logs parameters or the token.
 */
import { createHash, timingSafeEqual } from 'node:crypto';
import { RET } from '../../shared/protocol/ret-codes';
import { verifySignature } from '../../shared/protocol/signing';
import { findMerchant } from './catalog';
import type { Caller } from './context';
import { ApiError, requireAll, type Params } from './params';
import type { Merchant } from './types';

/** Returns the caller or throws 000020 (credentials missing) / 000030 (access denied). */
export function authenticate(merchants: readonly Merchant[], p: Params): Caller {
  requireAll(p, ['merchantNo', 'storeNo', 'verifySign']);
  const merchant = findMerchant(merchants, p.merchantNo ?? '');
  // One message for every denial, so a caller cannot probe which merchant or store numbers exist.
  const denied = new ApiError(RET.ACCESS_DENIED, 'access denied: check merchantNo, storeNo and verifySign');
  if (!merchant) throw denied;
  const storeNo = p.storeNo ?? '';
  if (!merchant.storeNos.includes(storeNo)) throw denied;
  if (!verifySignature(p, merchant.token, { acceptEmptyVariant: true })) throw denied;
  return { merchant, storeNo };
}

/** Constant-time comparison of the admin secret (hashing first equalises the lengths). */
export function adminSecretMatches(given: string | string[] | undefined, secret: string): boolean {
  if (typeof given !== 'string') return false;
  const a = createHash('sha256').update(given).digest();
  const b = createHash('sha256').update(secret).digest();
  return timingSafeEqual(a, b);
}
