import fc from 'fast-check';

/**
 * Generators of card data and of the shapes a service may echo it in: a Luhn-valid number of 13–19
 * digits in random groupings, its security code and expiry in the usual spellings, embedded in random
 * service texts, URLs and JSON answers.
 */

/** Appends the Luhn check digit. */
export function withCheckDigit(body: string): string {
  let sum = 0;
  for (let i = 0; i < body.length; i += 1) {
    let d = Number(body[body.length - 1 - i]);
    if (i % 2 === 0) {
      d *= 2;
      if (d > 9) d -= 9;
    }
    sum += d;
  }
  return `${body}${(10 - (sum % 10)) % 10}`;
}

export interface Card {
  number: string;
  cvv: string;
  expMonth: string;
  expYear: string;
}

const digitString = (min: number, max: number) =>
  fc.array(fc.integer({ min: 0, max: 9 }), { minLength: min, maxLength: max }).map((d) => d.join(''));

/** A Luhn-valid card number of 13–19 digits (first digit 1–9). */
export const panArb = fc
  .tuple(fc.integer({ min: 1, max: 9 }), digitString(11, 17))
  .map(([first, rest]) => withCheckDigit(`${first}${rest}`));

export const cardArb: fc.Arbitrary<Card> = fc.record({
  number: panArb,
  cvv: fc.oneof(digitString(3, 3), digitString(4, 4)),
  expMonth: fc.integer({ min: 1, max: 12 }).map((m) => String(m).padStart(2, '0')),
  expYear: fc.integer({ min: 2030, max: 2049 }).map(String),
});

const SEPARATORS = [' ', '-', '.', '  ', ' - ', '\u00a0', '\t', '_'];

/** The number in a random grouping: unbroken, by fours, or random group sizes and mixed separators. */
export const groupedArb = (pan: string) =>
  fc.oneof(
    fc.constant(pan),
    fc.constantFrom(' ', '-', '.').map((sep) => pan.replace(/(\d{4})(?=\d)/g, `$1${sep}`)),
    fc
      .array(fc.tuple(fc.integer({ min: 1, max: 6 }), fc.constantFrom(...SEPARATORS)), {
        minLength: 19,
        maxLength: 19,
      })
      .map((cuts) => {
        let out = '';
        let at = 0;
        for (const [size, sep] of cuts) {
          if (at >= pan.length) break;
          out += pan.slice(at, at + size);
          at += size;
          if (at < pan.length) out += sep;
        }
        return out;
      }),
  );

/** Every usual spelling of an expiry. */
export function expiryForms(c: Pick<Card, 'expMonth' | 'expYear'>): string[] {
  const mm = c.expMonth;
  const yyyy = c.expYear;
  const yy = yyyy.slice(2);
  return [
    `${mm}/${yy}`,
    `${mm}/${yyyy}`,
    `${mm}${yy}`,
    `${yyyy}-${mm}`,
    `${mm}-${yyyy}`,
    `${mm} / ${yyyy}`,
    `${yyyy}${mm}`,
    `${mm}.${yy}`,
  ];
}

export const expiryArb = (c: Card) => fc.constantFrom(...expiryForms(c));

export const cvvArb = (cvv: string) =>
  fc.constantFrom(
    cvv,
    `cvv ${cvv}`,
    `CVV2: ${cvv}`,
    `cvc=${cvv}`,
    `(${cvv})`,
    `security code ${cvv}`,
    `${cvv}.`,
  );

const WORDS = [
  'card',
  'refused',
  'declined',
  'by',
  'issuer',
  'the',
  'payment',
  'for',
  'amount',
  'USD',
  'error',
  'system',
  'retry',
  'later',
  'number',
  'exp',
  'ok',
  '—',
  ':',
  ',',
  'échec',
  '拒绝',
];

/** Filler around the card data: words and small numbers a service message would carry. */
const fillerArb = fc
  .array(fc.oneof(fc.constantFrom(...WORDS), fc.integer({ min: 0, max: 99 }).map(String)), {
    maxLength: 4,
  })
  .map((w) => w.join(' '));

/** A service text that carries the card's number, and maybe its code and expiry, among filler. */
export const echoTextArb = (c: Card) =>
  fc
    .tuple(
      fillerArb,
      groupedArb(c.number),
      fillerArb,
      fc.option(cvvArb(c.cvv), { nil: undefined }),
      fc.option(expiryArb(c), { nil: undefined }),
      fillerArb,
    )
    .map(([a, pan, b, cvv, exp, d]) => [a, pan, b, exp, cvv, d].filter(Boolean).join(' '));

/** Query keys a hostile page link may carry card data under (random case; maybe bracketed). */
const URL_KEYS = [
  'pan',
  'card',
  'cardNumber',
  'number',
  'cvv',
  'cvc',
  'cvv2',
  'exp',
  'expiry',
  'expMonth',
  'expYear',
];

/** A page link that carries card data: in its query string (maybe URL-encoded, twice) or its path. */
export const echoUrlArb = (base: string, c: Card) =>
  fc
    .tuple(
      fc.constantFrom(...URL_KEYS),
      fc.boolean(),
      fc.constantFrom('plain', 'encoded', 'double', 'path', 'fragment'),
      fc.constantFrom<(keyof Card)[]>(
        ['number'],
        ['number', 'cvv'],
        ['cvv'],
        ['expMonth', 'expYear'],
        ['number', 'cvv', 'expMonth'],
      ),
    )
    .map(([key, upper, how, fields]) => {
      const k = upper ? key.toUpperCase() : key;
      const value = fields.map((f) => c[f]).join(fields.includes('expMonth') ? '/' : ' ');
      const query = `${k}=${value}&t=1`;
      const enc = encodeURIComponent(query);
      switch (how) {
        case 'plain':
          return `${base}/acs?${query}`;
        case 'encoded':
          return `${base}/acs?${encodeURIComponent(k)}=${encodeURIComponent(value)}`;
        case 'double':
          return `${base}/acs?next=${encodeURIComponent(enc)}`;
        case 'path':
          return `${base}/acs/${c.number}/${c.cvv}`;
        case 'fragment':
          return `${base}/acs#/challenge?${query}`;
      }
    });
