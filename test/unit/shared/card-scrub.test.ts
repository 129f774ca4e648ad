import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { cardScrubber } from '../../../electron/core/services/payments/checks';
import { cardScrub, TEXT_REMOVED } from '../../../shared/domain/card-scrub';
import { cardArb, echoTextArb, echoUrlArb, expiryForms } from '../../fakes/card-data';

const CARD = { number: '4000056655665556', cvv: '987', expMonth: '12', expYear: '2031' };
const scrub = cardScrubber(CARD);
/** An 18-digit service id that happens to pass Luhn (one in ten does). */
const LUHN_ID = '301234567890123456';
/** The card's digits, whatever separates them. */
const joined = (text: string) => text.replace(/(\d)[^0-9A-Za-z\r\n]{1,3}(?=\d)/g, '$1');

describe('the card scrubber: the four shapes of issue 24', () => {
  it.each([
    ['card 4000 0566 5566 5556 cvv 987 refused', 'card •••• 5556 cvv ••• refused'],
    ['4000-0566-5566-5556 exp 12/2031', '•••• 5556 exp ••/••'],
    ['system error 4000 0566 5566 5556', 'system error •••• 5556'],
  ])('%j is kept as %j', (text, kept) => {
    expect(scrub.text(text)).toBe(kept);
    // Without the request's card (a later look-up, the store, the logger) the same texts are caught too.
    expect(cardScrub.text(text)).toBe(kept);
  });

  it('a 3-D Secure link with the card number and code in its query is not kept', () => {
    expect(scrub.url('https://acs.bank.example/acs?pan=4000056655665556&cvv=987')).toBeUndefined();
    expect(cardScrub.url('https://acs.bank.example/acs?pan=4000056655665556&cvv=987')).toBeUndefined();
  });
});

describe('the card scrubber: card numbers', () => {
  it.each([
    ['4000 0566 5566 5556'],
    ['4000-0566-5566-5556'],
    ['4000.0566.5566.5556'],
    ['4000 - 0566.5566-5556'],
    ['40 00056 6556 6555 6'],
    ['4000\u00a00566\t5566_5556'],
    ['4000056655665556'],
  ])('the request’s number grouped as %j', (pan) => {
    const out = scrub.text(`refused ${pan} by issuer`);
    expect(out).toBe('refused •••• 5556 by issuer');
    expect(joined(out)).not.toContain(CARD.number);
  });

  it('the request’s number inside a longer run of digits, or across a slash or comma', () => {
    expect(scrub.text('trace 40000566556655561234')).toBe('trace •••• 5556');
    expect(scrub.text('no 4000/0566/5566/5556.')).toBe('no •••• 5556.');
    expect(scrub.text('no 4000,0566,5566,5556')).toBe('no •••• 5556');
  });

  it('any Luhn-passing run of 13–19 digits, grouped or not; not runs that fail Luhn', () => {
    expect(cardScrub.text('card 3782 822463 10005 declined')).toBe('card •••• 0005 declined');
    expect(cardScrub.text('n=6011111111111117;')).toBe('n=•••• 1117;');
    expect(cardScrub.text('4111111111111111 12')).toBe('•••• 1111 12');
    expect(cardScrub.text('tx 297553638300708562 refused')).toBe('tx 297553638300708562 refused');
    expect(cardScrub.text('customer 3000000000000000000001 ok')).toBe('customer 3000000000000000000001 ok');
  });

  it('a Luhn-passing 18-digit run stays when it is one of the payment’s own ids, written whole', () => {
    expect(cardScrub.text(`transaction ${LUHN_ID} refused`, [LUHN_ID])).toBe(
      `transaction ${LUHN_ID} refused`,
    );
    // Another id that passes Luhn is masked (safety first: the id itself is kept in its own column).
    expect(cardScrub.text(`transaction ${LUHN_ID} refused`)).toBe('transaction •••• 3456 refused');
    // The request's card number is masked even when the service calls it its id.
    expect(scrub.text(`transaction ${CARD.number}`, [CARD.number])).toBe('transaction •••• 5556');
  });

  it('a labelled card number of 12–19 digits, Luhn or not', () => {
    expect(cardScrub.text('cardNumber: 1234 5678 9012')).toBe('cardNumber: •••• 9012');
    expect(cardScrub.text('PAN=123456789012345')).toBe('PAN=•••• 2345');
  });

  it('a number hidden behind an encoding: the text is not kept', () => {
    expect(scrub.text('x 4000%200566%205566%205556 y')).toBe(TEXT_REMOVED);
    expect(cardScrub.text('{"m":"\\u0034000056655665556"}')).toBe(TEXT_REMOVED);
    expect(cardScrub.text('&#52;000056655665556')).toBe(TEXT_REMOVED);
    expect(cardScrub.text('４０００ ０５６６ ５５６６ ５５５６')).toBe(TEXT_REMOVED);
  });
});

