import { useFormat } from '../preferences/use-prefs';
import { useMemo, useState } from 'react';
import type { ParsedCsv } from '../../../../shared/csv/parser';
import { toLedgerRows } from '../../../../shared/recon/ledger';
import {
  FIELD_LABELS,
  MAPPING_FIELDS,
  mappingIssues,
  type ColumnMapping,
  type MappingField,
} from '../../../../shared/recon/mapping';
import type { ImportedLedger } from './use-recon-run';

interface Props {
  parsed: ParsedCsv;
  label: string;
  initial: ColumnMapping;
  onBack: () => void;
  onRun: (ledger: ImportedLedger) => void;
}

const PREVIEW_ROWS = 5;
const SHOWN_PROBLEMS = 200;

/** Step 2: confirm which column holds what; see the rows that cannot be used, with line numbers. */
export function MappingStep({ parsed, label, initial, onBack, onRun }: Props) {
  const f = useFormat();
  const [mapping, setMapping] = useState<ColumnMapping>(initial);
  const issues = mappingIssues(mapping, parsed.headers);
  const imported = useMemo(
    () => (issues.length === 0 ? toLedgerRows(parsed, mapping) : null),
    [parsed, mapping, issues.length],
  );
  const problems = useMemo(
    () => [...parsed.problems, ...(imported?.problems ?? [])].sort((a, b) => a.line - b.line),
    [parsed.problems, imported],
  );

  const set = (field: MappingField, header: string) => {
    const next = { ...mapping };
    if (header) next[field] = header;
    else delete next[field];
    setMapping(next);
  };

  return (
    <section className="recon-card" aria-labelledby="recon-map">
      <h2 id="recon-map">Match the columns of {label}</h2>
      <p className="muted small">
        {f.count(parsed.rows.length)} rows read · {parsed.encoding.toUpperCase()} · separator “
        {parsed.delimiter === '\t' ? 'tab' : parsed.delimiter}”. This choice is remembered for the profile.
      </p>
      <div className="recon-mapping">
        {MAPPING_FIELDS.map((field) => (
          <label key={field}>
            <span>{FIELD_LABELS[field]}</span>
            <select
              aria-label={FIELD_LABELS[field]}
              value={mapping[field] ?? ''}
              onChange={(e) => set(field, e.target.value)}
            >
              <option value="">— not in this file —</option>
              {parsed.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </label>
        ))}
      </div>
      <div className="recon-table-wrap" role="region" aria-label="First rows of the file" tabIndex={0}>
        <table className="recon-table">
          <thead>
            <tr>
              <th>Line</th>
              {parsed.headers.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {parsed.rows.slice(0, PREVIEW_ROWS).map((r) => (
              <tr key={r.line}>
                <td>{r.line}</td>
                {r.cells.map((c, i) => (
                  <td key={i}>{c}</td>
                ))}
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {issues.length > 0 && (
        <ul className="recon-error" role="alert">
          {issues.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      {problems.length > 0 && (
        <details className="recon-problems" open data-testid="recon-problems">
          <summary>
            {f.count(problems.length)} row{problems.length === 1 ? '' : 's'} cannot be used and will be listed
            as unreadable; the other rows are kept.
          </summary>
          <ul>
            {problems.slice(0, SHOWN_PROBLEMS).map((p) => (
              <li key={`${p.line}-${p.message}`}>
                Line {p.line}: {p.message}
              </li>
            ))}
            {problems.length > SHOWN_PROBLEMS && <li>… and {problems.length - SHOWN_PROBLEMS} more.</li>}
          </ul>
        </details>
      )}
      <div className="recon-actions">
        <button type="button" className="button" onClick={onBack}>
          Choose another file
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!imported || imported.rows.length === 0}
          onClick={() => imported && onRun({ label, mapping, rows: imported.rows, problems })}
        >
          Check {imported ? f.count(imported.rows.length) : 0} rows against the service
        </button>
      </div>
    </section>
  );
}
