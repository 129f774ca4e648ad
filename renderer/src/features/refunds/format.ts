import { type Currency, isKnownCurrency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';
import type { Formatters } from '../preferences/format';

export { environmentLabel } from '../../../../shared/domain/labels';
export { reasonLabel } from '../../../../shared/csv/exports/refunds';

/**
 * The plain form ("1234.50 USD"): only where no display preferences apply (PLAIN_WORDS below, which
 * tests and texts made outside a screen use). Screens use the person's `Formatters.amountCode`.
 */
export function amountText(amountMinor: number, currency: Currency): string {
  try {
    return `${formatMinor(amountMinor, currency)} ${currency}`;
  } catch {
    return `${amountMinor} (minor units) ${currency}`;
  }
}

/** What the outcome texts need of the person's formatters: amounts with their code, and times. */
export type Words = Pick<Formatters, 'amountCode' | 'dateTime'>;

/** What reading and writing amounts needs: the person's locale and its amount formats. */
export type NumberWords = Pick<Formatters, 'locale' | 'amount' | 'amountCode'>;

/** Plain decimals and ISO times, for texts made where no display preferences apply (tests, the CLI). */
export const PLAIN_WORDS: Words = { amountCode: amountText, dateTime: (iso) => iso ?? '' };

/** Plain decimals read and written the English way: where no display preferences apply. */
export const PLAIN_NUMBERS: NumberWords = {
  locale: 'en-US',
  amount: (minor, currency) => (isKnownCurrency(currency) ? formatMinor(minor, currency) : String(minor)),
  amountCode: (minor, currency) =>
    isKnownCurrency(currency) ? amountText(minor, currency) : `${currency} ${minor}`,
};
