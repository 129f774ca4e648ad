import { sumMinor } from '../../../../shared/domain/money';
import type { ListRow } from './list-row';

/** One currency's totals over the filtered rows, all in integer minor units. */
export interface CurrencyTotal {
  currency: string;
  count: number;
  amountMinor: number;
  refundedMinor: number;
}

/**
 * Per-currency totals. Amounts in different currencies are never added together; each sum is checked
 * to stay within the safe-integer range.
 */
export function totalsByCurrency(rows: readonly ListRow[]): CurrencyTotal[] {
  const groups = new Map<string, { count: number; amounts: number[]; refunded: number[] }>();
  for (const r of rows) {
    let g = groups.get(r.currency);
    if (!g) {
      g = { count: 0, amounts: [], refunded: [] };
      groups.set(r.currency, g);
    }
    g.count += 1;
    g.amounts.push(r.amountMinor);
    g.refunded.push(r.refundedMinor);
  }
  return [...groups.entries()]
    .map(([currency, g]) => ({
      currency,
      count: g.count,
      amountMinor: sumMinor(g.amounts),
      refundedMinor: sumMinor(g.refunded),
    }))
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
}
