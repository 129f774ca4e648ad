import { type Currency, currencyExponent } from './currencies';
import { MoneyParseError, parseMinor } from './money';

/** How a locale writes numbers: its decimal mark and its thousands separator (as Intl writes them). */
export interface NumberMarks {
  decimal: string;
  group: string;
}

const SPACES = /[\s\u00a0\u202f\u2009]/g;
const APOSTROPHES = /['\u2019]/g;
const cache = new Map<string, NumberMarks>();

/** The decimal mark and thousands separator of `locale`, from Intl itself (never a table of our own). */
export function numberMarks(locale: string): NumberMarks {
  let m = cache.get(locale);
  if (!m) {
    const parts = new Intl.NumberFormat(locale, { useGrouping: true }).formatToParts(1234567.5);
    m = {
      decimal: parts.find((p) => p.type === 'decimal')?.value ?? '.',
      group: parts.find((p) => p.type === 'group')?.value ?? ',',
    };
    cache.set(locale, m);
  }
  return m;
}

/** The locale's marks as a person types them: any space for a space-like separator, any apostrophe for one. */
function normalise(text: string, marks: NumberMarks): string {
  let t = text;
  if (/^[\s\u00a0\u202f\u2009]$/.test(marks.group)) t = t.replace(SPACES, 'G');
  else if (/^['\u2019]$/.test(marks.group)) t = t.replace(APOSTROPHES, 'G');
  else t = t.split(marks.group).join('G');
  return t.split(marks.decimal).join('D');
}

/** "," for a locale whose decimal mark is ",": what a person reads in the messages. */
const show = (mark: string) => (/^[\s\u00a0\u202f\u2009]$/.test(mark) ? 'a space' : `“${mark}”`);

/** True when `int` (with G for the separator) is grouped in threes, or exactly as the locale groups it. */
function wellGrouped(int: string, locale: string, marks: NumberMarks): boolean {
  if (/^\d{1,3}(G\d{3})+$/.test(int)) return true;
  const digits = int.replace(/G/g, '');
  const own = normalise(new Intl.NumberFormat(locale, { useGrouping: true }).format(BigInt(digits)), marks);
  return own === int;
}

/**
 * Parses an amount as a person types it in their number format (Settings → Numbers), into minor units
 * of `currency`, never guessing: in German `1.000` is one thousand and `12,50` twelve and a half; in
 * English the reverse. A value that reads differently in the two conventions (`12.50` in German,
 * `12,50` in English, `1.000` USD in English) is refused with the question, so the person says which.
 * No signs, no currency symbols, no exponents; at most the currency's decimals. Throws MoneyParseError
 * (reason `ambiguous` for the question).
 */
export function parseLocaleAmount(text: string, currency: Currency, locale: string): number {
  const marks = numberMarks(locale);
  const trimmed = text.trim();
  if (trimmed === '') throw new MoneyParseError('Type an amount.');
  if (/^[-\u2212]/.test(trimmed)) throw new MoneyParseError(`"${text}" is negative`, 'negative');
  const t = normalise(trimmed, marks);
  const other = marks.decimal === ',' ? '.' : ',';
  const written = (n: string) => n.replace(/G/g, marks.group).replace(/D/g, marks.decimal);
  const rules = `Here ${show(marks.decimal)} marks the decimals and ${show(marks.group)} separates thousands (${written('1G000')} is one thousand)`;
  const question = (guess: string | undefined) =>
    new MoneyParseError(
      `${guess ? `Did you mean ${guess}? ` : ''}${rules}, so “${trimmed}” is not clear. Type it that way.`,
      'ambiguous',
    );
  if (!/^[\dGD]+$/.test(t)) {
    // Another convention's mark where this one has none ("12.50" where "," is the decimal mark).
    if (/^[\dGD.,]+$/.test(t)) {
      const once = t.split(other).length === 2 && !t.includes('D');
      throw question(once ? written(t.replace(other, 'D')) : undefined);
    }
    throw new MoneyParseError(`“${trimmed}” is not an amount: type digits only, without a currency sign.`);
  }
  const pieces = t.split('D');
  if (pieces.length > 2) throw new MoneyParseError(`“${trimmed}” has more than one decimal mark.`);
  const [int = '', frac] = pieces;
  if (int === '')
    throw new MoneyParseError(`“${trimmed}” needs a digit before its decimal mark (0 for none).`);
  if (frac !== undefined && (frac === '' || frac.includes('G')))
    throw new MoneyParseError(`“${trimmed}” needs digits right after its decimal mark.`);
  if (int.includes('G') && !wellGrouped(int, locale, marks)) {
    // "12,50" in English, "12.50" in German: a thousands separator where decimals were meant?
    const once = frac === undefined && int.split('G').length === 2;
    throw question(once ? written(int.replace('G', 'D')) : undefined);
  }
  // "1.000" USD in English: three decimals for a currency with fewer, where a thousand may be meant.
  if (frac !== undefined && frac.length === 3 && currencyExponent(currency) < 3 && /^[1-9]\d{0,2}$/.test(int))
    throw question(written(`${int}G${frac}`));
  return parseMinor(`${int.replace(/G/g, '')}${frac === undefined ? '' : `.${frac}`}`, currency);
}
