import { z } from 'zod';

/**
 * Card data for the virtual terminal. It crosses IPC once, goes straight into the capture request and is
 * never stored, logged, audited, cached or put in an event: only the last four digits are kept. Messages
 * here never repeat what was typed.
 */
export const CARD_MESSAGES = {
  number: 'Type the card number (12–19 digits); the check digit does not match this one.',
  expMonth: 'Choose the expiry month (01–12).',
  expYear: 'Type the expiry year as the card prints it: 2 or 4 digits, e.g. 30 or 2030.',
  expired: 'This card has expired.',
  cvv: 'Type the 3 or 4 digit security code.',
} as const;

/** Digits only: people type card numbers with spaces or dashes in groups. */
export const cardDigits = (text: string) => text.replace(/[\s-]/g, '');

/** The Luhn check digit (ISO/IEC 7812) over a string of 12–19 digits. */
export function passesLuhn(digits: string): boolean {
  if (!/^\d{12,19}$/.test(digits)) return false;
  const total = [...digits].reverse().reduce((sum, ch, i) => {
    const d = Number(ch) * (i % 2 === 1 ? 2 : 1);
    return sum + (d > 9 ? d - 9 : d);
  }, 0);
  return total % 10 === 0;
}

/** A card's expiry year as printed (MM/YY) or in full: "29" is 2029 (cards only expire in the future). */
export const fullExpiryYear = (year: string) =>
  /^\d{2}$/.test(year.trim()) ? `20${year.trim()}` : year.trim();

/** True once the expiry month (`yyyy`, `MM`) is over, in UTC. */
export function cardExpired(expYear: string, expMonth: string, nowMs: number): boolean {
  const now = new Date(nowMs);
  const months = (y: number, m: number) => y * 12 + m;
  return months(Number(expYear), Number(expMonth)) < months(now.getUTCFullYear(), now.getUTCMonth() + 1);
}

export const cardSchema = z
  .object({
    number: z
      .string()
      .max(32, CARD_MESSAGES.number)
      .transform(cardDigits)
      .refine(passesLuhn, CARD_MESSAGES.number),
    expMonth: z.string().regex(/^(0[1-9]|1[0-2])$/, CARD_MESSAGES.expMonth),
    expYear: z
      .string()
      .regex(/^\s*(\d{2}|\d{4})\s*$/, CARD_MESSAGES.expYear)
      .transform(fullExpiryYear),
    cvv: z.string().regex(/^\d{3,4}$/, CARD_MESSAGES.cvv),
  })
  .strict();
export type CardInput = z.input<typeof cardSchema>;

/** Field → message for a card form, without ever echoing the values. */
export function cardProblems(card: CardInput, nowMs: number): Partial<Record<keyof CardInput, string>> {
  const out: Partial<Record<keyof CardInput, string>> = {};
  const parsed = cardSchema.safeParse(card);
  if (!parsed.success)
    for (const issue of parsed.error.issues) {
      const key = issue.path[0] as keyof CardInput;
      out[key] ??= issue.message;
    }
  if (!out.expMonth && !out.expYear && cardExpired(fullExpiryYear(card.expYear), card.expMonth, nowMs))
    out.expYear = CARD_MESSAGES.expired;
  return out;
}

/** "Card •••• 3220": how a stored or captured card is shown. */
export const cardLabel = (last4: string | undefined) => (last4 ? `Card •••• ${last4}` : 'Card');

/** A stored method's vaultId, masked for display ("pp_…9f2c"): enough to tell two apart, not to use one. */
export function maskVaultId(vaultId: string): string {
  const prefix = /^[a-z]{1,4}_/i.exec(vaultId)?.[0] ?? '';
  return `${prefix}…${vaultId.slice(-4)}`;
}
