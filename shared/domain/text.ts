import { z } from 'zod';

/**
 * The one rule for text a person types and this app stores, sends on or shows again (profile and
 * operator names, customer names and addresses, refund, payment and reconciliation notes, descriptions
 * and labels, service addresses, the API token): it must read on screen exactly as it is stored, and
 * every export must be able to hold it. Characters that break that are refused at the IPC boundary
 * (every contract schema chains `refuseUnsafeText`) with a message that names the character, where it
 * is and what to do — never silently stripped (a person should know their text was not taken as typed).
 *
 * Refused:
 * - control characters, Unicode general category Cc (NUL, escape, DEL, C1 such as U+0085);
 * - the bidirectional formatting characters, Bidi_Control (U+202E "right-to-left override" and its kin,
 *   U+2066–U+2069, U+200E/U+200F, U+061C: the "Trojan Source" characters), and the line/paragraph
 *   separators U+2028/U+2029: "Refund ‮001$ ‬" can display as a different amount or name than the one
 *   recorded;
 * - invisible characters, Default_Ignorable_Code_Point (U+200B zero-width space, U+FEFF byte-order
 *   mark, U+00AD soft hyphen, U+2060 word joiner, the Hangul fillers that make a name look empty, the tag
 *   characters that can smuggle hidden text) and the interlinear annotation characters U+FFF9–U+FFFB —
 *   except the few that writing systems and emoji need: zero-width (non-)joiner U+200C/U+200D,
 *   variation selectors, Mongolian free variation selectors, and tag characters inside an emoji flag
 *   sequence (🏴 + tags + cancel tag);
 * - what is not a character at all: noncharacters (U+FFFE, U+FFFF, U+FDD0–U+FDEF, …), which no XML file
 *   (so no Excel export) may contain, and lone surrogates (half of a UTF-16 pair), which no encoding can
 *   write.
 * Multi-line text (a refund note) additionally allows tab, line feed and carriage return.
 */
const ALLOWED_IGNORABLE = '\\u200C\\u200D\\u180B-\\u180D\\u180F\\uFE00-\\uFE0F\\u{E0100}-\\u{E01EF}';
const REFUSED_CLASS =
  '[\\p{Cc}\\p{Cs}\\p{Noncharacter_Code_Point}\\p{Bidi_Control}\\p{Default_Ignorable_Code_Point}\\u2028\\u2029\\uFFF9-\\uFFFB]';
// The joiners and variation selectors are listed one code point at a time on purpose (each alone is
// allowed), which the misleading-character-class rule would read as a joined sequence.
/* eslint-disable no-misleading-character-class */
const UNSAFE = new RegExp(`(?![${ALLOWED_IGNORABLE}])${REFUSED_CLASS}`, 'u');
const UNSAFE_ALL = new RegExp(UNSAFE.source, 'gu');
const UNSAFE_MULTILINE_ALL = new RegExp(`(?![\\t\\n\\r${ALLOWED_IGNORABLE}])${REFUSED_CLASS}`, 'gu');
/* eslint-enable no-misleading-character-class */

/** Tag characters (U+E0020–U+E007E) and the cancel tag U+E007F: allowed only inside an emoji flag. */
const isTag = (cp: number) => cp >= 0xe0020 && cp <= 0xe007f;
const WAVING_BLACK_FLAG = 0x1f3f4;
const CANCEL_TAG = 0xe007f;

/**
 * Whether the tag character at `index` belongs to an emoji tag sequence: U+1F3F4, then tag characters,
 * ended by the cancel tag (the flags of England, Scotland and Wales). Each is two UTF-16 units.
 */
function inFlagSequence(text: string, index: number): boolean {
  let start = index;
  while (start >= 2 && isTag(text.codePointAt(start - 2) ?? 0)) start -= 2;
  if (start < 2 || text.codePointAt(start - 2) !== WAVING_BLACK_FLAG) return false;
  let end = index;
  while (isTag(text.codePointAt(end) ?? 0) && text.codePointAt(end) !== CANCEL_TAG) end += 2;
  return text.codePointAt(end) === CANCEL_TAG && end > start;
}

