import { useFormat } from '../preferences/use-prefs';
import { useEffect, useMemo, useState } from 'react';
import { systemZoneName } from '../../../../shared/domain/zones';
import { formatQuestions, type LedgerFormats } from '../../../../shared/recon/ledger';
import {
  FIELD_LABELS,
  MAPPING_FIELDS,
  mappingIssues,
  omittedColumns,
  type ColumnMapping,
  type MappingField,
} from '../../../../shared/recon/mapping';
import {
  DEFAULT_DATE_TOLERANCE_DAYS,
  DEFAULT_REFUND_LOOKBACK_DAYS,
  optionIssues,
  type ReconOptions,
} from '../../../../shared/recon/period';
import type { MapAnswer } from './ledger-protocol';
import type { LedgerSession } from './parse-client';
import { FormatChoices, PeriodChoices } from './RunOptions';
import { CarryForwardChoice } from './CarryForwardChoice';
import { FileMapping } from './FileMapping';
import { fileFormatWords, withColumn } from './file-mapping';
import { KeyNotes, UnusableList } from './UnusableList';
import type { ImportedLedger } from './use-recon-run';

interface Props {
  ledger: LedgerSession;
  label: string;
  profileId: string;
  initial: ColumnMapping;
  /** The initial columns are the ones remembered for the profile (not guessed from this file). */
  remembered?: boolean;
  /** Reads another sheet of the workbook (the step starts again with it). */
  onSheet?: (name: string) => void;
  onBack: () => void;
  onRun: (ledger: ImportedLedger) => void;
}

/** An answer of the ledger worker and the choices it was asked for (compared by identity). */
interface Answered {
  mapping: ColumnMapping;
  chosen: Partial<LedgerFormats>;
  answer: MapAnswer;
}

/**
 * Step 2: confirm which column holds what, how the file writes numbers and dates (detected from its
 * values, changeable, asked when undecided) and what to compare (period, whose days, tolerance). Every
 * data row is accounted for before the run: read, or listed with its line and reason.
 *
 * The file is read in its worker for every choice (a 100k-row ledger is a long task): the page shows
 * an answer only for the choices on screen — the format evidence once it is for this mapping, the
 * figures and period once they are for this mapping and these formats — and "reading…" in between.
 */
