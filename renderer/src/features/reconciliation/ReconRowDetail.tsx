import { useContext, useEffect, useRef } from 'react';
import { transactionStatusLabel, wasPaid } from '../../../../shared/domain/labels';
import { OUTCOME_LABELS, type ReconItem } from '../../../../shared/recon/match';
import { useFormat } from '../preferences/use-prefs';
import { RefundDialogContext } from '../refunds/dialog-context';

/** One ledger row opened: what the ledger says, what the service says, and Refund… when it applies. */
export function ReconRowDetail({ item, onClose }: { item: ReconItem; onClose(): void }) {
  const f = useFormat();
  const refundDialog = useContext(RefundDialogContext);
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => heading.current?.focus(), [item.line]);
  const s = item.service;
  return (
    <aside
      className="recon-card recon-detail"
      aria-labelledby="recon-detail-title"
      data-testid="recon-detail"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <div className="recon-head">
        <h2 id="recon-detail-title" ref={heading} tabIndex={-1}>
          Line {item.line}: {OUTCOME_LABELS[item.outcome]}
        </h2>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p>{item.detail || 'Ledger and service agree.'}</p>
      <dl>
        <dt>Ledger</dt>
        <dd>
          {item.ledger.transactionNo ?? '—'} · {item.ledger.reference ?? 'no reference'} ·{' '}
          {f.money(item.ledger.amountMinor, item.ledger.currency)} ·{' '}
          {item.ledger.statusText ?? item.ledger.status}
          {item.ledger.date ? ` · ${item.ledger.date}` : ''}
        </dd>
        <dt>Service</dt>
        <dd>
          {s
            ? [
                s.transactionNo,
                s.reference ?? 'no reference',
                f.money(s.amountMinor, s.currency),
                transactionStatusLabel(s.status),
                `refunded ${f.money(s.refundedMinor, s.currency)}`,
                ...(s.paidAt && wasPaid(s.status) ? [`paid ${f.dateTime(s.paidAt)} (${f.zoneLabel})`] : []),
              ].join(' · ')
            : 'No record.'}
        </dd>
      </dl>
      {refundDialog && s?.status === 'success' && s.refundedMinor < s.amountMinor && (
        <button type="button" className="button" onClick={() => refundDialog.open(s.transactionNo)}>
          Refund…
        </button>
      )}
    </aside>
  );
}
