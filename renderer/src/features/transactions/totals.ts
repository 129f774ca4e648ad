import { MoneyParseError } from '../../../../shared/domain/money';
import type { ListRow } from '../../db/owner';

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

/** total + v, refusing to leave the safe-integer range (what sumMinor checks, one addition at a time). */
function addMinor(total: number, v: number): number {
  const sum = total + v;
  if (!Number.isSafeInteger(sum)) throw new MoneyParseError('sum exceeds the safe integer range');
  return sum;
}

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

/**
 * Per-currency totals on a basis (`all` counts every status, the others successful payments only). Amounts in different currencies are never added together; each sum
 * is checked to stay within the safe-integer range after every addition. Largest count first. One pass
 * with running sums: over 100k rows, copying the counted rows and each group's amounts into arrays
 * first took tens of milliseconds before the count could be shown as final.
 */
export function totalsByCurrency(rows: readonly ListRow[], basis: TotalsBasis = 'net'): CurrencyTotal[] {
  const groups = new Map<string, { count: number; gross: number; refunded: number }>();
  const all = basis === 'all';
  for (const r of rows) {
    if (!all && r.status !== 'success') continue;
    let g = groups.get(r.currency);
    if (!g) {
      g = { count: 0, gross: 0, refunded: 0 };
      groups.set(r.currency, g);
    }
    g.count += 1;
    g.gross = addMinor(g.gross, r.amountMinor);
    g.refunded = addMinor(g.refunded, r.refundedMinor);
  }
  return [...groups.entries()]
    .map(([currency, g]) => {
      const grossMinor = g.gross;
      const refundedMinor = g.refunded;
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
