import type { ReactNode } from 'react';
import type { LedgerFileSummary } from './ledger-protocol';

interface Props<F extends string> {
  /** The heading's id (the section is labelled by it). */
  headingId: string;
  label: string;
  file: LedgerFileSummary;
  /** What the step says about the file under the heading (rows, format, what is remembered). */
  facts: ReactNode;
  /** Reads another sheet of a workbook with several (the step starts again with it). */
  onSheet?: ((name: string) => void) | undefined;
  sheetTestId: string;
  /** While set, the sheet cannot be changed (a check of this one is running). */
  busy?: boolean;
  fields: readonly F[];
  labels: Readonly<Record<F, string>>;
  mapping: Partial<Record<F, string>>;
  /** A field's column chosen ('' for "not in this file"). */
  onColumn: (field: F, header: string) => void;
  /** Choices of the step's own beside the columns (a batch's decimal separator). */
  moreChoices?: ReactNode;
  previewClassName?: string;
  /** The step's own part below the first rows: notices, questions, its actions. */
  children: ReactNode;
}

/**
 * The part every "match the columns" step shares (a reconciliation's ledger, a refund batch): the file's
 * facts, the sheet of a workbook with several, one choice of column per field, and the file's first rows
 * so the person sees what each column holds. What is done with the choices is the step's own.
 */
export function FileMapping<F extends string>(p: Props<F>) {
  const { file } = p;
  return (
    <section className="recon-card" aria-labelledby={p.headingId}>
      <h2 id={p.headingId}>Match the columns of {p.label}</h2>
      {p.facts}
      {file.sheets && file.sheets.length > 1 && (
        <label className="recon-sheet">
          <span>Sheet</span>
          <select
            aria-label="Sheet"
            value={file.sheet}
            onChange={(e) => p.onSheet?.(e.target.value)}
            data-testid={p.sheetTestId}
            disabled={p.busy}
          >
            {file.sheets.map((name) => (
              <option key={name} value={name}>
                {name}
              </option>
            ))}
          </select>
        </label>
      )}
      <div className="recon-mapping">
        {p.fields.map((field) => (
          <label key={field}>
            <span>{p.labels[field]}</span>
            <select
              aria-label={p.labels[field]}
              value={p.mapping[field] ?? ''}
              onChange={(e) => p.onColumn(field, e.target.value)}
            >
              <option value="">— not in this file —</option>
              {file.headers.map((h) => (
                <option key={h} value={h}>
                  {h}
                </option>
              ))}
            </select>
          </label>
        ))}
        {p.moreChoices}
      </div>
      <div
        className={p.previewClassName ? `recon-table-wrap ${p.previewClassName}` : 'recon-table-wrap'}
        role="region"
        aria-label="First rows of the file"
        tabIndex={0}
      >
        <table className="recon-table">
          <thead>
            <tr>
              <th>Line</th>
              {file.headers.map((h) => (
                <th key={h}>{h}</th>
              ))}
            </tr>
          </thead>
          <tbody>
            {file.preview.map((r) => (
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
      {p.children}
    </section>
  );
}
