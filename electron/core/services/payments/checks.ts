import { createHash } from 'node:crypto';
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

const sha = (text: string) => createHash('sha256').update(text).digest('hex');

/**
 * Hides a card number and security code should the service ever echo them in a message. Keeps only
 * their hashes, so nothing of the card outlives the request in memory.
 */
export function cardScrubber(card: {
  number: string;
  cvv: string;
}): (text: string | undefined) => string | undefined {
  const numberHash = sha(card.number);
  const cvvHash = sha(card.cvv);
  const last4 = card.number.slice(-4);
  return (text) =>
    text
      ?.replace(/\d{12,19}/g, (run) => (sha(run) === numberHash ? `•••• ${last4}` : run))
      .replace(/(?<![0-9A-Za-z])\d{3,4}(?![0-9A-Za-z])/g, (run) => (sha(run) === cvvHash ? '•••' : run));
}
