import type { BatchExecutedRow } from '../../../../../shared/batch/execution';
import { BATCH_CLASS_LABELS } from '../../../../../shared/batch/result';
import { INTENT_STATES } from '../../../../../shared/domain/refund-intent';
import { VirtualRowsTable } from '../../../lib/ui/VirtualRowsTable';
import type { Formatters } from '../../preferences/format';
import { useFormat } from '../../preferences/use-prefs';
import { StateBadge } from '../StateBadge';
import { CLASS_TONE, paymentOf, requested, why } from './words';

const STATES = new Set<string>(INTENT_STATES);

function ClassBadge({ row }: { row: BatchExecutedRow }) {
  return (
    <span className={`rd-badge rd-badge-${CLASS_TONE[row.class]}`} data-class={row.class}>
      {BATCH_CLASS_LABELS[row.class]}
    </span>
  );
}

function Outcome({ outcome }: { outcome: string }) {
  if (STATES.has(outcome)) return <StateBadge state={outcome as Parameters<typeof StateBadge>[0]['state']} />;
  return <span>{outcome}</span>;
}

function Head({ mode }: { mode: 'dry' | 'report' }) {
  return (
    <>
      <th className="num">Line</th>
      <th>{mode === 'dry' ? 'What it will do' : 'Outcome'}</th>
      <th>Payment</th>
      {mode === 'dry' && <th>Row ref.</th>}
      {mode === 'dry' && <th className="num">Asked</th>}
      <th className="num">{mode === 'dry' ? 'To refund' : 'Amount'}</th>
      {mode === 'dry' && <th className="num">Remaining</th>}
      {mode === 'report' && <th>Refund transaction no.</th>}
      {mode === 'report' && <th>Time</th>}
      {mode === 'report' && <th>Person</th>}
      <th>Why</th>
    </>
  );
}

function Cells({ r, mode, f }: { r: BatchExecutedRow; mode: 'dry' | 'report'; f: Formatters }) {
  const money = (minor: number | undefined, ccy = r.currency) =>
    minor === undefined || !ccy ? '—' : f.money(minor, ccy);
  return (
    <>
      <td className="num">{r.line}</td>
      <td>
        {/* A row never sent says why by its dry-run class; one sent, by the refund's state. */}
        {mode === 'report' && r.outcome ? <Outcome outcome={r.outcome} /> : <ClassBadge row={r} />}
      </td>
      <td className="mono">{paymentOf(r)}</td>
      {mode === 'dry' && <td>{r.rowRef ?? ''}</td>}
      {mode === 'dry' && <td className="num">{requested(r, f)}</td>}
      <td className="num">{money(r.amountMinor)}</td>
      {mode === 'dry' && <td className="num">{money(r.remainingMinor, r.paymentCurrency ?? r.currency)}</td>}
      {mode === 'report' && <td className="mono">{r.refundTransactionNo ?? ''}</td>}
      {mode === 'report' && <td className="num">{r.at ? f.dateTimeSeconds(r.at) : ''}</td>}
      {mode === 'report' && <td>{r.operator ?? ''}</td>}
      <td className="detail">{why(r)}</td>
    </>
  );
}

/**
 * Every row of a batch file — the dry run's answer, or the report's outcome beside it — virtualised as
 * the other big tables are (VirtualRowsTable): a 50,000-row list keeps a few dozen rows in the DOM.
 */
export function BatchRowsTable({
  rows,
  mode,
  label,
}: {
  rows: readonly BatchExecutedRow[];
  mode: 'dry' | 'report';
  label: string;
}) {
  const f = useFormat();
  return (
    <VirtualRowsTable
      rows={rows}
      rowHeight={34}
      // Eight in either mode: the dry run's and the report's own columns are three each.
      columns={8}
      className={`recon-table-wrap rb-rows rb-rows-${mode}`}
      label={label}
      testId={mode === 'dry' ? 'batch-dry-rows' : 'batch-report-rows'}
      head={<Head mode={mode} />}
      cells={(r) => <Cells r={r} mode={mode} f={f} />}
      rowAttributes={(r) => ({ 'data-line': r.line })}
    />
  );
}
