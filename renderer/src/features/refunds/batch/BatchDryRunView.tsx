import { useMemo, useState } from 'react';
import { BATCH_REPORT_COLUMNS } from '../../../../../shared/batch/report';
import {
  BATCH_CLASS_LABELS,
  BATCH_ROW_CLASSES,
  type BatchRowClass,
} from '../../../../../shared/batch/result';
import type { Output } from '../../../../../shared/ipc/contract';
import { downloadExport } from '../../../lib/download';
import { ExportButtons } from '../../../lib/ui/ExportButtons';
import { useFormat } from '../../preferences/use-prefs';
import { MoneyModeBadge } from '../../profiles/MoneyModeBadge';
import { BatchRowsTable } from './BatchRowsTable';
import { TotalsList } from './totals';
import { CLASS_TONE } from './words';

export type DryRun = Output<'refunds.batchDryRun'>;

/**
 * Step 3: what every row of the file will do, decided in main against a fresh query of each payment
 * and every refund of it in the database — before anything moves. Every data row is counted (read +
 * cannot be used = data rows), the totals that will move are per currency, and the rows can be
 * filtered by what they will do. Then one confirmation for the whole batch.
 */
export function BatchDryRunView({
  dry,
  onConfirm,
  onAgain,
  onBack,
  busy,
}: {
  dry: DryRun;
  onConfirm: () => void;
  onAgain: () => void;
  onBack: () => void;
  busy: boolean;
}) {
  const f = useFormat();
  const [show, setShow] = useState<'all' | BatchRowClass>('all');
  const rows = useMemo(
    () => (show === 'all' ? dry.rows : dry.rows.filter((r) => r.class === show)),
    [dry.rows, show],
  );
  const present = BATCH_ROW_CLASSES.filter((c) => (dry.counts[c] ?? 0) > 0);
  const toRefund = dry.counts.will_refund ?? 0;
  const approval = dry.counts.needs_approval ?? 0;
  const exportRows = (kind: 'csv' | 'xlsx') =>
    downloadExport(kind, {
      area: 'refund-batch-dry-run',
      profileName: dry.profileName,
      sheetName: 'Dry run',
      columns: BATCH_REPORT_COLUMNS,
      rows,
      zone: f.zone,
      excelDateFormat: f.excelDateFormat,
    });
  return (
    <section className="recon-card" aria-labelledby="rb-dry">
      <div className="recon-head">
        <h2 id="rb-dry">Dry run of {dry.file.name} — nothing has been sent</h2>
        <span>
          {dry.profileName} <MoneyModeBadge mode={dry.moneyMode} testId="batch-money-mode" />
        </span>
      </div>
      <p className="muted small">
        Checked {f.dateTimeSeconds(dry.checkedAt)} against the payment service ({f.count(dry.queried)}{' '}
        {dry.queried === 1 ? 'payment' : 'payments'} queried
        {dry.reused > 0 ? `, ${f.count(dry.reused)} answers of the last minute reused` : ''}) and this desk’s
        refunds
        {dry.file.format === 'xlsx' ? ` · sheet “${dry.file.sheet ?? ''}”` : ''}.
      </p>
      <p className="rb-identity" data-testid="batch-row-accounting">
        {f.count(dry.dataRows)} data rows in the file = {f.count(dry.rowsRead)} read +{' '}
        {f.count(dry.unusableRows)} that cannot be used
      </p>
      {toRefund === 0 && (
        <p className="rd-alert" role="status" data-testid="batch-nothing-to-do">
          Nothing left to do: no row of this file will be refunded
          {dry.counts.already_refunded === dry.dataRows ? ' — every row was already refunded by a batch' : ''}
          .
        </p>
      )}
      <div className="rb-summary">
        <div>
          <h3>Will refund</h3>
          <TotalsList totals={dry.totals} testId="batch-totals" block />
          {approval > 0 && (
            <>
              <h3>Once a second person approves ({f.count(approval)} rows)</h3>
              <TotalsList totals={dry.approvalTotals} testId="batch-approval-totals" block />
            </>
          )}
        </div>
        <ul className="rb-counts" data-testid="batch-counts" aria-label="Rows by what they will do">
          {present.map((c) => (
            <li key={c} data-class={c}>
              <button
                type="button"
                className={`rb-count rb-count-${CLASS_TONE[c]}${show === c ? ' on' : ''}`}
                aria-pressed={show === c}
                onClick={() => setShow(show === c ? 'all' : c)}
              >
                <span className="num">{f.count(dry.counts[c] ?? 0)}</span> {BATCH_CLASS_LABELS[c]}
              </button>
            </li>
          ))}
        </ul>
      </div>
      <div className="recon-actions rb-filter">
        <label>
          Show{' '}
          <select
            aria-label="Show rows"
            value={show}
            onChange={(e) => setShow(e.target.value as typeof show)}
          >
            <option value="all">Every row ({f.count(dry.rows.length)})</option>
            {present.map((c) => (
              <option key={c} value={c}>
                {BATCH_CLASS_LABELS[c]} ({f.count(dry.counts[c] ?? 0)})
              </option>
            ))}
          </select>
        </label>
        <span className="muted small" data-testid="batch-rows-shown">
          {f.count(rows.length)} {rows.length === 1 ? 'row' : 'rows'}
        </span>
        <ExportButtons
          onExport={(kind) => void exportRows(kind)}
          disabled={rows.length === 0}
          what="The dry run's rows shown"
          buttonClassName="button"
          testIds={{ csv: 'batch-dry-csv', xlsx: 'batch-dry-xlsx' }}
        />
      </div>
      <BatchRowsTable rows={rows} mode="dry" label="Rows of the dry run" />
      <div className="recon-actions">
        <button type="button" className="button" onClick={onBack} disabled={busy}>
          Choose another file
        </button>
        <button type="button" className="button" onClick={onAgain} disabled={busy}>
          Check again
        </button>
        <button
          type="button"
          className="button primary"
          disabled={toRefund === 0 || busy}
          onClick={onConfirm}
        >
          Refund {f.count(toRefund)} {toRefund === 1 ? 'row' : 'rows'}…
        </button>
      </div>
    </section>
  );
}
