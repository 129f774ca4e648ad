import { useEffect, useRef } from 'react';

/** A compact multi-choice filter: a button showing the choice, opening a list of checkboxes. */
export function MultiPick({
  label,
  options,
  value,
  onChange,
}: {
  label: string;
  options: readonly string[];
  value: readonly string[];
  onChange(v: string[]): void;
}) {
  const ref = useRef<HTMLDetailsElement>(null);
  useEffect(() => {
    // Close when clicking elsewhere, like a native select.
    const onDown = (e: MouseEvent) => {
      if (ref.current?.open && !ref.current.contains(e.target as Node)) ref.current.open = false;
    };
    document.addEventListener('mousedown', onDown);
    return () => document.removeEventListener('mousedown', onDown);
  }, []);
  const summary =
    value.length === 0 ? 'any' : value.length <= 2 ? value.join(', ') : `${value.length} chosen`;
  const set = new Set(value);
  return (
    <details className="multipick" ref={ref} data-testid={`filter-${label.toLowerCase()}`}>
      <summary aria-label={`${label}: ${summary}`}>
        <span className="muted">{label}:</span> {summary}
      </summary>
      <div className="multipick-list" role="group" aria-label={label}>
        {options.length === 0 && <div className="muted small">Nothing cached yet</div>}
        {options.map((o) => (
          <label key={o}>
            <input
              type="checkbox"
              checked={set.has(o)}
              onChange={() => onChange(set.has(o) ? value.filter((v) => v !== o) : [...value, o])}
            />
            {o}
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
