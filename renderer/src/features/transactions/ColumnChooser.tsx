import { usePopover } from '../../lib/ui/use-popover';
import { COLUMNS } from './columns';

/** Show or hide columns; the exports follow what is shown. Required columns stay on. Esc closes. */
export function ColumnChooser({
  hidden,
  onChange,
  hasCustomWidths,
  onResetWidths,
}: {
  hidden: readonly string[];
  onChange(hidden: string[]): void;
  hasCustomWidths: boolean;
  onResetWidths(): void;
}) {
  const ref = usePopover();
  const h = new Set(hidden);
  return (
    <details className="popover right" ref={ref} data-testid="column-chooser">
      <summary>Columns</summary>
      <div className="popover-panel multipick-list" role="group" aria-label="Visible columns">
        {COLUMNS.map((c) => (
          <label key={c.id} title={c.required ? 'Always shown' : undefined}>
            <input
              type="checkbox"
              disabled={c.required}
              checked={c.required || !h.has(c.id)}
              onChange={() => onChange(h.has(c.id) ? hidden.filter((x) => x !== c.id) : [...hidden, c.id])}
            />
            {c.header}
          </label>
        ))}
        {hasCustomWidths && (
          <button type="button" className="link" onClick={onResetWidths}>
            Fit every column to its content
          </button>
        )}
      </div>
    </details>
  );
}
