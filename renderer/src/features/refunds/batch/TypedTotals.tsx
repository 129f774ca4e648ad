import type { BatchTotal } from '../../../../../shared/batch/result';
import type { useTypedTotals } from './use-typed-totals';

/** The typed-totals box (see use-typed-totals.ts): one input per currency. */
export function TypedTotalsBox({
  testId,
  lead,
  totals,
  typing,
}: {
  testId: string;
  /** What the step is for, after the bold warning ("Type the total to confirm."). */
  lead: { warning: string; ask: string };
  totals: readonly BatchTotal[];
  typing: ReturnType<typeof useTypedTotals>;
}) {
  return (
    <div className="rd-confirm-box" data-testid={testId}>
      <p>
        <strong>{lead.warning}</strong> {lead.ask}
      </p>
      {totals.map((t) => (
        <label key={t.currency} className="rd-field">
          <span>Type the total in {t.currency} again to confirm</span>
          <input
            className="mono"
            inputMode="decimal"
            autoComplete="off"
            value={typing.typed[t.currency] ?? ''}
            onChange={(e) => typing.type(t.currency, e.target.value)}
          />
        </label>
      ))}
    </div>
  );
}
