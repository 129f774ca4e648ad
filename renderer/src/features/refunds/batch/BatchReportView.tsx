import { useMemo, useState } from 'react';
import type { BatchReport } from '../../../../../shared/batch/execution';
import { BATCH_REPORT_COLUMNS } from '../../../../../shared/batch/report';
import { downloadExport } from '../../../lib/download';
import { ExportButtons } from '../../../lib/ui/ExportButtons';
import { useFormat } from '../../preferences/use-prefs';
import { BatchRowsTable } from './BatchRowsTable';
import { TotalsList } from './totals';

type Show = 'all' | 'sent' | 'refunded' | 'not_refunded';

const REFUNDED = new Set(['accepted', 'succeeded']);

/** How the batch ended, in the report's title (a batch still running is shown by its progress). */
const ENDED_WORDS: Partial<Record<BatchReport['status']['state'], string>> = {
  finished: 'finished',
  cancelled: 'cancelled',
  rejected: 'rejected, nothing sent',
  expired: 'expired before approval, nothing sent',
};

/**
 * Step 5: the batch's report, read from main's record: every data row of the file with what the dry
 * run said, its outcome, refundTransactionNo, time and person — on screen, as CSV and as Excel (the
 * shared streaming writers, in the export worker).
 */
export function BatchReportView({ report, onNew }: { report: BatchReport; onNew: () => void }) {
  const f = useFormat();
  const s = report.status;
  const [show, setShow] = useState<Show>('all');
  const rows = useMemo(() => {
    if (show === 'all') return report.rows;
    if (show === 'sent') return report.rows.filter((r) => r.intentId !== undefined);
    if (show === 'refunded') return report.rows.filter((r) => r.outcome && REFUNDED.has(r.outcome));
    return report.rows.filter((r) => r.class === 'will_refund' && !(r.outcome && REFUNDED.has(r.outcome)));
  }, [report.rows, show]);
  const exportReport = (kind: 'csv' | 'xlsx') =>
    downloadExport(kind, {
      area: 'refund-batch-report',
      profileName: s.profileName,
      sheetName: 'Refund batch',
      columns: BATCH_REPORT_COLUMNS,
      rows: report.rows,
      zone: f.zone,
      excelDateFormat: f.excelDateFormat,
    });
  const figures: Array<[string, number, string]> = [
    ['refunded', s.refunded, 'Refunded'],
    ['refused', s.refused, 'Refused (nothing sent, or rejected)'],
    ['unknown', s.unknown, 'Outcome unknown (checked with the service, never resent)'],
    ['cancelled', s.cancelled, 'Not sent: the batch was cancelled'],
    ['already', s.alreadyDone, 'Already refunded by an earlier batch'],
    ['not-usable', s.notUsable, 'Refused by the dry run or unusable'],
  ];
  return (
    <section className="recon-card" aria-labelledby="rb-report">
      <div className="recon-head">
        <h2 id="rb-report">
          Report of batch {s.batchId} — {ENDED_WORDS[s.state] ?? 'finished'}
        </h2>
        <ExportButtons
          onExport={(kind) => void exportReport(kind)}
          csvLabel="Download CSV"
          xlsxLabel="Download Excel"
          what="Every row of the batch"
          buttonClassName="button"
          testIds={{ csv: 'batch-report-csv', xlsx: 'batch-report-xlsx' }}
        />
      </div>
      <p className="muted small">
        {s.fileName} · {s.profileName} · started {f.dateTime(s.createdAt)} by{' '}
        {s.operator || 'an unnamed operator'} · confirmed total <TotalsList totals={s.totals} />
      </p>
      {s.state === 'rejected' && s.approval?.closedBy && (
        <p data-testid="batch-report-rejected">
          Rejected by {s.approval.closedBy}
          {s.approval.closedAt ? `, ${f.dateTime(s.approval.closedAt)}` : ''}: {s.approval.closeComment}
        </p>
      )}
      <ul className="rb-counts rb-figures" data-testid="batch-report-counts">
        {figures
          .filter(([, n]) => n > 0)
          .map(([key, n, words]) => (
            <li key={key} data-figure={key}>
              <span className="num">{f.count(n)}</span> {words}
            </li>
          ))}
      </ul>
      <p className="rb-identity" data-testid="batch-report-accounting">
        {f.count(s.dataRows)} data rows = {f.count(s.toSend)} to send ({f.count(s.refunded)} refunded,{' '}
        {f.count(s.refused)} refused, {f.count(s.unknown)} unknown, {f.count(s.cancelled)} cancelled
        {s.pending > 0 ? `, ${f.count(s.pending)} pending` : ''}) + {f.count(s.alreadyDone)} already refunded
        + {f.count(s.notUsable)} refused by the dry run or unusable
      </p>
      <div className="recon-actions rb-filter">
        <label>
          Show{' '}
          <select aria-label="Show rows" value={show} onChange={(e) => setShow(e.target.value as Show)}>
            <option value="all">Every row</option>
            <option value="sent">Rows sent</option>
            <option value="refunded">Refunded</option>
            <option value="not_refunded">To refund, not refunded</option>
          </select>
        </label>
        <span className="muted small" data-testid="batch-report-shown">
          {f.count(rows.length)} {rows.length === 1 ? 'row' : 'rows'}
        </span>
      </div>
      <BatchRowsTable rows={rows} mode="report" label="Rows of the batch report" />
      <div className="recon-actions">
        <button type="button" className="button primary" onClick={onNew}>
          Refund another list
        </button>
      </div>
    </section>
  );
}
