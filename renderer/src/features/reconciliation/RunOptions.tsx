import { useRef } from 'react';
import type { DecimalSeparator } from '../../../../shared/recon/amounts';
import { DATE_ORDER_LABELS, type DateOrder } from '../../../../shared/recon/dates';
import type { FormatEvidence, LedgerFormats } from '../../../../shared/recon/ledger';
import { MAX_LOOKBACK_DAYS, MAX_TOLERANCE_DAYS, type ReconOptions } from '../../../../shared/recon/period';

interface FormatProps {
  evidence: FormatEvidence;
  chosen: Partial<LedgerFormats>;
  hasDate: boolean;
  onChange: (chosen: Partial<LedgerFormats>) => void;
}

const plural = (n: number, w: string) => `${n.toLocaleString()} ${w}${n === 1 ? '' : 's'}`;

/** What the file's values say about a format, in words. */
function decimalNote(e: FormatEvidence['decimal']): string {
  if (e.decimal === '.') return `Detected from ${plural(e.dot, 'value')} such as “${e.examples.dot}”.`;
  if (e.decimal === ',') return `Detected from ${plural(e.comma, 'value')} such as “${e.examples.comma}”.`;
  if (e.needsChoice && e.dot > 0 && e.comma > 0)
    return `The file has both “${e.examples.dot}” and “${e.examples.comma}”: choose which is right.`;
  if (e.needsChoice)
    return `“${e.examples.ambiguous}” could be read either way and nothing else in the file decides: choose.`;
  // A workbook's number cells say nothing about the separator: they are numbers either way.
  return 'Every amount is a whole number or a number cell of a workbook: either choice reads them the same.';
}

function dateNote(e: FormatEvidence['dates']): string {
  if (e.order === 'ymd') return 'Dates are written year first.';
  if (e.order === 'dmy') return `Detected from ${plural(e.dmy, 'date')} such as “${e.examples.dmy}”.`;
  if (e.order === 'mdy') return `Detected from ${plural(e.mdy, 'date')} such as “${e.examples.mdy}”.`;
  if (e.needsChoice) return `“${e.examples.ambiguous ?? e.examples.dmy}” could be read either way: choose.`;
  return 'No dates to decide from.';
}

/** The file's decimal separator and date order: detected, shown, changeable; a choice when undecided. */
export function FormatChoices({ evidence, chosen, hasDate, onChange }: FormatProps) {
  const decimal = chosen.decimal ?? evidence.decimal.decimal ?? '';
  const order = chosen.dateOrder ?? evidence.dates.order ?? '';
  const askDecimal = evidence.decimal.needsChoice && !chosen.decimal;
  const askDate = hasDate && evidence.dates.needsChoice && !chosen.dateOrder;
  return (
    <fieldset className="recon-fieldset" data-testid="recon-formats">
      <legend>How the file writes numbers{hasDate ? ' and dates' : ''}</legend>
      <label className={askDecimal ? 'ask' : undefined}>
        <span>Decimal separator</span>
        <select
          aria-label="Decimal separator"
          value={decimal}
          onChange={(e) => onChange({ ...chosen, decimal: e.target.value as DecimalSeparator })}
        >
          {decimal === '' && <option value="">— choose —</option>}
          <option value=".">Dot: 1,234.56</option>
          <option value=",">Comma: 1.234,56</option>
        </select>
        <small className={askDecimal ? 'recon-error' : 'muted'}>
          {chosen.decimal ? 'Chosen by you. ' : ''}
          {decimalNote(evidence.decimal)}
        </small>
      </label>
      {hasDate && (
        <label className={askDate ? 'ask' : undefined}>
          <span>Dates</span>
          <select
            aria-label="Date order"
            value={order}
            onChange={(e) => onChange({ ...chosen, dateOrder: e.target.value as DateOrder })}
          >
            {order === '' && <option value="">— choose —</option>}
            {(Object.keys(DATE_ORDER_LABELS) as DateOrder[]).map((o) => (
              <option key={o} value={o}>
                {DATE_ORDER_LABELS[o]}
              </option>
            ))}
          </select>
          <small className={askDate ? 'recon-error' : 'muted'}>
            {chosen.dateOrder ? 'Chosen by you. ' : ''}
            {dateNote(evidence.dates)}
          </small>
        </label>
      )}
    </fieldset>
  );
}

interface PeriodProps {
  options: ReconOptions;
  hasDate: boolean;
  localZone: string;
  onChange: (options: ReconOptions) => void;
}

/** The period (whose days), the date tolerance and the refund look-back. */
export function PeriodChoices({ options, hasDate, localZone, onChange }: PeriodProps) {
  const set = (patch: Partial<ReconOptions>) => onChange({ ...options, ...patch });
  // The period last unticked, restored when ticked again.
  const lastPeriod = useRef(options.period);
  const twoWay = options.period !== undefined;
  const num = (v: string, max: number) => Math.max(0, Math.min(max, Math.trunc(Number(v) || 0)));
  return (
    <fieldset className="recon-fieldset" data-testid="recon-period">
      <legend>What to compare</legend>
      <label className="inline">
        <input
          type="checkbox"
          checked={twoWay}
          onChange={(e) => {
            if (e.target.checked) set({ period: lastPeriod.current ?? { from: '', to: '' } });
            else {
              lastPeriod.current = options.period;
              const { period: _p, ...rest } = options;
              onChange(rest);
            }
          }}
        />
        <span>Also find what the service has that the ledger lacks, for a period</span>
      </label>
      {twoWay && options.period && (
        <div className="recon-period">
          {(
            [
              ['from', 'First day'],
              ['to', 'Last day'],
            ] as const
          ).map(([end, name]) => (
            <label key={end}>
              <span>{name}</span>
              <input
                type="date"
                aria-label={name}
                value={options.period![end]}
                onChange={(e) => set({ period: { ...options.period!, [end]: e.target.value } })}
              />
            </label>
          ))}
          <label className="recon-wide">
            <span>Whose days</span>
            <select
              aria-label="Whose days"
              value={options.days}
              onChange={(e) => set({ days: e.target.value as ReconOptions['days'], timeZone: localZone })}
            >
              <option value="service">Service days (UTC+8)</option>
              <option value="local">Local days ({localZone})</option>
            </select>
          </label>
          <label>
            <span>Refunds of payments made up to … days before</span>
            <input
              type="number"
              aria-label="Refund look-back days"
              min={0}
              max={MAX_LOOKBACK_DAYS}
              value={options.refundLookbackDays}
              onChange={(e) => set({ refundLookbackDays: num(e.target.value, MAX_LOOKBACK_DAYS) })}
            />
          </label>
        </div>
      )}
      {!twoWay && (
        <p className="muted small">
          Only the ledger’s rows are checked: payments and refunds at the service that the ledger lacks are
          not looked for.
        </p>
      )}
      {hasDate && (
        <label className="inline">
          Ledger dates may differ from the service’s payment day by up to
          <input
            type="number"
            aria-label="Date tolerance in days"
            className="days"
            min={0}
            max={MAX_TOLERANCE_DAYS}
            value={options.dateToleranceDays}
            onChange={(e) => set({ dateToleranceDays: num(e.target.value, MAX_TOLERANCE_DAYS) })}
          />
          day(s).
        </label>
      )}
    </fieldset>
  );
}
