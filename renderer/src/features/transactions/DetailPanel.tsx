import { useEffect, useRef } from 'react';
import { toServiceDateTime } from '../../../../shared/protocol/time';
import { useConnectivity, OFFLINE_REASON } from './connectivity';
import { formatAge, formatLocal, localZoneLabel, money } from './format';
import type { ListRow } from './list-row';
import { useNow } from './use-now';

function Time({ iso }: { iso: string | undefined }) {
  if (!iso) return <span className="muted">—</span>;
  const ms = Date.parse(iso);
  return (
    <span>
      {formatLocal(iso)}
      <span className="small muted">
        {' '}
        · service time {Number.isNaN(ms) ? '?' : toServiceDateTime(ms)} (UTC+8)
      </span>
    </span>
  );
}

interface Props {
  row: ListRow;
  onClose(): void;
  onRefresh(): void;
  isRefreshing: boolean;
  /** Opens the refund dialog when the refunds feature provides one. */
  onRefund?: () => void;
}

/**
 * Everything known about one payment: every field, amounts in its currency, times in local time with
 * the service's own UTC+8 time beside them, refund history, the remaining refundable amount and how
 * fresh all of it is. Esc closes it.
 */
export function DetailPanel({ row, onClose, onRefresh, isRefreshing, onRefund }: Props) {
  const conn = useConnectivity();
  const now = useNow();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [row.transactionNo]);
  const offline = conn.state === 'offline';
  const refundBlock =
    row.status !== 'success'
      ? `Only successful payments can be refunded; this one is ${row.status}.`
      : row.remainingMinor <= 0
        ? 'Nothing is left to refund.'
        : undefined;
  const refundReason = offline
    ? OFFLINE_REASON
    : (refundBlock ?? (onRefund ? undefined : 'Refunds arrive in a later version.'));
  return (
    <aside
      className="tx-detail"
      aria-labelledby="tx-detail-title"
      data-testid="tx-detail"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <header>
        <h2 id="tx-detail-title" tabIndex={-1} ref={heading}>
          {money(row.amountMinor, row.currency)}{' '}
          <span className={`status status-${row.status}`}>{row.status}</span>
        </h2>
        <button type="button" className="link close" onClick={onClose} aria-label="Close details (Esc)">
          ×
        </button>
      </header>
      <p className="small muted" data-testid="tx-as-of">
        As of {formatLocal(row.fetchedAt)} ({formatAge(row.fetchedAt, now)}). Times are local (
        {localZoneLabel()}); the service’s own time is UTC+8.
      </p>
      <div className="tx-detail-actions">
        <button
          type="button"
          onClick={onRefresh}
          disabled={offline || isRefreshing}
          title={offline ? OFFLINE_REASON : 'Ask the service for the current state'}
        >
          {isRefreshing ? 'Refreshing…' : 'Refresh'}
        </button>
        <button
          type="button"
          className="primary"
          disabled={refundReason !== undefined}
          onClick={onRefund}
          aria-describedby="tx-refund-reason"
        >
          Refund…
        </button>
      </div>
      {(offline || refundReason) && (
        <p id="tx-refund-reason" className="small muted">
          {refundReason}
        </p>
      )}
      <dl className="tx-fields">
        <dt>Transaction no.</dt>
        <dd className="mono" data-testid="detail-transaction-no">
          {row.transactionNo}
        </dd>
        <dt>Reference</dt>
        <dd className="mono">{row.reference ?? '—'}</dd>
        <dt>Type</dt>
        <dd>{row.transactionType}</dd>
        <dt>Status</dt>
        <dd>{row.status}</dd>
        <dt>Vendor</dt>
        <dd>{row.vendor ?? '—'}</dd>
        <dt>Amount</dt>
        <dd>
          {money(row.amountMinor, row.currency)} <span className="muted small">{row.currency}</span>
        </dd>
        <dt>Settles in</dt>
        <dd>{row.settleCurrency ?? '—'}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={row.createdAt} />
        </dd>
        <dt>Paid</dt>
        <dd>
          <Time iso={row.paidAt} />
        </dd>
        <dt>Refunded</dt>
        <dd>{money(row.refundedMinor, row.currency)}</dd>
        <dt>Refundable</dt>
        <dd data-testid="detail-remaining">
          <strong>{row.status === 'success' ? money(row.remainingMinor, row.currency) : '—'}</strong>
          <div className="small muted">
            From the service’s refunds (success and pending) as of the time above.
          </div>
        </dd>
      </dl>
      <h3>Refunds ({row.refunds.length})</h3>
      {row.refunds.length === 0 ? (
        <p className="muted small">No refunds at the service.</p>
      ) : (
        <table className="tx-refunds" data-testid="detail-refunds">
          <thead>
            <tr>
              <th>Refund no.</th>
              <th>Reference</th>
              <th className="num">Amount</th>
              <th>Status</th>
            </tr>
          </thead>
          <tbody>
            {row.refunds.map((r) => (
              <tr key={r.refundTransactionNo}>
                <td className="mono">{r.refundTransactionNo}</td>
                <td className="mono">{r.refundReference ?? '—'}</td>
                <td className="num">{money(r.refundAmountMinor, r.currency)}</td>
                <td>
                  <span className={`status status-${r.status}`}>{r.status}</span>
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      )}
    </aside>
  );
}
