/**
 * Ledger amounts as spreadsheets write them, read with evidence rather than guessed. A file uses one
 * decimal separator; it is decided from the file's own values before the run, shown to the person, and
 * may be changed. A value that could be read either way ("1.400", "0,125") proves nothing by itself:
 * when no other value in the file decides, the person is asked — never guessed.
 */
import type { Currency } from '../domain/currencies';
import { currencyExponent, isKnownCurrency } from '../domain/currencies';
import { MoneyParseError, parseMinor } from '../domain/money';

export const DECIMAL_SEPARATORS = ['.', ','] as const;
export type DecimalSeparator = (typeof DECIMAL_SEPARATORS)[number];

export interface DecimalEvidence {
  /** What the values show; undefined when they do not decide (no evidence, or conflicting evidence). */
  decimal?: DecimalSeparator;
  /** Values that show a dot (resp. comma) is the decimal separator. */
  dot: number;
  comma: number;
  /** Values with one separator followed by exactly three digits: readable either way. */
  ambiguous: number;
  /** One value of each kind, to show the person. */
  examples: { dot?: string; comma?: string; ambiguous?: string };
  /** True when the file has ambiguous values and nothing decides: the person must choose. */
  needsChoice: boolean;
}

/** Spaces, no-break spaces and apostrophes are only ever thousands separators (1 234,50 · 1'234.50). */
const GROUPING_ONLY = /[\s\u00a0\u202f']/g;

/** Strips sign, parentheses and grouping-only characters; returns the bare digits-and-separators text. */
function core(raw: string): { text: string; negative: boolean } {
  let t = raw.trim().replace(GROUPING_ONLY, '');
  let negative = false;
  const paren = /^\((.*)\)$/.exec(t);
  if (paren) {
    negative = true;
    t = paren[1] ?? '';
  }
  if (t.startsWith('-')) {
    negative = !negative;
    t = t.slice(1);
  } else if (t.startsWith('+')) t = t.slice(1);
  return { text: t, negative };
}

type Reading = DecimalSeparator | 'ambiguous' | 'none';

/**
 * readingOf for the common case, in one pass: an optional minus, digits, and at most one separator
 * (dot or comma) followed by digits. Undefined for anything else (read by readingOf the careful way).
 */
function plainReading(raw: string): Reading | undefined {
  const n = raw.length;
  let sepAt = -1;
  for (let i = raw.charCodeAt(0) === 0x2d ? 1 : 0; i < n; i += 1) {
    const c = raw.charCodeAt(i);
    if (c >= 0x30 && c <= 0x39) continue;
    if ((c !== 0x2e && c !== 0x2c) || sepAt !== -1) return undefined;
    sepAt = i;
  }
  if (n === 0 || sepAt === -1) return n > 0 && raw !== '-' ? 'none' : undefined;
  return n - sepAt - 1 === 3 ? 'ambiguous' : raw.charCodeAt(sepAt) === 0x2e ? '.' : ',';
}

/** What one value says about the decimal separator. */
export function readingOf(raw: string): Reading {
  const plain = plainReading(raw);
  if (plain !== undefined) return plain;
  const { text } = core(raw);
  if (!/^[\d.,]+$/.test(text)) return 'none';
  const dots = text.split('.').length - 1;
  const commas = text.split(',').length - 1;
  if (dots === 0 && commas === 0) return 'none';
  if (dots > 0 && commas > 0) return text.lastIndexOf('.') > text.lastIndexOf(',') ? '.' : ',';
  const sep = dots > 0 ? '.' : ',';
  const other: DecimalSeparator = sep === '.' ? ',' : '.';
  // Repeated, it can only group thousands: 1.234.567 says the decimal separator is the other one.
  if (dots + commas > 1) return other;
  const after = text.length - text.indexOf(sep) - 1;
  return after === 3 ? 'ambiguous' : sep;
}

/** Decides the decimal separator of a file from its amount values. */
export function detectDecimal(values: Iterable<string>): DecimalEvidence {
  const ev = decimalTally();
  for (const v of values) tallyDecimal(ev, v);
  return decimalVerdict(ev);
}

/** Evidence before any value: detectDecimal is decimalTally, tallyDecimal per value, decimalVerdict. */
export function decimalTally(): DecimalEvidence {
  return { dot: 0, comma: 0, ambiguous: 0, examples: {}, needsChoice: false };
}

/** Adds what one value says (in file order: the first of each kind is its example). */
export function tallyDecimal(ev: DecimalEvidence, v: string): void {
  const r = readingOf(v);
  if (r === '.') {
    ev.dot += 1;
    ev.examples.dot ??= v.trim();
  } else if (r === ',') {
    ev.comma += 1;
    ev.examples.comma ??= v.trim();
  } else if (r === 'ambiguous') {
    ev.ambiguous += 1;
    ev.examples.ambiguous ??= v.trim();
  }
}

/** Decides from the tally of every value. */
export function decimalVerdict(ev: DecimalEvidence): DecimalEvidence {
  if (ev.dot > 0 && ev.comma === 0) ev.decimal = '.';
  else if (ev.comma > 0 && ev.dot === 0) ev.decimal = ',';
  ev.needsChoice = ev.decimal === undefined && (ev.ambiguous > 0 || (ev.dot > 0 && ev.comma > 0));
  return ev;
}

/** Plain words for a separator: "dot (1,234.56)" / "comma (1.234,56)". */
export function decimalLabel(d: DecimalSeparator): string {
  return d === '.' ? 'dot (1,234.56)' : 'comma (1.234,56)';
}

/** Digits that keep every value below 2^53 (Number.MAX_SAFE_INTEGER has 16). */
const PLAIN_MAX_DIGITS = 15;

/**
 * The common case read in one pass over the characters, to integer minor units: an optional minus,
 * digits, and optionally the decimal separator and digits, nothing else (no spaces, no grouping).
 * Undefined for anything else — including amounts that must fail — which parseLedgerAmount then reads
 * the careful way, so both give the same number for every text this one accepts. Exported for the
 * ledger reader, which knows each currency's exponent and tries this on the cell as written first.
 */
export function plainAmount(raw: string, exp: number, decimal: DecimalSeparator): number | undefined {
  const n = raw.length;
  const sep = decimal.charCodeAt(0);
  let i = 0;
  const negative = raw.charCodeAt(0) === 0x2d;
  if (negative) i = 1;
  let value = 0;
  let wholeDigits = 0;
  for (; i < n; i += 1) {
    const c = raw.charCodeAt(i) - 0x30;
    if (c < 0 || c > 9) break;
    value = value * 10 + c;
    wholeDigits += 1;
  }
  // Whole digits and the minor unit's digits stay below 2^53; longer amounts take the exact path.
  if (wholeDigits === 0 || wholeDigits + exp > PLAIN_MAX_DIGITS) return undefined;
  let frac = 0;
  if (i < n) {
    if (raw.charCodeAt(i) !== sep) return undefined;
    for (i += 1; i < n; i += 1) {
      const c = raw.charCodeAt(i) - 0x30;
      if (c < 0 || c > 9) return undefined;
      // Decimals past the currency's exponent are accepted only as zeros (100.00 JPY).
      if (frac >= exp) {
        if (c !== 0) return undefined;
        continue;
      }
      value = value * 10 + c;
      frac += 1;
    }
  }
  for (; frac < exp; frac += 1) value *= 10;
  return negative && value !== 0 ? -value : value;
}

/**
 * Parses a ledger amount in minor units of `currency`, with the file's decimal separator: the other
 * separator may only group thousands in threes ("1.400" KRW is 1400 in a decimal-comma file). Throws
 * MoneyParseError with a sentence a person can act on.
 */
export function parseLedgerAmount(raw: string, currency: Currency, decimal: DecimalSeparator): number {
  const plain = isKnownCurrency(currency) ? plainAmount(raw, currencyExponent(currency), decimal) : undefined;
  if (plain !== undefined) return plain;
  const { text, negative } = core(raw);
  if (text === '') throw new MoneyParseError('has no amount');
  if (!/^[\d.,]+$/.test(text)) throw new MoneyParseError(`“${raw.trim().slice(0, 30)}” is not an amount`);
  const thousands = decimal === '.' ? ',' : '.';
  const parts = text.split(decimal);
  if (parts.length > 2)
    throw new MoneyParseError(`“${raw.trim()}” has more than one decimal separator (${decimal})`);
  const [whole = '', frac] = parts;
  if (whole.includes(thousands) && !new RegExp(`^\\d{1,3}(\\${thousands}\\d{3})+$`).test(whole))
    throw new MoneyParseError(
      `“${raw.trim()}” does not group thousands in threes with “${thousands}” (the file's decimal separator is “${decimal}”)`,
    );
  if (frac !== undefined && !/^\d*$/.test(frac))
    throw new MoneyParseError(`“${raw.trim()}” has a thousands separator after the decimal separator`);
  const decimalText = `${negative ? '-' : ''}${whole.replaceAll(thousands, '') || '0'}${frac ? `.${frac}` : ''}`;
  return parseMinor(decimalText, currency, { allowExtraZeros: true });
}
