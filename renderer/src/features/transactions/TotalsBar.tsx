import { money } from './format';
import type { CurrencyTotal } from './totals';

/** Count and per-currency sums of the rows shown (never one grand total across currencies). */
export function TotalsBar({
  shown,
  cached,
  totals,
}: {
  shown: number;
  cached: number;
  totals: readonly CurrencyTotal[];
}) {
  return (
    <div className="tx-totals" data-testid="tx-totals" aria-label="Totals of the rows shown">
      <span>
        <strong data-testid="tx-count">{shown.toLocaleString()}</strong> of {cached.toLocaleString()} cached
      </span>
      {totals.slice(0, 6).map((t) => (
        <span
          key={t.currency}
          className="tx-total"
          data-currency={t.currency}
          title={`${t.count} ${t.currency} transactions; refunded ${money(t.refundedMinor, t.currency)}`}
        >
          {money(t.amountMinor, t.currency)}
          <span className="muted small"> ({t.count})</span>
        </span>
      ))}
      {totals.length > 6 && <span className="muted small">+{totals.length - 6} more currencies</span>}
    </div>
  );
}
