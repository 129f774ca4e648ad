import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { CURRENCIES } from '../../../shared/domain/currencies';
import { MoneyParseError } from '../../../shared/domain/money';
import { numberMarks, parseLocaleAmount } from '../../../shared/domain/money-input';
import { createFormatters } from '../../../renderer/src/features/preferences/format';
import { DEFAULT_PREFS, LOCALES } from '../../../renderer/src/features/preferences/prefs';

const refused = (text: string, currency: 'USD' | 'JPY', locale: string) => {
  try {
    parseLocaleAmount(text, currency, locale);
  } catch (e) {
    expect(e).toBeInstanceOf(MoneyParseError);
    return e as MoneyParseError;
  }
  throw new Error(`"${text}" was accepted in ${locale}`);
};

describe('amounts as the person types them, in their number format', () => {
  it('reads each locale’s own decimal mark and thousands separator from Intl', () => {
    expect(numberMarks('de-DE')).toEqual({ decimal: ',', group: '.' });
    expect(numberMarks('en-US')).toEqual({ decimal: '.', group: ',' });
    expect(numberMarks('fr-FR').decimal).toBe(',');
  });

  it('German: 12,50 is twelve and a half, 1.000 is one thousand, 1.234,56 both', () => {
    expect(parseLocaleAmount('12,50', 'USD', 'de-DE')).toBe(1250);
    expect(parseLocaleAmount('1.000', 'USD', 'de-DE')).toBe(100_000);
    expect(parseLocaleAmount('1.234,56', 'USD', 'de-DE')).toBe(123_456);
    expect(parseLocaleAmount('1.000', 'JPY', 'de-DE')).toBe(1000);
    expect(parseLocaleAmount(' 204 ', 'USD', 'de-DE')).toBe(20_400);
  });

  it('English: the reverse, and 1,000 is one thousand', () => {
    expect(parseLocaleAmount('12.50', 'USD', 'en-US')).toBe(1250);
    expect(parseLocaleAmount('1,000', 'USD', 'en-US')).toBe(100_000);
    expect(parseLocaleAmount('16,127.65', 'USD', 'en-US')).toBe(1_612_765);
    expect(parseLocaleAmount('16127.65', 'USD', 'en-US')).toBe(1_612_765);
  });

  it('French (spaces of any kind between thousands) and Swiss German (apostrophes)', () => {
    expect(parseLocaleAmount('1 234,56', 'USD', 'fr-FR')).toBe(123_456);
    expect(parseLocaleAmount('1\u202f234,56', 'USD', 'fr-FR')).toBe(123_456);
    expect(parseLocaleAmount('1’234.50', 'USD', 'de-CH')).toBe(123_450);
  });

  it('refuses what reads differently in the two conventions, with the question', () => {
    const de = refused('12.50', 'USD', 'de-DE');
    expect(de.reason).toBe('ambiguous');
    expect(de.message).toContain('Did you mean 12,50?');
    expect(de.message).toContain('“,” marks the decimals');
    const en = refused('12,50', 'USD', 'en-US');
    expect(en.reason).toBe('ambiguous');
    expect(en.message).toContain('Did you mean 12.50?');
    // Three decimals in a two-decimal currency: a thousand may have been meant.
    expect(refused('1.000', 'USD', 'en-US').message).toContain('Did you mean 1,000?');
    expect(refused('12.50', 'USD', 'fr-FR').message).toContain('Did you mean 12,50?');
    expect(refused('1000.00', 'USD', 'de-DE').reason).toBe('ambiguous');
  });

  it('refuses signs, currency signs, exponents and too many decimals, never guessing', () => {
    expect(refused('-5', 'USD', 'en-US').reason).toBe('negative');
    expect(refused('abc', 'USD', 'en-US').reason).toBe('format');
    expect(refused('$5', 'USD', 'en-US').reason).toBe('format');
    expect(refused('1e3', 'USD', 'en-US').reason).toBe('format');
    expect(refused('1,5', 'JPY', 'de-DE').reason).toBe('decimals');
    expect(parseLocaleAmount('1.005', 'USD', 'de-DE')).toBe(100_500);
    expect(refused('1,005', 'USD', 'de-DE').message).toContain('Did you mean 1.005?');
    expect(refused('0,125', 'USD', 'de-DE').reason).toBe('decimals');
    expect(refused('1,2,3', 'USD', 'de-DE').reason).toBe('format');
    expect(refused('12,', 'USD', 'de-DE').reason).toBe('format');
  });

  it('every amount the screens show in a locale reads back as the same amount in that locale', () => {
    const locales = LOCALES.map((l) => l.id).filter((l) => l !== 'system');
    fc.assert(
      fc.property(
        fc.constantFrom(...locales),
        fc.constantFrom(...CURRENCIES),
        fc.integer({ min: 1, max: 9_999_999_999 }),
        (locale, currency, minor) => {
          const f = createFormatters({ ...DEFAULT_PREFS, locale });
          expect(parseLocaleAmount(f.amount(minor, currency), currency, locale)).toBe(minor);
        },
      ),
      { numRuns: 400 },
    );
  });
});
