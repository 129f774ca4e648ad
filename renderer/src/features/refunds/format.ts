import type { Currency } from '../../../../shared/domain/currencies';
import { formatMinor } from '../../../../shared/domain/money';

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
