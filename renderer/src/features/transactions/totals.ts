import { MoneyParseError } from '../../../../shared/domain/money';
import type { ListRow } from '../../db/owner';
import type { ListStats } from '../../db/owner';

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
export function totalsByCurrency(
  rows: readonly ListRow[],
  basis: TotalsBasis = 'net',
  mask: Uint8Array | null = null,
): CurrencyTotal[] {
  const groups = new Map<string, { count: number; gross: number; refunded: number }>();
  const all = basis === 'all';
  for (let i = 0; i < rows.length; i += 1) {
    // `mask` (filters.ts filterMask): only the rows it lets through, visited in the order they are held.
    if (mask && !mask[i]) continue;
    const r = rows[i]!;
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
  return ordered(groups, basis);
}

/**
 * The same totals from sums gathered while the rows were read (list-stats.ts), when nothing is
 * filtered: no pass over the rows. Undefined when a sum left the safe range (totalsByCurrency then
 * refuses it, as before).
 */
export function totalsFromStats(stats: ListStats, basis: TotalsBasis = 'net'): CurrencyTotal[] | undefined {
  if (stats.unsafe) return undefined;
  const groups = new Map<string, { count: number; gross: number; refunded: number }>();
  for (const [currency, m] of stats.sums) {
    const g =
      basis === 'all'
        ? { count: m.allCount, gross: m.allGross, refunded: m.allRefunded }
        : { count: m.successCount, gross: m.successGross, refunded: m.successRefunded };
    if (g.count > 0) groups.set(currency, g);
  }
  return ordered(groups, basis);
}

function ordered(
  groups: ReadonlyMap<string, { count: number; gross: number; refunded: number }>,
  basis: TotalsBasis,
): CurrencyTotal[] {
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
