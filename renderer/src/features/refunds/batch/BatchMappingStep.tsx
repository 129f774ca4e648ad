import { useState } from 'react';
import {
  BATCH_FIELD_LABELS,
  BATCH_FIELDS,
  batchMappingIssues,
  type BatchField,
  type BatchMapping,
} from '../../../../../shared/batch/mapping';
import { useFormat } from '../../preferences/use-prefs';
import { FileMapping } from '../../reconciliation/FileMapping';
import { fileFormatWords, withColumn } from '../../reconciliation/file-mapping';
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
  const set = (field: BatchField, header: string) => setMapping(withColumn(mapping, field, header));
  return (
    <FileMapping
      headingId="rb-map"
      label={label}
      file={file}
      facts={
        <p className="muted small" data-testid="batch-file-facts">
          {f.count(file.dataRows)} data rows · {fileFormatWords(file)}.{' '}
          {props.remembered
            ? 'The columns remembered for the profile fit this file.'
            : 'The columns are remembered for the profile.'}
        </p>
      }
      onSheet={props.onSheet}
      sheetTestId="batch-sheet"
      busy={props.busy}
      fields={BATCH_FIELDS}
      labels={BATCH_FIELD_LABELS}
      mapping={mapping}
      onColumn={set}
      moreChoices={
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
      }
      previewClassName="rb-preview"
    >
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
    </FileMapping>
  );
}
