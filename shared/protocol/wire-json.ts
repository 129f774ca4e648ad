/**
 * Reads the service's JSON so that no number is silently changed on the way in. `JSON.parse` turns the
 * text `100.3000000000000001` into the double 100.3, and an amount read from that would be 100.30: a
 * different amount than the service wrote. Every number whose text is not exactly the value JavaScript
 * holds becomes NaN, which every schema refuses, so such an answer is malformed rather than misread.
 * Exact numbers (`10.5`, `10.50`, `1000`) pass unchanged: older servers send amounts as JSON numbers.
 */

/** A decimal as sign, significant digits (no leading or trailing zeros) and the power of ten of the last. */
function decimalParts(text: string): { neg: boolean; digits: string; exp: number } | undefined {
  const m = /^(-)?(\d+)(?:\.(\d+))?(?:[eE]([+-]?\d+))?$/.exec(text);
  if (!m) return undefined;
  const [, neg, whole = '', frac = '', e = '0'] = m;
  const all = (whole + frac).replace(/^0+/, '');
  const digits = all.replace(/0+$/, '');
  if (digits === '') return { neg: false, digits: '0', exp: 0 };
  return { neg: neg === '-', digits, exp: Number(e) - frac.length + (all.length - digits.length) };
}

/** Whether the number's source text and the double read from it are the same decimal value. */
export function isExactNumberText(source: string, value: number): boolean {
  if (!Number.isFinite(value)) return false;
  const a = decimalParts(source.trim());
  // String() of a double is its shortest round-trip form: exactly the decimal the double stands for here.
  const b = decimalParts(String(value));
  return a !== undefined && b !== undefined && a.neg === b.neg && a.digits === b.digits && a.exp === b.exp;
}

type Reviver = (key: string, value: unknown, context?: { source?: string }) => unknown;

/**
 * Whether the text may hold a number a double cannot state exactly. Up to 15 significant digits always
 * survive a double (DBL_DIG), so only a number token of 16 or more digit characters, or one with an
 * exponent, can lose anything. A match inside a string only costs the slower exact parse.
 */
const MAYBE_INEXACT = /(?:^|[:[,])\s*-?[\d.]{16,}|\d[eE][+-]?\d/;

/**
 * JSON.parse for service answers: numbers that lost precision (or overflowed to Infinity) become NaN.
 * Engines without the reviver's source text (older than V8 11.4) parse as before; the amount parser
 * still refuses anything whose shortest form has more decimals than the currency.
 */
export function parseWireJson(text: string): unknown {
  // The source-text reviver is several times slower than a plain parse: kept for the texts that need it.
  if (!MAYBE_INEXACT.test(text)) return JSON.parse(text);
  const revive: Reviver = (_key, value, context) =>
    typeof value === 'number' && context?.source !== undefined && !isExactNumberText(context.source, value)
      ? Number.NaN
      : value;
  return JSON.parse(text, revive as (key: string, value: unknown) => unknown);
}
