import { AppError } from '../../../../shared/domain/errors';
import { RET } from '../../../../shared/protocol/ret-codes';

/** One answer of a single record is a few KB: 2 MB is generous, and small enough to refuse fast. */
const RECORD_MAX_BYTES = 2 * 1024 * 1024;
/** A 15-day trans-list of a busy merchant runs to a few MB. */
const LIST_MAX_BYTES = 32 * 1024 * 1024;

/**
 * Endpoints, whether they are reads (safe to retry) or writes (never retried), and the largest answer
 * read from each (a bigger one is refused without being read whole, decompression included).
 */
export const ENDPOINTS = {
  createCustomer: { path: '/v1/customers/create', write: true, maxBytes: RECORD_MAX_BYTES },
  securePay: { path: '/online/v3/secure-pay', write: true, maxBytes: RECORD_MAX_BYTES },
  capture: { path: '/order/v4/capture', write: true, maxBytes: RECORD_MAX_BYTES },
  refund: { path: '/app-data-search/v3/refund', write: true, maxBytes: RECORD_MAX_BYTES },
  tranQuery: { path: '/app-data-search/v3/tran-query', write: false, maxBytes: RECORD_MAX_BYTES },
  transList: { path: '/app-data-search/v3/trans-list', write: false, maxBytes: LIST_MAX_BYTES },
} as const;
export type EndpointName = keyof typeof ENDPOINTS;

const WHAT: Record<EndpointName, string> = {
  createCustomer: 'creating the customer',
  securePay: 'creating the payment',
  capture: 'the card payment',
  refund: 'the refund',
  tranQuery: 'the lookup',
  transList: 'the transaction list',
};

/** What happens after a write the service may or may not have applied. */
const AFTER_AMBIGUOUS: Record<EndpointName, string> = {
  createCustomer:
    'The service offers no customer lookup: check with it before registering the customer again.',
  securePay: 'Do not create it again: Refund Desk looks it up by its reference.',
  capture: 'Do not charge the card again: Refund Desk looks the payment up by its reference.',
  refund: 'Do not refund again: Refund Desk looks the refund up by its reference.',
  tranQuery: '',
  transList: '',
};

/**
 * Maps a service rejection to a typed error. Every code other than 000100 is a rejection, whatever it is;
 * ret_code and ret_msg are kept in details so the person sees the service's own words.
 */
export function rejectionError(
  endpoint: EndpointName,
  retCode: string,
  retMsg: string | undefined,
): AppError {
  const details = { ret_code: retCode, ret_msg: retMsg ?? '', endpoint };
  const said = retMsg ? ` The service said: “${retMsg}” (${retCode}).` : ` (code ${retCode})`;
  if (retCode === RET.NO_RECORD) {
    return new AppError('not_found', `The payment service has no matching record.${said}`, {
      details,
      retryable: false,
    });
  }
  if (retCode === RET.ACCESS_DENIED) {
    return new AppError(
      'unauthorized',
      `The payment service refused the credentials. Check the merchant number, store number and API token of this profile.${said}`,
      { details, retryable: false },
    );
  }
  const ambiguous = retCode === RET.SYSTEM_ERROR || retCode === RET.UPSTREAM_ERROR;
  // 000000 / 000080 on a write say the service (or the acquirer behind it) failed, not that it
  // refused: it may have been applied, and the words must not say "rejected" or "nothing moved".
  if (ambiguous && ENDPOINTS[endpoint].write)
    return new AppError(
      'upstream_rejected',
      `The payment service reported an error of its own on ${WHAT[endpoint]}, not a refusal: it may or may not have gone through.${said} ${AFTER_AMBIGUOUS[endpoint]}`,
      { details, retryable: false },
    );
  const moved = ENDPOINTS[endpoint].write ? ' Nothing was charged or refunded.' : '';
  return new AppError('upstream_rejected', `The payment service rejected ${WHAT[endpoint]}.${said}${moved}`, {
    details,
    retryable: ambiguous,
  });
}

/**
 * A read the service answered with an amount in a currency this app does not handle. Not retried (the
 * same answer would come back) and never read with a guessed minor unit: the record is refused whole,
 * with the currency named, so a person can check it with the service.
 */
export function unsupportedCurrency(endpoint: EndpointName, currency: string): AppError {
  const shown = /^[A-Za-z0-9]{1,8}$/.test(currency) ? currency : 'an unreadable code';
  return new AppError(
    'unavailable',
    `The payment service answered ${WHAT[endpoint]} with an amount in ${shown}, a currency Refund Desk does not handle, so it cannot use that answer. Check the payment with the payment service.`,
    { details: { endpoint, ret_code: RET.SUCCESS, unsupportedCurrency: shown }, retryable: false },
  );
}

/** The failure of a read after its retries: a network/timeout/service problem, never "not found". */
export function readFailure(
  endpoint: EndpointName,
  kind: 'network' | 'timeout' | 'http' | 'body',
  extra: Record<string, unknown>,
): AppError {
  const details = { endpoint, ...extra };
  switch (kind) {
    case 'network':
      return new AppError(
        'network',
        `Could not reach the payment service for ${WHAT[endpoint]}. Check the network connection and the profile’s address, then try again.`,
        { details },
      );
    case 'timeout':
      return new AppError(
        'timeout',
        `The payment service did not answer ${WHAT[endpoint]} in time. Try again in a moment.`,
        { details },
      );
    case 'http':
      return new AppError(
        'unavailable',
        `The payment service is having trouble (HTTP ${String(extra['httpStatus'])}). Try again in a moment.`,
        { details },
      );
    case 'body':
      return new AppError(
        'unavailable',
        `The payment service answered ${WHAT[endpoint]} with something Refund Desk cannot read. Try again in a moment.`,
        { details, retryable: true },
      );
  }
}

/**
 * The failure of a write whose outcome cannot be known: the request may have been applied. Never
 * retried here; the refund flow resolves it by querying for its refundReference.
 */
export function outcomeUnknown(
  endpoint: EndpointName,
  why: string,
  extra: Record<string, unknown>,
): AppError {
  return new AppError(
    'outcome_unknown',
    `Refund Desk cannot tell whether ${WHAT[endpoint]} went through (${why}). Money may or may not have moved. Do not send it again: look the transaction up first.`,
    { details: { endpoint, why, ...extra }, retryable: false },
  );
}

/** A write that provably never left this machine (connection refused, DNS failure). */
export function notSent(endpoint: EndpointName, extra: Record<string, unknown>): AppError {
  return new AppError(
    'network',
    `Could not reach the payment service, so ${WHAT[endpoint]} was not sent. Nothing was charged or refunded. Check the connection and try again.`,
    {
      details: { endpoint, sent: false, ...extra },
    },
  );
}
