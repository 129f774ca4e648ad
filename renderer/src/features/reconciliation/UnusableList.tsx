import { groupWhere, type ReasonGroup } from '../../../../shared/recon/reasons';
import { CAUSE_LABELS } from './report-parts';

/**
 * Rows listed by reason before the run: rows that share a reason are one line with their lines
 * ("Lines 2–31 (30 rows): …"). The list scrolls within a region that takes the keyboard's focus, so it
 * can be read without a mouse (axe: scrollable-region-focusable).
 */
function ReasonList({ groups, label }: { groups: readonly ReasonGroup[]; label: string }) {
  return (
    <div className="recon-problems-list" role="region" aria-label={label} tabIndex={0}>
      <ul>
        {groups.map((g) => (
          <li key={`${g.firstLine}-${g.reason}`}>
            {groupWhere(g)}: {g.reason}
            {g.same ? null : (
              <span className="cause"> (line {g.firstLine}; the others alike, each with its own value)</span>
            )}
            {g.cause && CAUSE_LABELS[g.cause] ? (
              <span className="cause"> — {CAUSE_LABELS[g.cause]}</span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

const rowsIn = (groups: readonly ReasonGroup[]) => groups.reduce((n, g) => n + g.count, 0);

/**
 * The rows that cannot be used, before the run, by reason. Every one of them is also a row of the
 * report (outcome “unreadable”) and of its export.
 */
export function UnusableList({ groups, total }: { groups: readonly ReasonGroup[]; total: number }) {
  if (total === 0) return null;
  const more = total - rowsIn(groups);
  return (
    <details className="recon-problems" open data-testid="recon-problems">
      <summary>
        {total.toLocaleString()} row{total === 1 ? '' : 's'} cannot be used: each is listed in the report as
        unreadable, with its line and reason; the other rows are checked.
      </summary>
      <ReasonList groups={groups} label="Rows that cannot be used" />
      {more > 0 && (
        <p className="small">
          … and {more.toLocaleString()} more, all in the report (filter “Unreadable row”) and its export.
        </p>
      )}
    </details>
  );
}

/** Rows checked by their reference because their transaction number cannot be used: said, not hidden. */
export function KeyNotes({ groups }: { groups: readonly ReasonGroup[] }) {
  const total = rowsIn(groups);
  if (total === 0) return null;
  return (
    <details className="recon-notes" open data-testid="recon-key-notes">
      <summary>
        {total.toLocaleString()} row{total === 1 ? ' is' : 's are'} checked by reference: the transaction
        number cannot be used. The report says so on each of them.
      </summary>
      <ReasonList groups={groups} label="Rows checked by reference" />
    </details>
  );
}
