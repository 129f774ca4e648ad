import { z } from 'zod';

/**
 * The currencies the service handles, with their ISO 4217 minor-unit exponents.
 * The service writes every amount with two decimals (shared/protocol/README.md, "Amounts and time"), but
 * JPY/KRW/IDR have no minor unit in ISO 4217. We follow ISO for display and parsing; the wire layer
 * always emits the service's two-decimal form (see money.ts toWireAmount).
 */
const EXPONENTS = {
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
} as const satisfies Record<string, number>;

/**
 * A currency this app can handle. Closed on purpose: an amount in any other currency cannot be parsed
 * or shown without guessing its minor unit, so such data is refused where it enters (the service's
 * answers, CSV files, stored records of earlier versions), never carried along as a bare string.
 */
export type Currency = keyof typeof EXPONENTS;
export const CURRENCIES = Object.keys(EXPONENTS) as [Currency, ...Currency[]];

export const currencySchema = z.enum(CURRENCIES, {
  message: `Use a currency this app handles: ${CURRENCIES.join(', ')}.`,
});

/** True when `code` is a currency this app knows how to handle. */
export function isKnownCurrency(code: string): code is Currency {
  return Object.hasOwn(EXPONENTS, code);
}

/**
 * Minor-unit exponent of a currency. A code outside the table can only arrive through a cast of stored
 * data; it throws rather than guessing two decimals.
 */
export function currencyExponent(code: Currency): number {
  const exp = (EXPONENTS as Readonly<Record<string, number>>)[code];
  if (exp === undefined) throw new UnsupportedCurrencyError(code);
  return exp;
}

/** A currency code outside CURRENCIES, met where data enters (the service's answer, a stored record). */
export class UnsupportedCurrencyError extends Error {
  override name = 'UnsupportedCurrencyError';
  constructor(readonly currency: string) {
    super(`currency "${currency.slice(0, 12)}" is not one this app handles`);
  }
}

/** The currency as a closed type, or UnsupportedCurrencyError: never a guess at an unknown one's minor unit. */
export function toCurrency(code: string): Currency {
  if (!isKnownCurrency(code)) throw new UnsupportedCurrencyError(code);
  return code;
}
