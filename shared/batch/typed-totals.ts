/**
 * The one confirmation of a live-money batch: the person types its total again, one per currency
 * (`1,234.50 USD`). Shared so the screen enables its button by the same rule main checks before it
 * sends anything (electron/core/services/batch/execute.ts).
 */
import type { Currency } from '../domain/currencies';
import { MoneyParseError, parseMinor } from '../domain/money';

/** Whether the typed totals are exactly the batch's, one per currency (order and spacing free). */
export function totalsTyped(
  totals: readonly { currency: Currency; amountMinor: number }[],
  typed: readonly string[] | undefined,
): boolean {
  const got = new Map<string, number>();
  for (const t of typed ?? []) {
    const m = /^\s*([0-9.,\s]+?)\s*([A-Za-z]{3})\s*$/.exec(t);
    if (!m) return false;
    const currency = m[2]!.toUpperCase();
    const own = totals.find((x) => x.currency === currency);
    if (!own) return false;
    try {
      got.set(currency, parseMinor(m[1]!.replace(/[,\s]/g, ''), own.currency));
    } catch (e) {
      if (e instanceof MoneyParseError) return false;
      throw e;
    }
  }
  return totals.length === got.size && totals.every((t) => got.get(t.currency) === t.amountMinor);
}
