import type { AppErrorShape } from '../../../../shared/domain/errors';

/** A failure as the search box shows it: what happened, and what to do next. */
export interface LookupProblem {
  kind: 'not_found' | 'rejected' | 'unauthorized' | 'offline' | 'input' | 'other';
  title: string;
  /** The next step, in the imperative. */
  action: string;
  /** The service's or main's own words, when they add something the title does not say. */
  detail: string;
  /**
   * The support code to quote when reporting a problem (main's correlation id). Empty for outcomes a
   * person resolves alone (not found, offline, a typo), so no stray code competes with the message.
   */
  supportCode: string;
}

/**
 * Turns a lookup failure into words that differ by cause: a missing record, a rejection, bad
 * credentials and an unreachable service each need a different next step. A lookup never moves money,
 * so none of these says otherwise.
 */
export function describeLookupError(
  error: Pick<AppErrorShape, 'code' | 'message' | 'correlationId' | 'details'>,
  query: string,
): LookupProblem {
  const q = query.length > 40 ? `${query.slice(0, 40)}…` : query;
  const base = { detail: error.message, supportCode: error.correlationId };
  // Main's own sentence says the same as the titles below for these, so it is not repeated.
  const plain = { detail: '', supportCode: '' };
  switch (error.code) {
    case 'not_found':
      return {
        ...plain,
        kind: 'not_found',
        title: `No payment or refund matches “${q}” in this profile`,
        action:
          'Check it for typos (a transaction or refund number has 18 digits; a reference is yours or the refund’s), or switch to the profile of the store that took the payment.',
      };
    case 'upstream_rejected': {
      const ret = error.details?.ret_code !== undefined ? ` (code ${error.details.ret_code})` : '';
      return {
        ...base,
        kind: 'rejected',
        title: `The payment service rejected the lookup${ret}`,
        action:
          'Check what you typed. If it looks right and this keeps happening, contact the payment provider and quote the support code below.',
      };
    }
    case 'unauthorized':
    case 'forbidden':
      return {
        ...base,
        kind: 'unauthorized',
        title: 'The payment service refused this profile’s credentials',
        action: 'Open Settings and check the merchant number, store number and API token of this profile.',
      };
    case 'network':
    case 'timeout':
    case 'unavailable':
      // The offline banner quotes main's own words once; this box says what to do.
      return {
        ...plain,
        kind: 'offline',
        title:
          error.code === 'timeout'
            ? 'The payment service did not answer in time'
            : 'The payment service cannot be reached',
        action: 'Check the network connection and try again. Cached transactions stay available meanwhile.',
      };
    case 'invalid_input':
      return {
        ...plain,
        kind: 'input',
        title: 'That cannot be looked up',
        action: 'Enter an 18-digit transaction or refund number, or your reference.',
      };
    default:
      return {
        ...base,
        kind: 'other',
        title: 'The lookup failed',
        action: 'Try again. If it keeps failing, report it with the support code below.',
      };
  }
}
