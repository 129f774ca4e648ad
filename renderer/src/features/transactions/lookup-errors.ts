import type { AppErrorShape } from '../../../../shared/domain/errors';

/** A failure as the search box shows it: what happened, and what to do next. */
export interface LookupProblem {
  kind: 'not_found' | 'rejected' | 'unauthorized' | 'offline' | 'input' | 'other';
  title: string;
  /** The next step, in the imperative. */
  action: string;
  /** The service's or main's own words, kept for evidence. */
  detail: string;
  /** Quote this when reporting a problem. */
  reference: string;
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
  const base = { detail: error.message, reference: error.correlationId };
  switch (error.code) {
    case 'not_found':
      return {
        ...base,
        kind: 'not_found',
        title: `Nothing matches “${q}” in this profile`,
        action: 'Check the number for typos, or switch to the profile of the store that took the payment.',
      };
    case 'upstream_rejected': {
      const ret =
        typeof error.details?.['ret_code'] === 'string' ? ` (code ${error.details['ret_code']})` : '';
      return {
        ...base,
        kind: 'rejected',
        title: `The payment service rejected the lookup${ret}`,
        action:
          'Check what you typed. If it looks right and this keeps happening, contact the payment provider with the reference below.',
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
      return {
        ...base,
        kind: 'offline',
        title:
          error.code === 'timeout'
            ? 'The payment service did not answer in time'
            : 'The payment service cannot be reached',
        action: 'Check the network connection and try again. Cached transactions stay available meanwhile.',
      };
    case 'invalid_input':
      return {
        ...base,
        kind: 'input',
        title: 'That cannot be looked up',
        action: 'Enter an 18-digit transaction or refund number, or your reference.',
      };
    default:
      return {
        ...base,
        kind: 'other',
        title: 'The lookup failed',
        action: 'Try again. If it keeps failing, report it with the reference below.',
      };
  }
}
