import { usePopover } from '../../lib/ui/use-popover';

export interface PickOption {
  value: string;
  label: string;
  /** Tooltip, e.g. the service's code behind the label. */
  title?: string;
}

/** A compact multi-choice filter: a button showing the choice, opening a list of checkboxes. Esc closes. */
export function MultiPick({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly PickOption[];
  value: readonly string[];
  onChange(v: string[]): void;
}) {
  const ref = usePopover();
  const labelOf = (v: string) => options.find((o) => o.value === v)?.label ?? v;
  const summary =
    value.length === 0 ? 'any' : value.length <= 2 ? value.map(labelOf).join(', ') : `${value.length} chosen`;
  const set = new Set(value);
  return (
    <details className="popover multipick" ref={ref} data-testid={`filter-${label.toLowerCase()}`}>
      <summary aria-label={`${label}: ${summary}`}>
        <span className="muted">{label}:</span> {summary}
      </summary>
      <div className="popover-panel multipick-list" role="group" aria-label={label}>
        {options.length === 0 && <div className="muted small">Nothing cached yet</div>}
        {options.map((o) => (
          <label key={o.value} title={o.title}>
            <input
              type="checkbox"
              checked={set.has(o.value)}
              onChange={() =>
                onChange(set.has(o.value) ? value.filter((v) => v !== o.value) : [...value, o.value])
              }
            />
            {o.label}
          </label>
        ))}
        {value.length > 0 && (
          <button type="button" className="link" onClick={() => onChange([])}>
            Clear
          </button>
        )}
      </div>
    </details>
  );
}