describe('the card scrubber: security code and expiry', () => {
  it('the request’s code as a number of its own, and any code after a label', () => {
    expect(scrub.text('refused (987), code 987.')).toBe('refused (•••), code •••.');
    expect(scrub.text('ref 19870 and 9.87 stay')).toBe('ref 19870 and 9.87 stay');
    expect(cardScrub.text('cvv 123, CVV2:4567, cvc=321, cardCvv":"555", security code 222')).toBe(
      'cvv •••, CVV2:•••, cvc=•••, cardCvv":"•••", security code •••',
    );
    expect(cardScrub.text('amount 987 USD')).toBe('amount 987 USD');
  });

  it.each(expiryForms(CARD))('the request’s expiry written %j', (form) => {
    expect(scrub.text(`valid ${form}.`)).toBe('valid ••/••.');
  });

  it('any date after a label; other dates stay', () => {
    expect(cardScrub.text('exp 03/29, expiry: 2030-01, expMonth=07, valid thru 1128')).toBe(
      'exp ••/••, expiry: ••/••, expMonth=••/••, valid thru ••/••',
    );
    expect(cardScrub.text('expected 12 items on 12/2031')).toBe('expected 12 items on 12/2031');
  });

  it('text without card data is left exactly as it was', () => {
    for (const t of [
      'reference IT-abc-12 was already used',
      'system error (injected fault)',
      'amount 12.34 USD, 2026-06-14T10:20:30.123Z',
      'transactionNo 297553638300708562 not found',
    ])
      expect(scrub.text(t)).toBe(t);
  });
});

describe('the card scrubber: page links', () => {
  it.each([
    ['https://acs.example/acs?PAN=4000056655665556'],
    ['https://acs.example/acs?cardNumber=4000-0566-5566-5556&x=1'],
    ['https://acs.example/acs?Cvv=987'],
    ['https://acs.example/acs?cvc2=1'],
    ['https://acs.example/acs?card%5Bnumber%5D=4000056655665556'],
    ['https://acs.example/acs?expYear=2031&expMonth=12'],
    ['https://acs.example/acs?EXPIRY=12%2F31'],
    ['https://acs.example/acs?number=4000056655665556'],
    ['https://acs.example/acs#/challenge?cvv=987'],
    ['https://acs.example/acs?next=pan%253D4000056655665556'],
    ['https://acs.example/acs/4000056655665556/go'],
    ['https://acs.example/acs?t=4111111111111111'],
  ])('%s is not kept', (url) => {
    expect(cardScrub.url(url)).toBeUndefined();
  });

  it('the request’s code or expiry anywhere after the host', () => {
    expect(scrub.url('https://acs.example/acs/987')).toBeUndefined();
    expect(scrub.url('https://acs.example/acs?e=1231')).toBeUndefined();
    expect(cardScrub.url('https://acs.example/acs/987')).toBe('https://acs.example/acs/987');
  });

  it('links without card data are kept as they are', () => {
    for (const url of [
      'http://127.0.0.1:51234/3ds/0123456789abcdef0123456789abcdef',
      'http://127.0.0.1:987/3ds/0123456789abcdef0123456789abcdef',
      'https://mapi.yuansfer.com/checkout?transactionNo=297553638300708562&cid=abc',
      'https://acs.example/acs?cardType=visa&lang=en',
    ])
      expect(scrub.url(url)).toBe(url);
    expect(cardScrub.url(`https://pay.example/x?transactionNo=${LUHN_ID}`, [LUHN_ID])).toBe(
      `https://pay.example/x?transactionNo=${LUHN_ID}`,
    );
  });
});

describe('the card scrubber: property', () => {
  it('a random card echoed in random service texts never survives, in any grouping', () => {
    fc.assert(
      fc.property(
        cardArb.chain((card) => fc.tuple(fc.constant(card), echoTextArb(card))),
        ([card, text]) => {
          const out = cardScrubber(card).text(text);
          expect(joined(out)).not.toContain(card.number);
          expect(out).not.toMatch(new RegExp(`(?<!\\d)${card.cvv}(?!\\d)`));
          for (const form of expiryForms(card))
            expect(out).not.toMatch(new RegExp(`(?<!\\d)${form.replace(/[./]/g, '\\$&')}(?!\\d)`));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('a random page link carrying a random card is never kept', () => {
    fc.assert(
      fc.property(
        cardArb.chain((card) => fc.tuple(fc.constant(card), echoUrlArb('https://acs.bank.example', card))),
        ([card, url]) => {
          expect(cardScrubber(card).url(url)).toBeUndefined();
        },
      ),
      { numRuns: 500 },
    );
  });
});
