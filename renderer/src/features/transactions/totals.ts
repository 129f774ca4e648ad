import { sumMinor } from '../../../../shared/domain/money';
import type { ListRow } from './list-row';

/**
 * What the totals strip adds up. `net` (the default) is what finance means by takings: successful
 * payments less what was refunded from them (refunds that succeeded or are still pending).
 */
export const TOTALS_BASES = ['net', 'gross', 'all'] as const;
export type TotalsBasis = (typeof TOTALS_BASES)[number];

export const TOTALS_BASIS_LABELS: Record<TotalsBasis, string> = {
  net: 'Successful payments, net of refunds',
  gross: 'Successful payments, before refunds',
  all: 'All statuses, before refunds',
};

/** One currency's totals over the rows counted, all in integer minor units. */
export interface CurrencyTotal {
  currency: string;
  /** Payments counted. */
  count: number;
  grossMinor: number;
  refundedMinor: number;
  netMinor: number;
  /** The figure the strip shows for the basis. */
  shownMinor: number;
}

/** The rows a basis counts. */
export function countedRows(rows: readonly ListRow[], basis: TotalsBasis): ListRow[] {
  return basis === 'all' ? rows.slice() : rows.filter((r) => r.status === 'success');
}

/**
 * Per-currency totals on a basis. Amounts in different currencies are never added together; each sum
 * is checked to stay within the safe-integer range. Largest count first.
 */
export function totalsByCurrency(rows: readonly ListRow[], basis: TotalsBasis = 'net'): CurrencyTotal[] {
  const groups = new Map<string, { count: number; amounts: number[]; refunded: number[] }>();
  for (const r of countedRows(rows, basis)) {
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
    .map(([currency, g]) => {
      const grossMinor = sumMinor(g.amounts);
      const refundedMinor = sumMinor(g.refunded);
      const netMinor = grossMinor - refundedMinor;
      return {
        currency,
        count: g.count,
        grossMinor,
        refundedMinor,
        netMinor,
        shownMinor: basis === 'net' ? netMinor : grossMinor,
      };
    })
    .sort((a, b) => b.count - a.count || a.currency.localeCompare(b.currency));
}