const NAMES: Readonly<Record<number, string>> = {
  0x00: 'a NUL character',
  0x09: 'a tab',
  0x0a: 'a line break',
  0x0d: 'a line break',
  0x1b: 'an escape character',
  0x7f: 'a delete character',
  0xad: 'a soft hyphen',
  0x061c: 'an Arabic letter mark',
  0x115f: 'a Hangul filler',
  0x1160: 'a Hangul filler',
  0x3164: 'a Hangul filler',
  0xffa0: 'a Hangul filler',
  0x200b: 'a zero-width space',
  0x200e: 'a left-to-right mark',
  0x200f: 'a right-to-left mark',
  0x202a: 'a left-to-right embedding',
  0x202b: 'a right-to-left embedding',
  0x202c: 'a pop-directional-formatting character',
  0x202d: 'a left-to-right override',
  0x202e: 'a right-to-left override',
  0x2060: 'a word joiner',
  0x2066: 'a left-to-right isolate',
  0x2067: 'a right-to-left isolate',
  0x2068: 'a first-strong isolate',
  0x2069: 'a pop-directional-isolate character',
  0x2028: 'a line separator',
  0x2029: 'a paragraph separator',
  0xfeff: 'an invisible byte-order mark',
};

const hex = (cp: number) => `U+${cp.toString(16).toUpperCase().padStart(4, '0')}`;

function nameOf(cp: number): string {
  const named = NAMES[cp];
  if (named) return named;
  if (cp >= 0xd800 && cp <= 0xdfff) return 'a broken character, a lone surrogate';
  if ((cp & 0xfffe) === 0xfffe || (cp >= 0xfdd0 && cp <= 0xfdef)) return 'a noncharacter';
  if (isTag(cp)) return 'an invisible tag character';
  return 'an invisible control character';
}

/** Each refused character of `text`: its code point and UTF-16 index, in order. */
function* refused(text: string, multiline: boolean): Generator<{ cp: number; index: number }> {
  const re = multiline ? UNSAFE_MULTILINE_ALL : UNSAFE_ALL;
  re.lastIndex = 0;
  for (let m = re.exec(text); m; m = re.exec(text)) {
    const cp = m[0].codePointAt(0) ?? 0;
    if (isTag(cp) && inFlagSequence(text, m.index)) continue;
    yield { cp, index: m.index };
  }
}

/**
 * The first character of `text` that may not be stored, and where, as
 * `U+202E (a right-to-left override) at character 7` (counted in characters as a person sees them,
 * from 1).
 */
export function findUnsafeCharacter(text: string, opts: { multiline?: boolean } = {}): string | undefined {
  // Text with nothing refused (nearly all of it) is answered by one regex test.
  if (!UNSAFE.test(text)) return undefined;
  for (const { cp, index } of refused(text, opts.multiline ?? false)) {
    const position = [...text.slice(0, index)].length + 1;
    return `${hex(cp)} (${nameOf(cp)}) at character ${position}`;
  }
  return undefined;
}

/** The message a person sees: what was found and where, why it matters, what to do. */
export function unsafeTextMessage(what: string, found: string): string {
  return `The ${what} contains ${found}, which can make it read differently than it is stored. Retype it without that character.`;
}

/**
 * A refinement that refuses the characters above with a clear message. Chain it after the string's own
 * checks on every free-text field the app stores or sends on:
 * `z.string().trim().max(60).superRefine(refuseUnsafeText('profile name'))`.
 */
export function refuseUnsafeText(what: string, opts: { multiline?: boolean } = {}) {
  return (text: string, ctx: z.RefinementCtx): void => {
    const found = findUnsafeCharacter(text, opts);
    if (found) ctx.addIssue({ code: 'custom', message: unsafeTextMessage(what, found) });
  };
}

/**
 * For text the person did not type but the app must keep (a ledger's file name, header and cells):
 * every refused character is replaced by a visible `⟨U+202E⟩`, so what is stored is what is shown, and
 * the escaped text passes the rule above.
 */
export function escapeUnsafeText(text: string): string {
  // Called for every cell of a 100k-row ledger: text with nothing to escape is returned as it is.
  if (!UNSAFE.test(text)) return text;
  return text.replace(UNSAFE_ALL, (c: string, index: number) => {
    const cp = c.codePointAt(0) ?? 0;
    return isTag(cp) && inFlagSequence(text, index) ? c : `⟨${hex(cp)}⟩`;
  });
}
