import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import type { BatchExecutedRow } from '../../../../../shared/batch/execution';
import { BATCH_CLASS_LABELS } from '../../../../../shared/batch/result';
import { INTENT_STATES } from '../../../../../shared/domain/refund-intent';
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

/**
 * Every row of a batch file — the dry run's answer, or the report's outcome beside it — virtualised as
 * the other big tables are (ReconRowsTable): a 50,000-row list keeps a few dozen rows in the DOM, and
 * spacer rows keep it a real table (header, columns) rather than a grid of divs.
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
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 34,
    overscan: 12,
  });
  const visible = virtualizer.getVirtualItems();
  const top = visible[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (visible.at(-1)?.end ?? 0);
  const columns = 8;
  return (
    <div
      className={`recon-table-wrap rb-rows rb-rows-${mode}`}
      ref={scrollRef}
      role="region"
      aria-label={label}
      tabIndex={0}
    >
      <table
        className="recon-table"
        data-testid={mode === 'dry' ? 'batch-dry-rows' : 'batch-report-rows'}
        aria-rowcount={rows.length + 1}
      >
        <thead>
          <tr>
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
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: top }}>
              <td colSpan={columns} />
            </tr>
          )}
          {visible.map((v) => {
            const r = rows[v.index]!;
            const money = (minor: number | undefined, ccy = r.currency) =>
              minor === undefined || !ccy ? '—' : f.money(minor, ccy);
            return (
              <tr
                key={v.index}
                ref={virtualizer.measureElement}
                data-index={v.index}
                aria-rowindex={v.index + 2}
                data-line={r.line}
              >
                <td className="num">{r.line}</td>
                <td>
                  {/* A row never sent says why by its dry-run class; one sent, by the refund's state. */}
                  {mode === 'report' && r.outcome ? <Outcome outcome={r.outcome} /> : <ClassBadge row={r} />}
                </td>
                <td className="mono">{paymentOf(r)}</td>
                {mode === 'dry' && <td>{r.rowRef ?? ''}</td>}
                {mode === 'dry' && <td className="num">{requested(r, f)}</td>}
                <td className="num">{money(r.amountMinor)}</td>
                {mode === 'dry' && (
                  <td className="num">{money(r.remainingMinor, r.paymentCurrency ?? r.currency)}</td>
                )}
                {mode === 'report' && <td className="mono">{r.refundTransactionNo ?? ''}</td>}
                {mode === 'report' && <td className="num">{r.at ? f.dateTimeSeconds(r.at) : ''}</td>}
                {mode === 'report' && <td>{r.operator ?? ''}</td>}
                <td className="detail">{why(r)}</td>
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: bottom }}>
              <td colSpan={columns} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
