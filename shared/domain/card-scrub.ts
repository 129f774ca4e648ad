import { passesLuhn } from './card';
import { decodedForms, urlCarriesCardField } from './card-scrub-url';

/**
 * The one scrubber every text and URL that comes back from a card call passes before it is stored,
 * logged, pushed or exported (services/payments/recorder.ts at the edge; the payment store, the logger,
 * the views and the exports again, defensively). It masks:
 *
 * - the request's card number in any grouping (spaces, dashes, dots, tabs, mixed, up to three such
 *   characters between two digits), also inside a longer run of digits: `•••• 5556`;
 * - any run of 13–19 digits (same separators, digits only between them) that passes Luhn — except a run
 *   that is exactly one of the payment's own ids (its transactionNo, reference, customerNo, merchant or
 *   store number) written whole. Service ids are 18–22 digits and one in ten passes Luhn by chance: a
 *   service text quoting its own transaction number keeps it, while any other Luhn-passing run is
 *   masked even if it was an id (safety first; the id itself is kept in its own column, not in texts);
 * - a card number after a label (`pan`, `card number`, `cardNumber`, `cc no` …), 12–19 digits;
 * - the request's security code as a number of its own (not inside a longer run of digits) and any
 *   3–4 digits after a label (`cvv`, `cvc2`, `cardCvv`, `security code` …): `•••`;
 * - the request's expiry in any usual shape (MM/YY, MM/YYYY, M/YY, MMYY, YYMM, MMYYYY, YYYYMM,
 *   YYYY-MM, with `/`, `-`, `.` or spaces) and any date after a label (`exp`, `expiry`, `valid thru`,
 *   `expMonth` …): `••/••`.
 *
 * A text whose percent-, JSON-, HTML- or NFKC-decoded form still carries card data after masking is
 * replaced whole by TEXT_REMOVED. A URL that carries card data by any of these rules, or a card field in
 * its query string or fragment (also URL-encoded), is not kept at all (`url()` answers undefined): the
 * caller records UNSAFE_LINK instead and nothing opens it.
 *
 * Without the request's card (later look-ups, the store, the logger, the exports) only the rules that
 * need no card apply: Luhn runs, labelled numbers, codes and dates, URL card fields.
 */

/** What the scrubber may know of the request's card: tests over hashes (checks.ts), never the card. */
export interface CardSecrets {
  /** True when `digits` (digits only) is the request's card number. */
  isPan(digits: string): boolean;
  panLength: number;
  last4: string;
  isCvv(digits: string): boolean;
  cvvLength: number;
  /** True for the request's expiry written `YYYYMM`. */
  isExpiry(yyyymm: string): boolean;
}

/** Ids of this payment a text may quote whole without them being taken for a card number. */
export type KnownIds = readonly (string | null | undefined)[];

export interface CardScrubber {
  /** The text with every card datum masked (or TEXT_REMOVED when a decoded form still carries one). */
  text(text: string, known?: KnownIds): string;
  /** The URL when it carries no card data; undefined when it does (never keep or open it). */
  url(url: string, known?: KnownIds): string | undefined;
}

export const TEXT_REMOVED = '[removed by Refund Desk: this text contained card data]';

/** What the person is told when the service answered a page link that carried card data. */
export function unsafeLinkNotice(page: '3ds' | 'checkout'): string {
  return page === '3ds'
    ? 'The service’s 3-D Secure link contained card data; it was not opened or kept. Check the payment with the service’s support.'
    : 'The service’s payment link contained card data; it was not opened or kept. Check the payment with the service’s support.';
}
export const UNSAFE_LINK_NOTICES: ReadonlySet<string> = new Set([
  unsafeLinkNotice('3ds'),
  unsafeLinkNotice('checkout'),
]);

/**
 * Fewer than three digits (of any script) cannot be or hide a card number, code or date: every encoding
 * of a digit (%34, &#52;, \u0034, ４) has one. Most stored texts end here.
 */
