import { z } from 'zod';
import { type Currency, currencyExponent } from './currencies';

/**
 * Money is integer minor units next to an ISO currency. Decimal strings exist only at the wire and in
 * CSV. Nothing in this file uses floating point arithmetic on amounts.
 */
export interface Money {
  amountMinor: number;
  currency: Currency;
}

/**
 * The one schema of an amount in minor units, used by every shape that holds one: a whole number
 * within Number's safe range (beyond it, integer arithmetic on amounts is no longer exact).
 */
export const minorSchema = z.number().int().refine(Number.isSafeInteger, 'Amounts are whole minor units.');

/** Why an amount did not parse, for code to act on (the message is for people). */
export type MoneyParseReason =
  | 'format'
  | 'decimals'
  | 'too_large'
  | 'negative'
  | 'not_integer'
  /** Reads differently in the two number conventions (money-input.ts): the message asks which was meant. */
  | 'ambiguous';

export class MoneyParseError extends Error {
  override name = 'MoneyParseError';
  constructor(
    message: string,
    readonly reason: MoneyParseReason = 'format',
  ) {
    super(message);
  }
}

const DECIMAL = /^(-)?(\d+)(?:\.(\d+))?$/;

/**
 * Parses a decimal string strictly into minor units of `currency`.
 * Rejects signs other than a leading '-', exponents, grouping separators, more decimals than the
 * currency has (e.g. "1.005" USD, "10.5" JPY), and values past Number.MAX_SAFE_INTEGER.
 * `allowExtraZeros` accepts trailing zero decimals beyond the exponent ("100.00" JPY), which is how
 * the service writes every amount.
 */
export function parseMinor(
  text: string,
  currency: Currency,
  opts: { allowExtraZeros?: boolean } = {},
): number {
  const trimmed = text.trim();
  const m = DECIMAL.exec(trimmed);
  if (!m) throw new MoneyParseError(`"${text}" is not a plain decimal amount`);
  const [, neg, whole = '', fracRaw = ''] = m;
  const exp = currencyExponent(currency);
  let frac = fracRaw;
  if (frac.length > exp) {
    const extra = frac.slice(exp);
    if (!opts.allowExtraZeros || /[^0]/.test(extra)) {
      throw new MoneyParseError(
        exp === 0
          ? `${currency} has no minor unit: "${text}" must be a whole number`
          : `${currency} allows at most ${exp} decimals: "${text}"`,
        'decimals',
      );
    }
    frac = frac.slice(0, exp);
  }
  const digits = (whole + frac.padEnd(exp, '0')).replace(/^0+(?=\d)/, '');
  const value = BigInt(digits);
  if (value > BigInt(Number.MAX_SAFE_INTEGER))
    throw new MoneyParseError(`"${text}" is too large`, 'too_large');
  const n = Number(value);
  return neg && n !== 0 ? -n : n;
}

/** Parses an amount as the service writes it (JSON number or string, two decimals). */
export function parseWireAmount(value: string | number, currency: Currency): number {
  // Older servers send JSON numbers. String() gives a double's shortest round-trip form ("10.5"):
  // anything with more decimals than the currency has is refused by parseMinor, and a number whose
  // JSON text said more than the double holds never gets here (shared/protocol/wire-json.ts).
  if (typeof value === 'number' && !Number.isFinite(value))
    throw new MoneyParseError(`"${String(value)}" is not an amount`);
  const minor = parseMinor(typeof value === 'number' ? String(value) : value, currency, {
    allowExtraZeros: true,
  });
  // The service never sends negative amounts; one would silently raise a remaining refundable amount.
  if (minor < 0) throw new MoneyParseError(`negative amount "${String(value)}" from the service`);
  return minor;
}

/** Formats minor units as a plain decimal string with the currency's exponent ("-12.30"). */
export function formatMinor(amountMinor: number, currency: Currency): string {
  if (!Number.isSafeInteger(amountMinor)) throw new MoneyParseError(`not an integer amount: ${amountMinor}`);
  const exp = currencyExponent(currency);
  const neg = amountMinor < 0;
  const digits = String(Math.abs(amountMinor)).padStart(exp + 1, '0');
  const body = exp === 0 ? digits : `${digits.slice(0, -exp)}.${digits.slice(-exp)}`;
  return neg ? `-${body}` : body;
}

/** The service's wire form: always two decimals, even for zero-exponent currencies ("1000.00"). */
export function toWireAmount(amountMinor: number, currency: Currency): string {
  const exp = currencyExponent(currency);
  const plain = formatMinor(amountMinor, currency);
  return exp === 0 ? `${plain}.00` : plain;
}

/** Locale display with the currency symbol, via Intl (digits come from the integer, never a float sum). */
export function displayMoney(amountMinor: number, currency: Currency, locale?: string): string {
  const exp = currencyExponent(currency);
  const fmt = new Intl.NumberFormat(locale, {
    style: 'currency',
    currency,
    minimumFractionDigits: exp,
    maximumFractionDigits: exp,
  });
  // Intl accepts a decimal string exactly (no float rounding) in modern engines.
  return fmt.format(formatMinor(amountMinor, currency) as unknown as number);
}

/** a + b with the checks of sumMinor([a, b]), for running totals kept item by item (no array per add). */
export function addMinor(a: number, b: number): number {
  if (!Number.isSafeInteger(a)) throw new MoneyParseError('sum exceeds the safe integer range');
  const total = a + b;
  if (!Number.isSafeInteger(total)) throw new MoneyParseError('sum exceeds the safe integer range');
  return total;
}

/** Sums minor-unit amounts, refusing to leave the safe-integer range. */
export function sumMinor(values: Iterable<number>): number {
  let total = 0;
  for (const v of values) {
    total += v;
    if (!Number.isSafeInteger(total)) throw new MoneyParseError('sum exceeds the safe integer range');
  }
  return total;
}
