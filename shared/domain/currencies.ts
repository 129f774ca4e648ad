/**
 * ISO 4217 minor-unit exponents for the currencies the service handles.
 * The service writes every amount with two decimals (shared/protocol/README.md, "Amounts and time"), but
 * JPY/KRW/IDR have no minor unit in ISO 4217. We follow ISO for display and parsing; the wire layer
 * always emits the service's two-decimal form (see money.ts toWireAmount).
 */
const EXPONENTS: Readonly<Record<string, number>> = {
  USD: 2,
  CNY: 2,
  GBP: 2,
  PHP: 2,
  IDR: 0,
  KRW: 0,
  HKD: 2,
  THB: 2,
  MYR: 2,
  BDT: 2,
  PKR: 2,
  JPY: 0,
  EUR: 2,
  CAD: 2,
  AUD: 2,
  SGD: 2,
};

/** True when `code` is a 3-letter currency this app knows how to handle. */
export function isKnownCurrency(code: string): boolean {
  return Object.hasOwn(EXPONENTS, code);
}

/** Minor-unit exponent of a currency (2 when unknown, the service's own default). */
export function currencyExponent(code: string): number {
  return EXPONENTS[code] ?? 2;
}
