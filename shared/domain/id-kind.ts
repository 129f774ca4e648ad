/**
 * The one rule for what a person typed or pasted as an id — the search box, the command palette, the
 * Refunds screen's "refund by transaction number" and main's look-up all classify text with it, so they
 * can never disagree about what a number is. Ids stay strings: nothing here converts digits to a number.
 *
 * - Transaction and refund numbers are 18 (at most 32) digits. People copy them from statements and
 *   e-mails grouped by spaces (`4066 0296 6802 8308 59`), so spaces between digits are dropped.
 * - This desk's refund references are its refund-intent ids, `RD` + 15 upper-case base-36 characters
 *   (`newSortableId('RD')`). Typed in lower case they are still that reference, so they are upper-cased.
 * - Anything else without spaces, up to 64 characters, may be a merchant reference — numbers shorter
 *   or longer than a service number too (merchants do use numeric references).
 */
export type IdShape =
  | { shape: 'empty' }
  | { shape: 'service-number'; text: string }
  | { shape: 'refund-reference'; text: string }
  /** `note` says why a digit string is taken for a reference rather than a service number. */
  | { shape: 'reference'; text: string; note?: string }
  | { shape: 'invalid'; text: string; reason: string };

/** A transaction or refund number at the service (also the shape main accepts as one). */
export const SERVICE_NUMBER = /^\d{18,32}$/;
/** This desk's refund reference, in any case. */
const DESK_REFUND_REFERENCE = /^RD[0-9A-Z]{15}$/i;
// A merchant reference is free text at the service; only what cannot be one is refused.
const REFERENCE = /^[\x21-\x7e]{1,64}$/;

export function classifyId(raw: string): IdShape {
  const text = raw.trim();
  if (text === '') return { shape: 'empty' };
  const compact = text.replace(/\s+/g, '');
  if (/^\d+$/.test(compact)) {
    if (SERVICE_NUMBER.test(compact)) return { shape: 'service-number', text: compact };
    if (compact !== text)
      return {
        shape: 'invalid',
        text,
        reason: `Transaction and refund numbers have 18 digits (at most 32); this has ${compact.length}. Check that none is missing or extra.`,
      };
    if (REFERENCE.test(text))
      return {
        shape: 'reference',
        text,
        note: `Transaction and refund numbers have 18 digits; these ${text.length} are looked up as a merchant reference.`,
      };
  }
  if (DESK_REFUND_REFERENCE.test(text)) return { shape: 'refund-reference', text: text.toUpperCase() };
  if (!REFERENCE.test(text))
    return { shape: 'invalid', text, reason: 'A reference has no spaces and at most 64 characters.' };
  return { shape: 'reference', text };
}
