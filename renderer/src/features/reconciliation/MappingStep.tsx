import { useFormat } from '../preferences/use-prefs';
import { useMemo, useState } from 'react';
import type { ParsedCsv } from '../../../../shared/csv/parser';
import { systemZoneName } from '../../../../shared/domain/zones';
import {
  detectFormats,
  formatQuestions,
  formatsFrom,
  toLedgerRows,
  type LedgerFormats,
  type LedgerRow,
} from '../../../../shared/recon/ledger';
import {
  FIELD_LABELS,
  MAPPING_FIELDS,
  mappingIssues,
  type ColumnMapping,
  type MappingField,
} from '../../../../shared/recon/mapping';
import {
  DEFAULT_DATE_TOLERANCE_DAYS,
  DEFAULT_REFUND_LOOKBACK_DAYS,
  optionIssues,
  type ReconOptions,
} from '../../../../shared/recon/period';
import { FormatChoices, PeriodChoices } from './RunOptions';
import { UnusableList } from './UnusableList';
import type { ImportedLedger } from './use-recon-run';

interface Props {
  parsed: ParsedCsv;
  label: string;
  profileId: string;
  initial: ColumnMapping;
  onBack: () => void;
  onRun: (ledger: ImportedLedger) => void;
}

const PREVIEW_ROWS = 5;

/** The period the ledger's own dates span, else the previous calendar month. */
function defaultPeriod(rows: readonly Pick<LedgerRow, 'day'>[]): { from: string; to: string } {
  let from: string | undefined;
  let to: string | undefined;
  for (const { day } of rows) {
    if (!day) continue;
    if (from === undefined || day < from) from = day;
    if (to === undefined || day > to) to = day;
  }
  if (from !== undefined && to !== undefined) return { from, to };
  const now = new Date();
  const first = new Date(now.getFullYear(), now.getMonth() - 1, 1);
  const last = new Date(now.getFullYear(), now.getMonth(), 0);
  const iso = (d: Date) =>
    `${d.getFullYear()}-${String(d.getMonth() + 1).padStart(2, '0')}-${String(d.getDate()).padStart(2, '0')}`;
  return { from: iso(first), to: iso(last) };
}

/**
 * Step 2: confirm which column holds what, how the file writes numbers and dates (detected from its
 * values, changeable, asked when undecided) and what to compare (period, whose days, tolerance). Every
 * data row is accounted for before the run: read, or listed with its line and reason.
 */
export function MappingStep({ parsed, label, profileId, initial, onBack, onRun }: Props) {
  const localZone = useMemo(() => systemZoneName(), []);
  const f = useFormat();
  const [mapping, setMapping] = useState<ColumnMapping>(initial);
  const [chosen, setChosen] = useState<Partial<LedgerFormats>>({});
  const issues = mappingIssues(mapping, parsed.headers);
  const evidence = useMemo(() => detectFormats(parsed, mapping), [parsed, mapping]);
  const questions = formatQuestions(evidence, chosen);
  const formats = formatsFrom(evidence, chosen);
  const imported = useMemo(
    () => (issues.length === 0 ? toLedgerRows(parsed, mapping, formats) : null),
    // eslint-disable-next-line react-hooks/exhaustive-deps -- formats is derived from these
    [parsed, mapping, issues.length, formats.decimal, formats.dateOrder],
  );
  const [options, setOptions] = useState<ReconOptions | null>(null);
  // Once per mapping, not on every render: a 100k-row ledger's days are a 100k-step walk.
  const ledgerPeriod = useMemo(() => defaultPeriod(imported?.rows ?? []), [imported]);
  const current: ReconOptions = options ?? {
    period: ledgerPeriod,
    days: 'service',
    timeZone: localZone,
    dateToleranceDays: DEFAULT_DATE_TOLERANCE_DAYS,
    refundLookbackDays: DEFAULT_REFUND_LOOKBACK_DAYS,
  };
  const optionProblems = optionIssues(current);
  const read = imported?.rows.length ?? 0;
  const unusable = imported?.unusable ?? parsed.problems.map((p) => ({ line: p.line, reason: p.message }));
  const canRun = imported !== null && questions.length === 0 && optionProblems.length === 0 && read > 0;

  const set = (field: MappingField, header: string) => {
    const next = { ...mapping };
    if (header) next[field] = header;
    else delete next[field];
    setMapping(next);
    setChosen({});
  };

  function run() {
    if (!imported || !canRun) return;
    onRun({
      label,
      profileId,
      mapping,
      options: current,
      rows: imported.rows,
      unusable: imported.unusable,
      file: {
        name: label,
        encoding: parsed.encoding,
        delimiter: parsed.delimiter,
        dataRows: imported.dataRows,
        decimal: formats.decimal,
        decimalSource: chosen.decimal ? 'chosen' : evidence.decimal.decimal ? 'detected' : 'default',
        dateOrder: formats.dateOrder,
        dateOrderSource: chosen.dateOrder ? 'chosen' : evidence.dates.order ? 'detected' : 'default',
      },
    });
  }

  return (
    <section className="recon-card" aria-labelledby="recon-map">
      <h2 id="recon-map">Match the columns of {label}</h2>
      <p className="muted small" data-testid="recon-row-accounting">
        {f.count(parsed.dataRows)} data rows: {f.count(read)} read · {f.count(unusable.length)} cannot be used
        · {parsed.encoding.toUpperCase()} · separator “{parsed.delimiter === '\t' ? 'tab' : parsed.delimiter}
        ”. The columns are remembered for the profile.
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
      {issues.length === 0 && (
        <div className="recon-choices">
          <FormatChoices
            evidence={evidence}
            chosen={chosen}
            hasDate={Boolean(mapping.date)}
            onChange={setChosen}
          />
          <PeriodChoices
            options={current}
            hasDate={Boolean(mapping.date)}
            localZone={localZone}
            onChange={setOptions}
          />
        </div>
      )}
      {[...questions, ...optionProblems].length > 0 && (
        <ul className="recon-error" role="alert" data-testid="recon-questions">
          {[...questions, ...optionProblems].map((q) => (
            <li key={q}>{q}</li>
          ))}
        </ul>
      )}
      {imported && read === 0 && (
        <p role="alert" className="recon-error">
          None of the {f.count(parsed.dataRows)} rows can be read with these columns and formats: see the
          reasons below, fix the file or the choices, and try again.
        </p>
      )}
      <UnusableList rows={unusable} />
      <div className="recon-actions">
        <button type="button" className="button" onClick={onBack}>
          Choose another file
        </button>
        <button type="button" className="button primary" disabled={!canRun} onClick={run}>
          Check {f.count(read)} rows against the service
        </button>
      </div>
    </section>
  );
}
