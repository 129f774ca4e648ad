import { useState } from 'react';
import {
  BATCH_FIELD_LABELS,
  BATCH_FIELDS,
  batchMappingIssues,
  type BatchField,
  type BatchMapping,
} from '../../../../../shared/batch/mapping';
import { useFormat } from '../../preferences/use-prefs';
import type { LedgerFileSummary } from '../../reconciliation/ledger-protocol';

export type DecimalChoice = '' | '.' | ',';

interface Props {
  label: string;
  file: LedgerFileSummary;
  initial: BatchMapping;
  /** The initial columns are the ones remembered for the profile. */
  remembered: boolean;
  busy: boolean;
  /** Main's words when the dry run refused the file with these choices. */
  error: string | null;
  onSheet: (name: string) => void;
  onBack: () => void;
  onDryRun: (mapping: BatchMapping, decimal: DecimalChoice) => void;
}

/**
 * Step 2: which column holds what (guessed from the headers, or remembered for the profile), the sheet
 * of a workbook with several, and the decimal separator when the file does not decide it. The first
 * rows are shown so the person sees what each column holds. The dry run itself is main's.
 */
export function BatchMappingStep(props: Props) {
  const { file, label } = props;
  const f = useFormat();
  const [mapping, setMapping] = useState<BatchMapping>(props.initial);
  const [decimal, setDecimal] = useState<DecimalChoice>('');
  const issues = batchMappingIssues(mapping, file.headers);
  const set = (field: BatchField, header: string) => {
    const next = { ...mapping };
    if (header) next[field] = header;
    else delete next[field];
    setMapping(next);
  };
  return (
    <section className="recon-card" aria-labelledby="rb-map">
      <h2 id="rb-map">Match the columns of {label}</h2>
      <p className="muted small" data-testid="batch-file-facts">
        {f.count(file.dataRows)} data rows ·{' '}
        {file.kind === 'xlsx'
          ? `Excel workbook, sheet “${file.sheet ?? ''}”`
          : `${file.encoding.toUpperCase()} · separator “${file.delimiter === '\t' ? 'tab' : file.delimiter}”`}
        .{' '}
        {props.remembered
          ? 'The columns remembered for the profile fit this file.'
          : 'The columns are remembered for the profile.'}
      </p>
      {file.sheets && file.sheets.length > 1 && (
        <label className="recon-sheet">
          <span>Sheet</span>{' '}
          <select
            aria-label="Sheet"
            value={file.sheet}
            onChange={(e) => props.onSheet(e.target.value)}
            data-testid="batch-sheet"
            disabled={props.busy}
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
        {BATCH_FIELDS.map((field) => (
          <label key={field}>
            <span>{BATCH_FIELD_LABELS[field]}</span>
            <select
              aria-label={BATCH_FIELD_LABELS[field]}
              value={mapping[field] ?? ''}
              onChange={(e) => set(field, e.target.value)}
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
        <label>
          <span>Decimal separator</span>
          <select
            aria-label="Decimal separator"
            value={decimal}
            onChange={(e) => setDecimal(e.target.value as DecimalChoice)}
          >
            <option value="">Detect from the amounts</option>
            <option value=".">Point (1,234.50)</option>
            <option value=",">Comma (1.234,50)</option>
          </select>
        </label>
      </div>
      <div
        className="recon-table-wrap rb-preview"
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
      {issues.length > 0 && (
        <ul className="recon-error" role="alert" data-testid="batch-mapping-issues">
          {issues.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      {props.error && (
        <p role="alert" className="recon-error" data-testid="batch-dry-run-error">
          {props.error}
        </p>
      )}
      <div className="recon-actions">
        <button type="button" className="button" onClick={props.onBack} disabled={props.busy}>
          Choose another file
        </button>
        <button
          type="button"
          className="button primary"
          disabled={issues.length > 0 || props.busy}
          aria-busy={props.busy}
          onClick={() => props.onDryRun(mapping, decimal)}
        >
          Dry run: check {f.count(file.dataRows)} rows
        </button>
        {props.busy && (
          <span className="muted small" role="status">
            Checking every row against the service and this desk’s refunds — nothing is sent…
          </span>
        )}
      </div>
    </section>
  );
}
