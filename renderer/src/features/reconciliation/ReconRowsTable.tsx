import { useVirtualizer } from '@tanstack/react-virtual';
import { useRef } from 'react';
import { OUTCOME_LABELS, type ReconItem } from '../../../../shared/recon/match';
import { transactionStatusLabel } from '../../../../shared/domain/labels';
import { useFormat } from '../preferences/use-prefs';

const COLUMNS = 7;

/**
 * Every filtered ledger row, virtualised: a 100k-row month-end keeps a few dozen rows in the DOM.
 * Spacer rows above and below keep it a real table (header, columns, keyboard) rather than a div grid.
 */
export function ReconRowsTable({
  rows,
  selected,
  onSelect,
}: {
  rows: readonly ReconItem[];
  selected?: ReconItem;
  onSelect: (row: ReconItem) => void;
}) {
  const f = useFormat();
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => 33,
    overscan: 12,
  });
  const visible = virtualizer.getVirtualItems();
  const top = visible[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (visible.at(-1)?.end ?? 0);
  return (
    <div className="recon-table-wrap" ref={scrollRef} role="region" aria-label="Ledger rows" tabIndex={0}>
      <table className="recon-table" data-testid="recon-items" aria-rowcount={rows.length + 1}>
        <thead>
          <tr>
            <th className="num">Line</th>
            <th>Outcome</th>
            <th>Transaction no.</th>
            <th className="num">Ledger</th>
            <th className="num">Service</th>
            <th>Service status</th>
            <th>Detail</th>
          </tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: top }}>
              <td colSpan={COLUMNS} />
            </tr>
          )}
          {visible.map((v) => {
            const i = rows[v.index]!;
            const id =
              i.ledger?.transactionNo ??
              i.unusable?.fields?.transactionNo ??
              i.service?.transactionNo ??
              i.ledger?.reference ??
              i.unusable?.fields?.reference;
            const amount = i.ledger
              ? f.money(i.ledger.amountMinor, i.ledger.currency)
              : (i.unusable?.fields?.amount ?? '—');
            return (
              <tr
                key={v.index}
                ref={virtualizer.measureElement}
                data-index={v.index}
                aria-rowindex={v.index + 2}
                className={selected === i ? 'selected' : undefined}
                onClick={() => onSelect(i)}
                tabIndex={0}
                onKeyDown={(e) => e.key === 'Enter' && onSelect(i)}
              >
                <td className="num">{i.line ?? '—'}</td>
                <td>
                  <span className={`outcome outcome-${i.outcome}`}>{OUTCOME_LABELS[i.outcome]}</span>
                </td>
                <td className="mono">{id ?? '—'}</td>
                <td className="num">{amount}</td>
                <td className="num">
                  {i.refund
                    ? `refund ${f.money(i.refund.amountMinor, i.refund.currency)}`
                    : i.service
                      ? f.money(i.service.amountMinor, i.service.currency)
                      : '—'}
                </td>
                <td title={i.service ? `Service status: ${i.service.status}` : undefined}>
                  {i.service ? transactionStatusLabel(i.service.status) : '—'}
                </td>
                <td className="detail">
                  {i.ledger?.keyNote ? (
                    <span className="muted">
                      Matched by reference: the transaction number cannot be used.{' '}
                    </span>
                  ) : null}
                  {i.detail}
                </td>
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: bottom }}>
              <td colSpan={COLUMNS} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
