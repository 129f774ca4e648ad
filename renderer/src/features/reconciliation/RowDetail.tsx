import { useContext, useEffect, useRef } from 'react';
import { transactionStatusLabel, wasPaid } from '../../../../shared/domain/labels';
import { OUTCOME_LABELS, type ReconItem } from '../../../../shared/recon/match';
import { useFormat } from '../preferences/use-prefs';
import { RefundDialogContext } from '../refunds/dialog-context';
import { CAUSE_LABELS } from './report-parts';

const SOURCE_LABELS = {
  lookup: 'looked up',
  list: 'from the period’s list',
  cache: 'from data fetched earlier',
};

/** One report row in full: the ledger's side, the service's (and when it was fetched), what to do. */
export function RowDetail({ item, onClose }: { item: ReconItem; onClose: () => void }) {
  const f = useFormat();
  const refundDialog = useContext(RefundDialogContext);
  const heading = useRef<HTMLHeadingElement>(null);
  const panel = useRef<HTMLElement>(null);
  useEffect(() => {
    heading.current?.focus({ preventScroll: true });
    // Beside the rows it is in view already; below them (a narrow window) it is brought into view.
    panel.current?.scrollIntoView?.({ block: 'nearest' });
  }, [item]);
  const s = item.service;
  const l = item.ledger;
  const at = (iso: string) => `${f.dateTime(iso)} (${f.zoneLabel})`;
  return (
    <aside
      ref={panel}
      className="recon-detail"
      aria-labelledby="recon-detail-title"
      data-testid="recon-detail"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <div className="recon-head">
        <h2 id="recon-detail-title" ref={heading} tabIndex={-1}>
          {item.line !== undefined ? `Line ${item.line}: ` : ''}
          {OUTCOME_LABELS[item.outcome]}
        </h2>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      {l?.keyNote && (
        <p data-testid="recon-detail-key">{l.keyNote.charAt(0).toUpperCase() + l.keyNote.slice(1)}.</p>
      )}
      <p>{item.detail || 'Ledger and service agree.'}</p>
      <dl>
        <dt>Ledger</dt>
        <dd>
          {l
            ? `${l.transactionNo ?? '—'} · ${l.reference ?? 'no reference'} · ${f.money(l.amountMinor, l.currency)} · ${l.statusText ?? l.status}${l.date ? ` · ${l.date}` : ''}`
            : item.unusable
              ? `As written: ${item.unusable.raw ?? Object.values(item.unusable.fields ?? {}).join(' · ')}${item.unusable.cause && CAUSE_LABELS[item.unusable.cause] ? ` (likely cause: ${CAUSE_LABELS[item.unusable.cause]})` : ''}`
              : 'No row.'}
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
                ...(s.paidAt && wasPaid(s.status) ? [`paid ${at(s.paidAt)}`] : []),
              ].join(' · ')
            : 'No record.'}
        </dd>
        {item.refund && (
          <>
            <dt>Refund</dt>
            <dd>
              {item.refund.refundTransactionNo} · {f.money(item.refund.amountMinor, item.refund.currency)} ·{' '}
              {item.refund.status}
              {item.refund.createdAt ? ` · ${at(item.refund.createdAt)}` : ''}
            </dd>
          </>
        )}
        {s && (
          <>
            <dt>Data</dt>
            <dd data-testid="recon-detail-source">
              {SOURCE_LABELS[s.source]}, fetched {at(s.fetchedAt)}
            </dd>
          </>
        )}
      </dl>
      {refundDialog && s?.status === 'success' && s.refundedMinor < s.amountMinor && (
        <button
          type="button"
          className="button"
          onClick={() => refundDialog.open(s.transactionNo)}
          disabled={refundDialog.blocked !== undefined}
          title={refundDialog.blocked}
        >
          Refund…
        </button>
      )}
    </aside>
  );
}