export function MappingStep({
  ledger,
  label,
  profileId,
  initial,
  remembered = false,
  onSheet,
  onBack,
  onRun,
}: Props) {
  const localZone = useMemo(() => systemZoneName(), []);
  const f = useFormat();
  const file = ledger.file ?? {
    kind: 'csv',
    headers: [],
    encoding: 'utf-8',
    delimiter: ',',
    dataRows: 0,
    preview: [],
  };
  const [mapping, setMapping] = useState<ColumnMapping>(initial);
  const [chosen, setChosen] = useState<Partial<LedgerFormats>>({});
  const [carryFrom, setCarryFrom] = useState('');
  const [answered, setAnswered] = useState<Answered | null>(null);
  const [failed, setFailed] = useState<{ mapping: ColumnMapping; chosen: object; message: string } | null>(
    null,
  );
  const [handing, setHanding] = useState(false);
  const [options, setOptions] = useState<ReconOptions | null>(null);
  const issues = mappingIssues(mapping, file.headers);
  // Columns that look like a field the mapping leaves out: a remembered choice is never silent.
  const omitted = omittedColumns(mapping, file.headers);
  const fromMemory = remembered && mapping === initial;

  useEffect(() => {
    let live = true;
    ledger.map(mapping, chosen).then(
      (answer) => {
        if (live && answer) setAnswered({ mapping, chosen, answer });
      },
      (e: unknown) => {
        if (live) setFailed({ mapping, chosen, message: e instanceof Error ? e.message : String(e) });
      },
    );
    return () => {
      live = false;
    };
  }, [ledger, mapping, chosen]);

  // Never an answer for other choices than those on screen.
  const evidence = answered?.mapping === mapping ? answered.answer.evidence : null;
  const answer = evidence && answered?.chosen === chosen ? answered.answer : null;
  const failure = failed?.mapping === mapping && failed.chosen === chosen ? failed.message : null;
  const questions = evidence ? formatQuestions(evidence, chosen) : [];
  const current: ReconOptions | null =
    options ??
    (answer && {
      period: answer.period,
      days: 'service',
      timeZone: localZone,
      dateToleranceDays: DEFAULT_DATE_TOLERANCE_DAYS,
      refundLookbackDays: DEFAULT_REFUND_LOOKBACK_DAYS,
    });
  const optionProblems = current ? optionIssues(current) : [];
  const read = answer?.read ?? 0;
  const canRun =
    answer !== null &&
    answer.readable &&
    current !== null &&
    !handing &&
    questions.length === 0 &&
    optionProblems.length === 0 &&
    read > 0;

  const set = (field: MappingField, header: string) => {
    setMapping(withColumn(mapping, field, header));
    setChosen({});
  };

  async function run() {
    if (!answer || !current || !evidence || !canRun) return;
    setHanding(true);
    try {
      // The rows come over in chunks only now: the page never rebuilds 100k rows in one task.
      const { rows, unusable, transactionNos } = await ledger.rows(mapping, chosen);
      onRun({
        label,
        profileId,
        mapping,
        options: current,
        ...(carryFrom ? { carryForwardOf: carryFrom } : {}),
        rows,
        unusable,
        transactionNos,
        file: {
          name: label,
          encoding: file.encoding,
          delimiter: file.delimiter,
          ...(file.kind === 'xlsx' && file.sheet !== undefined
            ? { kind: 'xlsx' as const, sheet: file.sheet }
            : {}),
          dataRows: answer.dataRows,
          decimal: answer.formats.decimal,
          decimalSource: chosen.decimal ? 'chosen' : evidence.decimal.decimal ? 'detected' : 'default',
          dateOrder: answer.formats.dateOrder,
          dateOrderSource: chosen.dateOrder ? 'chosen' : evidence.dates.order ? 'detected' : 'default',
        },
      });
    } catch (e) {
      setFailed({ mapping, chosen, message: e instanceof Error ? e.message : String(e) });
    } finally {
      setHanding(false);
    }
  }

  return (
    <FileMapping
      headingId="recon-map"
      label={label}
      file={file}
      facts={
        <p className="muted small" data-testid="recon-row-accounting" aria-busy={answer === null}>
          {f.count(file.dataRows)} data rows:{' '}
          {answer
            ? `${f.count(read)} read · ${f.count(answer.unusableCount)} cannot be used`
            : 'reading them with these choices…'}{' '}
          · {fileFormatWords(file)}. The columns are remembered for the profile.
        </p>
      }
      onSheet={onSheet}
      sheetTestId="recon-sheet"
      fields={MAPPING_FIELDS}
      labels={FIELD_LABELS}
      mapping={mapping}
      onColumn={set}
    >
      {omitted.length > 0 && (
        <div className="recon-notice" role="status" data-testid="recon-omitted">
          {omitted.map(({ field, header }) => (
            <p key={field}>
              {fromMemory ? 'The columns remembered from an earlier file leave out' : 'Not used:'} “{header}”,
              which looks like the {FIELD_LABELS[field].replace(/ \(.*\)$/, '').toLowerCase()} column
              {fromMemory ? '' : ' (this choice is remembered for the profile’s next file)'}.{' '}
              <button type="button" className="button small" onClick={() => set(field, header)}>
                Use “{header}”
              </button>
            </p>
          ))}
        </div>
      )}
      {issues.length > 0 && (
        <ul className="recon-error" role="alert">
          {issues.map((i) => (
            <li key={i}>{i}</li>
          ))}
        </ul>
      )}
      {issues.length === 0 && evidence && (
        <div className="recon-choices">
          <FormatChoices
            evidence={evidence}
            chosen={chosen}
            hasDate={Boolean(mapping.date)}
            onChange={setChosen}
          />
          {current && (
            <PeriodChoices
              options={current}
              hasDate={Boolean(mapping.date)}
              localZone={localZone}
              onChange={setOptions}
            />
          )}
          {current && (
            <CarryForwardChoice
              profileId={profileId}
              options={current}
              value={carryFrom}
              onChange={setCarryFrom}
            />
          )}
        </div>
      )}
      {[...questions, ...optionProblems].length > 0 && (
        <ul className="recon-error" role="alert" data-testid="recon-questions">
          {[...questions, ...optionProblems].map((q) => (
            <li key={q}>{q}</li>
          ))}
        </ul>
      )}
      {failure && (
        <p role="alert" className="recon-error">
          {label} could not be read with these choices: {failure} Choose the file again.
        </p>
      )}
      {answer?.readable && read === 0 && (
        <p role="alert" className="recon-error">
          None of the {f.count(file.dataRows)} rows can be read with these columns and formats: see the
          reasons below, fix the file or the choices, and try again.
        </p>
      )}
      {answer && <KeyNotes groups={answer.notes} />}
      {answer && <UnusableList groups={answer.unusableGroups} total={answer.unusableCount} />}
      <div className="recon-actions">
        <button type="button" className="button" onClick={onBack}>
          Choose another file
        </button>
        <button
          type="button"
          className="button primary"
          disabled={!canRun}
          aria-busy={handing}
          onClick={() => void run()}
        >
          Check {f.count(read)} rows against the service
        </button>
        {handing && (
          <span className="muted small" role="status" data-testid="recon-handing-over">
            Preparing {f.count(read)} rows for the run…
          </span>
        )}
      </div>
    </FileMapping>
  );
}
