import type { UnusableRow } from '../../../../shared/recon/ledger';
import { CAUSE_LABELS } from './report-parts';

const SHOWN = 200;

/**
 * The rows that cannot be used, before the run: each with its line and reason. Every one of them is
 * also a row of the report (outcome “unreadable”) and of its export.
 */
export function UnusableList({
  rows,
}: {
  rows: ReadonlyArray<Pick<UnusableRow, 'line' | 'reason' | 'cause'>>;
}) {
  if (rows.length === 0) return null;
  return (
    <details className="recon-problems" open data-testid="recon-problems">
      <summary>
        {rows.length.toLocaleString()} row{rows.length === 1 ? '' : 's'} cannot be used: each is listed in the
        report as unreadable, with its line and reason; the other rows are checked.
      </summary>
      <ul>
        {rows.slice(0, SHOWN).map((p) => (
          <li key={`${p.line}-${p.reason}`}>
            Line {p.line}: {p.reason}
            {p.cause && CAUSE_LABELS[p.cause] ? (
              <span className="cause"> — {CAUSE_LABELS[p.cause]}</span>
            ) : null}
          </li>
        ))}
        {rows.length > SHOWN && (
          <li>
            … and {(rows.length - SHOWN).toLocaleString()} more, all in the report (filter “Unreadable row”)
            and its export.
          </li>
        )}
      </ul>
    </details>
  );
}