const DIGIT = /\p{Nd}/gu;
const tooFewDigits = (text: string) => {
  let n = 0;
  for (const _ of text.matchAll(DIGIT)) if ((n += 1) >= 3) return false;
  return true;
};
const MASK_CVV = '•••';
const MASK_EXPIRY = '••/••';
// Card-number masks show the last four digits: they are kept by placeholders (no digits) while the
// other rules run, so a masked number's last four are never taken for a code or a date.
const PLACEHOLDER_BASE = 0xe100;
const PLACEHOLDER_MAX = 0xefff;
const PLACEHOLDERS = /[\ue100-\uefff]/g;

/** Between two digits of a card number the request's own is looked for across (tabs, `/`, `,` …). */
const WIDE_RUN = /\d(?:[^0-9A-Za-z\r\n\ue100-\uefff]{0,3}\d)*/g;
/** Separators people and services group card numbers with. */
const SEP = '[ \\t\\u00a0\\u2007\\u202f._\\-\\u2010-\\u2015]';
const NARROW_RUN = new RegExp(`\\d+(?:${SEP}{1,3}\\d+)*`, 'g');
const DIGITS = /\d+/g;

const LABELLED_PAN = new RegExp(
  `(?<![a-z])(?:pan|card[\\s_-]*(?:no|num|number|pan)?|cc[\\s_-]*(?:no|num|number)|credit[\\s_-]*card(?:[\\s_-]*(?:no|num|number))?|primary[\\s_-]*account[\\s_-]*number)(?![a-z])[^0-9A-Za-z\\r\\n]{0,4}(\\d(?:${SEP}{0,3}\\d){11,18})(?!\\d)`,
  'gi',
);
const LABELLED_CVV =
  /(?:cvv2?|cvc2?|cvn2?|(?<![a-z])(?:csc|cid)|security[\s_-]*code|card[\s_-]*code|verification[\s_-]*(?:code|value))(?:[\s_-]*(?:code|number|no|value))?(?![a-z])[^0-9A-Za-z\r\n]{0,4}(\d{3,4})(?!\d)/gi;
const LABELLED_EXPIRY =
  /(?:exp(?:iry|iration|ires|ire)?(?:[\s_-]*(?:date|month|year|mm|yy|yyyy))?|valid[\s_-]*(?:thru|through|until|to)|good[\s_-]*thru)(?![a-z])[^0-9A-Za-z\r\n]{0,4}(\d{1,4}(?:\s{0,2}[/.-]\s{0,2}\d{1,4})?)(?!\d)/gi;

interface Span {
  start: number;
  end: number;
  mask: string;
}

/** Replaces non-overlapping spans (overlaps merge into the first one's mask). */
function applySpans(text: string, spans: Span[]): string {
  if (spans.length === 0) return text;
  spans.sort((a, b) => a.start - b.start);
  let out = '';
  let at = 0;
  for (const s of spans) {
    if (s.start < at) continue;
    out += text.slice(at, s.start) + s.mask;
    at = s.end;
  }
  return out + text.slice(at);
}

/** Start and end (in `text`) of each digit of a run, so digit windows map back to characters. */
function digitPositions(run: string, offset: number): number[] {
  const at: number[] = [];
  for (let i = 0; i < run.length; i += 1) {
    const c = run.charCodeAt(i);
    if (c >= 48 && c <= 57) at.push(offset + i);
  }
  return at;
}

const isDigit = (text: string, i: number) => i >= 0 && i < text.length && /\d/.test(text[i]!);
function groupStart(text: string, i: number): number {
  while (isDigit(text, i - 1)) i -= 1;
  return i;
}
function groupEnd(text: string, i: number): number {
  while (isDigit(text, i)) i += 1;
  return i;
}

const monthOk = (m: string) => /^(0?[1-9]|1[0-2])$/.test(m);
const yearOf = (y: string) => (y.length === 2 ? `20${y}` : y.length === 4 ? y : undefined);
const yyyymm = (y: string, m: string) => {
  const year = yearOf(y);
  return year && monthOk(m) ? `${year}${m.padStart(2, '0')}` : undefined;
};

