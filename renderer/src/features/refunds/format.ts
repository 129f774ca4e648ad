import type { Currency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';
import type { Formatters } from '../preferences/format';

export { environmentLabel } from '../../../../shared/domain/labels';
export { reasonLabel } from '../../../../shared/csv/exports/refunds';

/**
 * "1,234.50 USD"-free on purpose: the dialog shows the exact plain decimal that will be sent and the
 * currency code beside it, so what a person reads is what they would type ("1234.50 USD").
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

/** Plain decimals and ISO times, for texts made where no display preferences apply. */
export const PLAIN_WORDS: Words = { amountCode: amountText, dateTime: (iso) => iso ?? '' };
