import { COLUMNS } from './columns';

/** Show or hide columns; the export follows what is shown. Required columns stay on. */
export function ColumnChooser({
  hidden,
  onChange,
}: {
  hidden: readonly string[];
  onChange(hidden: string[]): void;
}) {
  const h = new Set(hidden);
  return (
    <details className="multipick right" data-testid="column-chooser">
      <summary>Columns</summary>
      <div className="multipick-list" role="group" aria-label="Visible columns">
        {COLUMNS.map((c) => (
          <label key={c.id}>
            <input
              type="checkbox"
              disabled={c.required}
              checked={c.required || !h.has(c.id)}
              onChange={() => onChange(h.has(c.id) ? hidden.filter((x) => x !== c.id) : [...hidden, c.id])}
            />
            {c.header}
          </label>
        ))}
      </div>
    </details>
  );
}