/** Every way a token or a pair of tokens can spell an expiry, as YYYYMM. */
function expiryReadings(a: string, b?: string): string[] {
  const out: (string | undefined)[] = [];
  if (b === undefined) {
    if (a.length === 4) out.push(yyyymm(a.slice(2), a.slice(0, 2)), yyyymm(a.slice(0, 2), a.slice(2)));
    if (a.length === 6) out.push(yyyymm(a.slice(2), a.slice(0, 2)), yyyymm(a.slice(0, 4), a.slice(4)));
  } else {
    out.push(yyyymm(b, a), yyyymm(a, b));
  }
  return out.filter((x): x is string => x !== undefined);
}

export function createCardScrubber(secrets?: CardSecrets): CardScrubber {
  const isKnown = (digits: string, known: KnownIds) => known.some((k) => k && k === digits);

  /** Card-number masks wait behind placeholders (no digits) until every other rule has run. */
  const placer = (masks: string[]) => (digits: string) => {
    if (masks.length >= PLACEHOLDER_MAX - PLACEHOLDER_BASE) return '••••';
    masks.push(`•••• ${digits.slice(-4)}`);
    return String.fromCharCode(PLACEHOLDER_BASE + masks.length - 1);
  };

  /** The request's card number, in any grouping, also inside a longer run of digits. */
  function requestNumber(s: CardSecrets, text: string, panMask: (digits: string) => string): string {
    const spans: Span[] = [];
    const L = s.panLength;
    // Last four digits that are also the code or the expiry are not shown (a one in ten thousand card).
    const shown = (): string =>
      s.isCvv(s.last4) || expiryReadings(s.last4).some(s.isExpiry) ? '••••' : panMask(s.last4);
    for (const m of text.matchAll(WIDE_RUN)) {
      const at = digitPositions(m[0], m.index);
      if (at.length < L) continue;
      const digits = m[0].replace(/\D/g, '');
      for (let i = 0; i + L <= digits.length; i += 1)
        if (s.isPan(digits.slice(i, i + L)))
          // The whole groups it touches: `•••• 5556`, not `•••• 55561234` from a glued-on id.
          spans.push({
            start: groupStart(text, at[i]!),
            end: groupEnd(text, at[i + L - 1]! + 1),
            mask: shown(),
          });
    }
    return applySpans(text, mergeSpans(spans));
  }

  /**
   * The request's expiry and security code. They go before the other card numbers are looked for, so
   * a number masked there never shows the code or a date as its last four.
   */
  function requestCodes(s: CardSecrets, text: string, urlMode: boolean): string {
    // In a URL the host and port are left alone (127.0.0.1 is not a code); its path, query and
    // fragment are not.
    const authority = urlMode ? (/^[a-z][a-z0-9+.-]*:\/\/[^/?#]*/i.exec(text)?.[0].length ?? 0) : 0;
    const head = text.slice(0, authority);
    let rest = text.slice(authority);
    const tokens = [...rest.matchAll(DIGITS)].map((t) => ({
      start: t.index,
      end: t.index + t[0].length,
      text: t[0],
    }));
    const spans: Span[] = [];
    tokens.forEach((t, k) => {
      if (expiryReadings(t.text).some(s.isExpiry))
        spans.push({ start: t.start, end: t.end, mask: MASK_EXPIRY });
      const next = tokens[k + 1];
      if (
        next &&
        /^\s{0,2}[/.\-\s]\s{0,2}$/.test(rest.slice(t.end, next.start)) &&
        expiryReadings(t.text, next.text).some(s.isExpiry)
      )
        spans.push({ start: t.start, end: next.end, mask: MASK_EXPIRY });
    });
    rest = applySpans(rest, mergeSpans(spans));
    const bound = urlMode ? /(?<![0-9A-Za-z])\d{3,4}(?![0-9A-Za-z])/g : /(?<!\d)\d{3,4}(?!\d)/g;
    rest = rest.replace(bound, (run) => (run.length === s.cvvLength && s.isCvv(run) ? MASK_CVV : run));
    return head + rest;
  }

  /** Labelled card numbers, then every Luhn-passing run of 13–19 digits but the payment's own ids. */
  function anyNumber(text: string, known: KnownIds, urlMode: boolean, panMask: (d: string) => string) {
    const out = text.replace(LABELLED_PAN, (whole, num: string) => {
      const digits = num.replace(/\D/g, '');
      if (digits === num && isKnown(digits, known)) return whole;
      return whole.slice(0, whole.length - num.length) + panMask(digits);
    });
    const spans: Span[] = [];
    for (const m of out.matchAll(NARROW_RUN)) {
      // In a URL only a run standing alone counts: hex page tokens hold digit runs by chance.
      if (urlMode) {
        const before = out[m.index - 1] ?? '';
        const after = out[m.index + m[0].length] ?? '';
        if (/[0-9A-Za-z]/.test(before) || /[0-9A-Za-z]/.test(after)) continue;
      }
      const groups = [...m[0].matchAll(DIGITS)].map((g) => ({
        start: m.index + g.index,
        end: m.index + g.index + g[0].length,
        digits: g[0],
      }));
      for (let i = 0; i < groups.length; i += 1) {
        let digits = '';
        for (let j = i; j < groups.length; j += 1) {
          digits += groups[j]!.digits;
          if (digits.length > 19) break;
          if (digits.length < 13 || !passesLuhn(digits)) continue;
          if (i === j && isKnown(digits, known)) continue;
          spans.push({ start: groups[i]!.start, end: groups[j]!.end, mask: panMask(digits) });
        }
      }
    }
    return applySpans(out, mergeSpans(spans));
  }

  /** Any security code or expiry after a label. */
  const labelledCodes = (text: string) =>
    text
      .replace(LABELLED_EXPIRY, (whole, v: string) => whole.slice(0, whole.length - v.length) + MASK_EXPIRY)
      .replace(LABELLED_CVV, (whole, v: string) => whole.slice(0, whole.length - v.length) + MASK_CVV);

  function scrub(text: string, known: KnownIds, urlMode: boolean): { text: string; masks: string[] } {
    const masks: string[] = [];
    const panMask = placer(masks);
    // Private-use characters are this scrubber's placeholders: a service's own are not kept.
    let out = text.replace(PLACEHOLDERS, '\ufffd');
    if (secrets) out = requestCodes(secrets, requestNumber(secrets, out, panMask), urlMode);
    out = labelledCodes(anyNumber(out, known, urlMode, panMask));
    return { text: out, masks };
  }
  const restore = (text: string, masks: string[]) =>
    text.replace(PLACEHOLDERS, (c) => masks[c.charCodeAt(0) - PLACEHOLDER_BASE] ?? '••••');

  /** True when a decoded form of the (already masked) text still carries card data. */
  const hiddenInDecoded = (masked: string, known: KnownIds, urlMode: boolean) =>
    decodedForms(masked).some(
      (form) => scrub(form, known, urlMode).text !== form.replace(PLACEHOLDERS, '\ufffd'),
    );

  return {
    text(text, known = []) {
      if (!text || tooFewDigits(text)) return text;
      const s = scrub(text, known, false);
      if (hiddenInDecoded(s.text, known, false)) return TEXT_REMOVED;
      return restore(s.text, s.masks);
    },
    url(url, known = []) {
      if (!url) return url;
      if (tooFewDigits(url)) return urlCarriesCardField(url) ? undefined : url;
      const s = scrub(url, known, true);
      if (s.text !== url.replace(PLACEHOLDERS, '\ufffd')) return undefined;
      if (hiddenInDecoded(url, known, true) || urlCarriesCardField(url)) return undefined;
      return url;
    },
  };
}

/** Overlapping spans become one (a card number found twice, or by two windows). */
function mergeSpans(spans: Span[]): Span[] {
  spans.sort((a, b) => a.start - b.start);
  const out: Span[] = [];
  for (const s of spans) {
    const last = out[out.length - 1];
    if (last && s.start < last.end) last.end = Math.max(last.end, s.end);
    else out.push({ ...s });
  }
  return out;
}

/** The rules that need no card: for later look-ups, the stores, the logger, the views and exports. */
export const cardScrub: CardScrubber = createCardScrubber();

/** `cardScrub.text` for optional values. */
export function scrubCardText<T extends string | undefined | null>(text: T, known: KnownIds = []): T {
  return (typeof text === 'string' ? cardScrub.text(text, known) : text) as T;
}
