import { isAppError } from '../../../../shared/domain/errors';
import { RET } from '../../../../shared/protocol/ret-codes';

/** Error codes of a failed request that prove the service refused it: nothing was created or moved. */
export const REJECTION_CODES: ReadonlySet<string> = new Set([
  'upstream_rejected',
  'not_found',
  'unauthorized',
  'invalid_input',
  'forbidden',
]);

/**
 * ret_codes that say the service (or the acquirer behind it) failed, not that it refused: the request
 * may have taken effect, so it is resolved by query like a lost answer.
 */
export const AMBIGUOUS_RET_CODES: ReadonlySet<string> = new Set([RET.SYSTEM_ERROR, RET.UPSTREAM_ERROR]);

/** What a failed request means for money, and what the service said. */
export interface Failure {
  /** rejected: provably nothing happened. unknown: it may have; never resend, resolve by query. */
  outcome: 'rejected' | 'unknown';
  retCode?: string;
  retMsg?: string;
  detail: string;
}

/**
 * Classifies a request that did not answer success, for every kind alike. `scrub` cleans what the
 * service echoed before it is kept (a payment's card number, should it ever be echoed).
 */
export function classifyFailure(
  e: unknown,
  scrub: (t: string | undefined) => string | undefined = (t) => t,
): Failure {
  const app = isAppError(e) ? e : undefined;
  const retCode = typeof app?.details?.ret_code === 'string' ? app.details.ret_code : undefined;
  const retMsg = typeof app?.details?.ret_msg === 'string' ? scrub(app.details.ret_msg) : undefined;
  const detail = scrub(app ? app.message : 'The request failed in an unexpected way.') ?? '';
  const said = { ...(retCode ? { retCode } : {}), ...(retMsg ? { retMsg } : {}) };
  // Provably not sent (connection refused before any byte left, configuration error): a rejection.
  const notSent = app?.details?.sent === false;
  const ambiguous = retCode !== undefined && AMBIGUOUS_RET_CODES.has(retCode);
  if (app && !ambiguous && (REJECTION_CODES.has(app.code) || notSent))
    return { outcome: 'rejected', ...said, detail };
  // Timeout, dropped connection, 5xx, unreadable body: the request may or may not have taken effect.
  return { outcome: 'unknown', ...said, detail };
}
