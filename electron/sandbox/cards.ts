/**
 * Test cards and card checks. The full number lives only in the request being handled: callers keep
 * `last4` and drop the rest (PCI: never store or log a card number).
 */

/** Charged at once. */
export const CARD_SUCCESS = '4242424242424242';
/** Declined by the (simulated) issuer. */
export const CARD_DECLINED = '4000000000000002';
/** Needs a 3-D Secure challenge before it is charged. */
export const CARD_3DS = '4000000000003220';

export type CardBehaviour = 'success' | 'declined' | '3ds';

/** Luhn checksum over a string of digits. */
export function luhnValid(num: string): boolean {
  if (!/^\d{12,19}$/.test(num)) return false;
  let sum = 0;
  for (let i = 0; i < num.length; i += 1) {
    let d = num.charCodeAt(num.length - 1 - i) - 48;
    if (i % 2 === 1) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return sum % 10 === 0;
}

/** True when the card's expiry month (`yyyy`, `MM`) has ended before `nowMs` (UTC). */
export function isExpired(year: string, month: string, nowMs: number): boolean {
  const now = new Date(nowMs);
  return Number(year) * 12 + Number(month) < now.getUTCFullYear() * 12 + now.getUTCMonth() + 1;
}

/** How a valid card number behaves: the well-known test numbers; any other valid number succeeds. */
export function cardBehaviour(num: string): CardBehaviour {
  if (num === CARD_DECLINED) return 'declined';
  if (num === CARD_3DS) return '3ds';
  return 'success';
}
