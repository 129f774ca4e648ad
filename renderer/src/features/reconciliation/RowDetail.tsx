import { useContext } from 'react';
import { OUTCOME_LABELS, type ReconItem } from '../../../../shared/recon/match';
import { RefundDialogContext } from '../refunds/dialog-context';
import { money } from './format';
import { CAUSE_LABELS } from './report-parts';

const SOURCE_LABELS = {
  lookup: 'looked up',
  list: 'from the period’s list',
  cache: 'from data fetched earlier',
};

/** One report row in full: the ledger's side, the service's (and when it was fetched), what to do. */
export function RowDetail({ item, onClose }: { item: ReconItem; onClose: () => void }) {
  const refundDialog = useContext(RefundDialogContext);
  const s = item.service;
  const l = item.ledger;
  return (
    <aside className="recon-card recon-detail" aria-label="Row detail" data-testid="recon-detail">
      <div className="recon-head">
        <h2>
          {item.line !== undefined ? `Line ${item.line}: ` : ''}
          {OUTCOME_LABELS[item.outcome]}
        </h2>
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
      <p>{item.detail || 'Ledger and service agree.'}</p>
      <dl>
        <dt>Ledger</dt>
        <dd>
          {l
            ? `${l.transactionNo ?? '—'} · ${l.reference ?? 'no reference'} · ${money(l.amountMinor, l.currency)} · ${l.statusText ?? l.status}${l.date ? ` · ${l.date}` : ''}`
            : item.unusable
              ? `As written: ${item.unusable.raw ?? Object.values(item.unusable.fields ?? {}).join(' · ')}${item.unusable.cause && CAUSE_LABELS[item.unusable.cause] ? ` (likely cause: ${CAUSE_LABELS[item.unusable.cause]})` : ''}`
              : 'No row.'}
        </dd>
        <dt>Service</dt>
        <dd>
          {s
            ? `${s.transactionNo} · ${s.reference ?? 'no reference'} · ${money(s.amountMinor, s.currency)} · ${s.status} · refunded ${money(s.refundedMinor, s.currency)}${s.paidAt ? ` · paid ${new Date(s.paidAt).toLocaleString()}` : ''}`
            : 'No record.'}
        </dd>
        {item.refund && (
          <>
            <dt>Refund</dt>
            <dd>
              {item.refund.refundTransactionNo} · {money(item.refund.amountMinor, item.refund.currency)} ·{' '}
              {item.refund.status}
              {item.refund.createdAt ? ` · ${new Date(item.refund.createdAt).toLocaleString()}` : ''}
            </dd>
          </>
        )}
        {s && (
          <>
            <dt>Data</dt>
            <dd data-testid="recon-detail-source">
              {SOURCE_LABELS[s.source]}, fetched {new Date(s.fetchedAt).toLocaleString()}
            </dd>
          </>
        )}
      </dl>
      {refundDialog && s?.status === 'success' && s.refundedMinor < s.amountMinor && (
        <button type="button" className="button" onClick={() => refundDialog.open(s.transactionNo)}>
          Refund…
        </button>
      )}
    </aside>
  );
}
