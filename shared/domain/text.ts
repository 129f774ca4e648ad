import { z } from 'zod';

/**
 * Text a person types and this app stores and shows again (profile and operator names, refund notes,
 * reconciliation labels) must read on screen exactly as it is stored. Control characters (NUL, escape,
 * C1) and the Unicode bidirectional formatting characters (U+202E "right-to-left override" and its
 * kin, the "Trojan Source" characters) break that: "Refund ‮001$ ‬" can display as a different amount
 * or name than the one recorded. They are refused at the IPC boundary with a message that names the
 * character, never silently stripped (a person should know their text was not taken as typed).
 *
 * Refused: Unicode general category Cc (U+0000–U+001F, U+007F–U+009F), the Bidi_Control property
 * (U+061C, U+200E, U+200F, U+202A–U+202E, U+2066–U+2069), and the line/paragraph separators
 * U+2028/U+2029. Multi-line text additionally allows tab, line feed and carriage return.
 */
const UNSAFE = /[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
const UNSAFE_MULTILINE = /(?![\t\n\r])[\p{Cc}\p{Bidi_Control}\u2028\u2029]/u;

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'a NUL character',
  0x09: 'a tab',
  0x0a: 'a line break',
  0x0d: 'a line break',
  0x1b: 'an escape character',
  0x061c: 'an Arabic letter mark',
  0x200e: 'a left-to-right mark',
  0x200f: 'a right-to-left mark',
  0x202a: 'a left-to-right embedding',
  0x202b: 'a right-to-left embedding',
  0x202c: 'a pop-directional-formatting character',
  0x202d: 'a left-to-right override',
  0x202e: 'a right-to-left override',
  0x2066: 'a left-to-right isolate',
  0x2067: 'a right-to-left isolate',
  0x2068: 'a first-strong isolate',
  0x2069: 'a pop-directional-isolate character',
  0x2028: 'a line separator',
  0x2029: 'a paragraph separator',
};

/** The first character of `text` that may not be stored, as `U+202E (a right-to-left override)`. */
export function findUnsafeCharacter(text: string, opts: { multiline?: boolean } = {}): string | undefined {
  const m = (opts.multiline ? UNSAFE_MULTILINE : UNSAFE).exec(text);
  if (!m) return undefined;
  const cp = m[0].codePointAt(0) ?? 0;
  const hex = `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;
  return `${hex} (${NAMES[cp] ?? 'an invisible control character'})`;
}

/** The message a person sees: what was found, why it matters, what to do. */
export function unsafeTextMessage(what: string, found: string): string {
  return `The ${what} contains ${found}, which can make it read differently on screen than it is stored. Retype it without that character.`;
}

/**
 * A refinement that refuses control and bidirectional-formatting characters with a clear message. Chain
 * it after the string's own checks on every free-text field the app stores:
 * `z.string().trim().max(60).superRefine(refuseUnsafeText('profile name'))`.
 */
export function refuseUnsafeText(what: string, opts: { multiline?: boolean } = {}) {
  return (text: string, ctx: z.RefinementCtx): void => {
    const found = findUnsafeCharacter(text, opts);
    if (found) ctx.addIssue({ code: 'custom', message: unsafeTextMessage(what, found) });
  };
}

/**
 * For text the person did not type but the app must keep (a ledger's file name): every refused
 * character is replaced by a visible `⟨U+202E⟩`, so what is stored is what is shown.
 */
export function escapeUnsafeText(text: string): string {
  // Called for every cell of a 100k-row ledger: text with nothing to escape is returned as it is.
  if (!UNSAFE.test(text)) return text;
  return text.replace(
    UNSAFE_ALL,
    (c) => `⟨U+${(c.codePointAt(0) ?? 0).toString(16).toUpperCase().padStart(4, '0')}⟩`,
  );
}
