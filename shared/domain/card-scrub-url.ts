/**
 * The encodings a card number or code can hide behind in a service's text or link, and the card fields
 * of a URL's query string (./card-scrub.ts uses both).
 */

/** Percent (also double), `+` for space, JSON `\uXXXX`, HTML numeric entities, full-width digits. */
function decodeOnce(text: string): string {
  return text
    .replace(/%([0-9a-f]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\+/g, ' ')
    .replace(/\\u([0-9a-f]{4})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/&#x([0-9a-f]{1,6});/gi, (_, h: string) => safeChar(parseInt(h, 16)))
    .replace(/&#(\d{1,7});/g, (_, d: string) => safeChar(Number(d)))
    .normalize('NFKC');
}
const safeChar = (code: number) => (code <= 0x10ffff ? String.fromCodePoint(code) : '\ufffd');

/** Something to decode: an escape, a `+`, or a character NFKC may fold (full-width digits …). */
const ENCODED = /[%+\\&\u0080-\uffff]/;

/** The decoded forms of a text that differ from it (up to three rounds, for double encoding). */
export function decodedForms(text: string): string[] {
  const forms: string[] = [];
  if (!ENCODED.test(text)) return forms;
  let cur = text;
  for (let i = 0; i < 3; i += 1) {
    const next = decodeOnce(cur);
    if (next === cur) break;
    forms.push(next);
    cur = next;
  }
  return forms;
}

/**
 * Query and fragment keys that name card data, normalised (lower case, letters and digits only).
 * Any non-empty value under one of these makes the URL unsafe.
 */
const CARD_KEYS = new Set([
  'pan',
  'cardnumber',
  'cardno',
  'cardnum',
  'cardpan',
  'ccnumber',
  'ccnum',
  'ccno',
  'creditcardnumber',
  'primaryaccountnumber',
  'cvv',
  'cvv2',
  'cvc',
  'cvc2',
  'cvn',
  'cvn2',
  'csc',
  'securitycode',
  'cardsecuritycode',
  'cardcvv',
  'cardcvc',
  'cardcvv2',
  'cardcode',
  'cardverificationvalue',
  'cardverificationcode',
  'expiry',
  'expiration',
  'expdate',
  'expirydate',
  'expirationdate',
  'expmonth',
  'expyear',
  'expirymonth',
  'expiryyear',
  'expirationmonth',
  'expirationyear',
  'cardexp',
  'cardexpiry',
  'cardexpmonth',
  'cardexpyear',
  'cardexpirydate',
  'track1',
  'track2',
]);
/**
 * Short keys that mean card data on a card page but other things elsewhere (`cid` is a client id as
 * often as Amex's code): they count when their value looks like a number, code or date.
 */
const WEAK_CARD_KEYS = new Set(['card', 'number', 'cc', 'cid', 'exp', 'acct', 'account', 'creditcard']);
const NUMBERISH = /^[\d\s./-]*\d{2}[\d\s./-]*$/;

/** Key/value pairs of the query string and of the fragment (a `#/route?x=1` fragment too). */
function pairs(url: string): [string, string][] {
  const out: [string, string][] = [];
  const parts = url.split(/[?#]/).slice(1);
  for (const part of parts)
    for (const pair of part.split(/[&;]/)) {
      const eq = pair.indexOf('=');
      if (eq > 0) out.push([pair.slice(0, eq), pair.slice(eq + 1)]);
    }
  return out;
}

const norm = (key: string) => key.toLowerCase().replace(/[^a-z0-9]/g, '');

/** True when the URL's query string or fragment has a card field with a value (also URL-encoded). */
export function urlCarriesCardField(url: string): boolean {
  for (const form of [url, ...decodedForms(url)])
    for (const [rawKey, rawValue] of pairs(form)) {
      const value = rawValue.trim();
      if (!value) continue;
      // `card[number]`, `payment.card.cvv`: the whole key and its last part both count.
      const last =
        rawKey
          .split(/[.[\]]/)
          .filter(Boolean)
          .pop() ?? rawKey;
      for (const key of [norm(rawKey), norm(last)]) {
        if (CARD_KEYS.has(key)) return true;
        if (WEAK_CARD_KEYS.has(key) && NUMBERISH.test(value)) return true;
      }
    }
  return false;
}
