import { createHmac, randomBytes } from 'node:crypto';
import { type CardScrubber, createCardScrubber } from '../../../../shared/domain/card-scrub';
import { AppError } from '../../../../shared/domain/errors';
import { isAcceptableBaseUrl } from '../../../../shared/domain/profile';
import { isAllowedExternalUrl } from '../external-links';

export { chargeConfirmation } from '../../../../shared/domain/charge';

/**
 * The checks a payment create passes in main before anything is journaled or sent. The renderer makes
 * the same ones for the person's sake; these are the ones that count.
 */

/** A refusal: nothing was recorded and nothing was sent. */
export function refusal(
  code: 'invalid_input' | 'conflict' | 'unavailable' | 'not_found',
  message: string,
  details: Record<string, unknown> = {},
): AppError {
  return new AppError(code, `${message} Nothing was sent.`, { details: { moneyMoved: 'no', ...details } });
}

/** A URL the service may send the payer or its notifications to: https, or http to this machine. */
export function checkServiceUrl(url: string, what: string, field: string): string {
  if (!isAcceptableBaseUrl(url.replace(/[?#].*$/, '').replace(/\{[a-zA-Z]+\}/g, 'x')))
    throw refusal(
      'invalid_input',
      `The ${what} must be an https:// address (http:// only for this machine).`,
      {
        fields: { [field]: `Use an https:// address.` },
      },
    );
  return url;
}

/** Domains of the payment provider whose https pages (checkout, 3-D Secure) may be opened. */
const PROVIDER_DOMAINS = ['yuansfer.com', 'yuansferdev.com', 'pockyt.io'];

/**
 * Whether a payment page may be handed to the system browser: the service's own address (the Demo
 * sandbox on this machine included), the allow-listed sites, or an https page of the provider's domains.
 */
export function isAllowedPaymentPage(url: string, serviceBaseUrl: string | undefined): boolean {
  let u: URL;
  try {
    u = new URL(url);
  } catch {
    return false;
  }
  if (u.username || u.password) return false;
  if (serviceBaseUrl) {
    try {
      if (u.origin === new URL(serviceBaseUrl).origin && (u.protocol === 'https:' || u.protocol === 'http:'))
        return true;
    } catch {
      // an unreadable base URL allows nothing extra
    }
  }
  if (isAllowedExternalUrl(url)) return true;
  return (
    u.protocol === 'https:' &&
    u.port === '' &&
    PROVIDER_DOMAINS.some((d) => u.hostname === d || u.hostname.endsWith(`.${d}`))
  );
}

/**
 * The scrubber of one card request (shared/domain/card-scrub.ts): it knows the card only through keyed
 * hashes (a random key per request, dropped with the scrubber), so nothing of the card outlives the
 * request in a readable form. Every text and URL the card call brings back passes it before it is
 * stored, logged, pushed or exported.
 */
export function cardScrubber(card: {
  number: string;
  cvv: string;
  expMonth: string;
  expYear: string;
}): CardScrubber {
  const digits = card.number.replace(/\D/g, '');
  return overHashes(randomBytes(32), {
    pan: digits,
    cvv: card.cvv,
    expiry: `${card.expYear}${card.expMonth.padStart(2, '0')}`,
  });
}

/**
 * Built apart from the card so that the scrubber's functions close over the key, the hashes, two
 * lengths and the last four digits only (a closure keeps its whole enclosing scope alive).
 */
function overHashes(key: Buffer, secret: { pan: string; cvv: string; expiry: string }): CardScrubber {
  const h = (text: string) => createHmac('sha256', key).update(text).digest('base64');
  const pan = h(secret.pan);
  const panLength = secret.pan.length;
  const last4 = secret.pan.slice(-4);
  const cvv = h(secret.cvv);
  const cvvLength = secret.cvv.length;
  const expiry = h(secret.expiry);
  return scrubberOf(h, { pan, panLength, last4, cvv, cvvLength, expiry });
}

function scrubberOf(
  h: (text: string) => string,
  k: { pan: string; panLength: number; last4: string; cvv: string; cvvLength: number; expiry: string },
): CardScrubber {
  return createCardScrubber({
    isPan: (d) => d.length === k.panLength && h(d) === k.pan,
    panLength: k.panLength,
    last4: k.last4,
    isCvv: (d) => d.length === k.cvvLength && h(d) === k.cvv,
    cvvLength: k.cvvLength,
    isExpiry: (ym) => h(ym) === k.expiry,
  });
}
