import { useId } from 'react';
import type { LimitDraft } from './limits';

/**
 * Per-currency refund limits of a profile. Above them a refund needs an explicit "I confirm" in the
 * dialog (main enforces it too). Amounts are typed in the currency's own units.
 */
export function LimitsEditor({
  rows,
  errors,
  onChange,
}: {
  rows: LimitDraft[];
  errors: Record<string, string>;
  onChange: (rows: LimitDraft[]) => void;
}) {
  const uid = useId();
  const update = (i: number, patch: Partial<LimitDraft>) =>
    onChange(rows.map((r, j) => (j === i ? { ...r, ...patch } : r)));
  return (
    <fieldset className="st-field st-limits" data-testid="limits-editor">
      <legend>Refund limits (optional)</legend>
      <p className="st-hint">
        A refund above the single limit, or one that takes today’s refunds past the daily limit, needs an
        extra confirmation.
      </p>
      {rows.length > 0 && (
        <div className="st-limits-grid" role="group" aria-label="Limits per currency">
          <span className="st-hint">Currency</span>
          <span className="st-hint">Single refund up to</span>
          <span className="st-hint">Daily total up to</span>
          <span />
          {rows.map((row, i) => (
            <div key={i} className="st-limits-row" data-testid={`limit-row-${i}`}>
              <input
                aria-label={`Currency of limit ${i + 1}`}
                value={row.currency}
                maxLength={3}
                placeholder="USD"
                onChange={(e) => update(i, { currency: e.target.value.toUpperCase() })}
                aria-invalid={errors[`limits.${i}`] ? true : undefined}
                aria-describedby={errors[`limits.${i}`] ? `${uid}-l${i}` : undefined}
              />
              <input
                aria-label={`Single-refund limit ${i + 1}`}
                value={row.maxSingle}
                inputMode="decimal"
                placeholder="no limit"
                onChange={(e) => update(i, { maxSingle: e.target.value })}
              />
              <input
                aria-label={`Daily limit ${i + 1}`}
                value={row.dailyTotal}
                inputMode="decimal"
                placeholder="no limit"
                onChange={(e) => update(i, { dailyTotal: e.target.value })}
              />
              <button
                type="button"
                onClick={() => onChange(rows.filter((_, j) => j !== i))}
                aria-label={`Remove limit ${i + 1}`}
              >
                Remove
              </button>
              {errors[`limits.${i}`] && (
                <p className="st-error" id={`${uid}-l${i}`} data-testid={`error-limits-${i}`}>
                  {errors[`limits.${i}`]}
                </p>
              )}
            </div>
          ))}
        </div>
      )}
      <button
        type="button"
        onClick={() => onChange([...rows, { currency: '', maxSingle: '', dailyTotal: '' }])}
      >
        Add a currency limit
      </button>
    </fieldset>
  );
}
