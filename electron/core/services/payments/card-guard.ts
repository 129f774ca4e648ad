import {
  type CardScrubber,
  cardScrub,
  type KnownIds,
  unsafeLinkNotice,
} from '../../../../shared/domain/card-scrub';
import { isAppError } from '../../../../shared/domain/errors';
import type { PaymentIntent } from './intent';

/**
 * Where a payment create's answer enters the recorder: every text and URL it brings back passes the
 * request's card scrubber (shared/domain/card-scrub.ts) here, before anything is stored, logged, pushed
 * or returned. The payment store, the logger, the views and the exports scrub again without the card.
 */

/** The payment's own ids, which a service text may quote whole (never taken for a card number). */
export const knownIds = (i: Partial<PaymentIntent>): KnownIds => [
  i.transactionNo,
  i.reference,
  i.customerNo,
  i.merchantNo,
  i.storeNo,
];

/** The page links of a create's answer, as far as they are safe to keep. */
export interface PageLinks {
  cashierUrl?: string;
  authUrl?: string;
  /** Set when a link carried card data: it was dropped, and this tells the person what to do. */
  unsafeLink?: string;
}

/** Drops a page link that carried card data (it is neither kept nor opened) and says so. */
export function safeLinks(
  intent: PaymentIntent,
  a: { transactionNo: string; cashierUrl?: string; authUrl?: string; customerNo?: string },
  scrub: CardScrubber,
): PageLinks {
  const known = [...knownIds(intent), a.transactionNo, a.customerNo];
  const cashierUrl = a.cashierUrl ? scrub.url(a.cashierUrl, known) : undefined;
  const authUrl = a.authUrl ? scrub.url(a.authUrl, known) : undefined;
  const droppedAuth = Boolean(a.authUrl) && !authUrl;
  const droppedCashier = Boolean(a.cashierUrl) && !cashierUrl;
  return {
    ...(cashierUrl ? { cashierUrl } : {}),
    ...(authUrl ? { authUrl } : {}),
    ...(droppedAuth
      ? { unsafeLink: unsafeLinkNotice('3ds') }
      : droppedCashier
        ? { unsafeLink: unsafeLinkNotice('checkout') }
        : {}),
  };
}

/** What a failed create said, scrubbed: the error's text, the service's ret_code and ret_msg. */
export function scrubbedFailure(
  intent: PaymentIntent,
  e: unknown,
  scrub: CardScrubber,
): { detail: string; retCode?: string; retMsg?: string } {
  const known = knownIds(intent);
  const detail = scrub.text(isAppError(e) ? e.message : 'The request failed in an unexpected way.', known);
  const retCode =
    isAppError(e) && typeof e.details?.ret_code === 'string' ? scrub.text(e.details.ret_code, known) : '';
  const retMsg =
    isAppError(e) && typeof e.details?.ret_msg === 'string' ? scrub.text(e.details.ret_msg, known) : '';
  return { detail, ...(retCode ? { retCode } : {}), ...(retMsg ? { retMsg } : {}) };
}

/** How long after a card create its look-ups are still scrubbed with the request's card (hashes). */
export const REQUEST_SCRUB_MS = 30 * 60_000;

/**
 * The scrubber of each recent card create, for the texts its look-ups bring back (a service may echo
 * the card there too). It holds keyed hashes only, and only until the payment is final or
 * REQUEST_SCRUB_MS have passed (or the process ends); after that the rules without the card apply.
 */
export function createScrubberRegistry(now: () => number) {
  const kept = new Map<string, { scrub: CardScrubber; until: number }>();
  const prune = () => {
    const t = now();
    for (const [id, k] of kept) if (k.until <= t) kept.delete(id);
  };
  return {
    remember(id: string, scrub: CardScrubber): void {
      prune();
      kept.set(id, { scrub, until: now() + REQUEST_SCRUB_MS });
    },
    forget(id: string): void {
      kept.delete(id);
    },
    for(id: string): CardScrubber {
      const k = kept.get(id);
      if (k && k.until > now()) return k.scrub;
      if (k) kept.delete(id);
      return cardScrub;
    },
  };
}
