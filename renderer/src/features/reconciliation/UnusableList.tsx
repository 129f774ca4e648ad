import type { UnusableRow } from '../../../../shared/recon/ledger';
import { useFormat } from '../preferences/use-prefs';
import { CAUSE_LABELS } from './report-parts';

/**
 * The rows that cannot be used, before the run: each with its line and reason. Every one of them is
 * also a row of the report (outcome “unreadable”) and of its export.
 */
export function UnusableList({
  rows,
  total,
}: {
  /** The first of them (the ledger worker sends at most UNUSABLE_SHOWN). */
  rows: ReadonlyArray<Pick<UnusableRow, 'line' | 'reason' | 'cause'>>;
  total: number;
}) {
  const f = useFormat();
  if (total === 0) return null;
  return (
    <details className="recon-problems" open data-testid="recon-problems">
      <summary>
        {f.count(total)} row{total === 1 ? '' : 's'} cannot be used: each is listed in the report as
        unreadable, with its line and reason; the other rows are checked.
      </summary>
      <ul>
        {rows.map((p) => (
          <li key={`${p.line}-${p.reason}`}>
            Line {p.line}: {p.reason}
            {p.cause && CAUSE_LABELS[p.cause] ? (
              <span className="cause"> — {CAUSE_LABELS[p.cause]}</span>
            ) : null}
          </li>
        ))}
        {total > rows.length && (
          <li>
            … and {f.count(total - rows.length)} more, all in the report (filter “Unreadable row”) and its
            export.
          </li>
        )}
      </ul>
    </details>
  );
}
