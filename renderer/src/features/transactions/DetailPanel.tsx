import { useContext, useEffect, useRef } from 'react';
import {
  REFUNDED_STATE_LABELS,
  refundStatusLabel,
  statusWithRefunds,
  transactionStatusLabel,
  vendorLabel,
  wasPaid,
} from '../../../../shared/domain/labels';
import { refundBlocker } from '../../../../shared/domain/transaction';
import { toServiceDateTime } from '../../../../shared/protocol/time';
import { useFormat } from '../preferences/use-prefs';
import { useConnectivity, OFFLINE_REASON } from './connectivity';
import { formatAge } from './format';
import type { ListRow } from '../../db/owner';
import { type UncertainRefunds, uncertainWords } from './open-refunds';
import { useNow } from './use-now';
import { PaymentTimeline } from './PaymentTimeline';
import { RefundDialogContext } from '../refunds/dialog-context';

/** "—" with "none" for screen readers: the one way an absent value is shown. */
function None({ why }: { why: string }) {
  return (
    <span className="muted" title={why}>
      <span aria-hidden="true">—</span>
      <span className="sr-only">none</span> <span className="small">({why})</span>
    </span>
  );
}

function Time({ iso, none }: { iso: string | undefined; none: string }) {
  const f = useFormat();
  if (!iso) return <None why={none} />;
  const ms = Date.parse(iso);
  return (
    <span>
      {f.dateTimeSeconds(iso)}
      {f.zone.choice !== 'service' && !Number.isNaN(ms) && (
        <span className="small muted"> · service time {toServiceDateTime(ms)} (UTC+8)</span>
      )}
    </span>
  );
}

interface Props {
  row: ListRow;
  /** The profile the payment is shown for (its timeline and notes are read for it). */
  profileId?: string;
  onClose(): void;
  onRefresh(): void;
  isRefreshing: boolean;
  /** Opens the refund dialog when the refunds feature provides one. */
  onRefund?: () => void;
  /** This desk's refunds of the payment whose outcome nobody knows yet (sent, no answer). */
  uncertain?: UncertainRefunds | undefined;
  /** Shows the Refunds area, where an unknown refund is checked and resolved. */
  onOpenRefunds?: () => void;
}

/**
 * Everything known about one payment: every field, amounts in its currency, times in the chosen zone
 * (with the service's own UTC+8 time beside them), refund history, the remaining refundable amount and
 * how fresh all of it is. Esc closes it and focus goes back where it came from.
 */
export function DetailPanel({
  row,
  profileId,
  onClose,
  onRefresh,
  isRefreshing,
  onRefund,
  uncertain,
  onOpenRefunds,
}: Props) {
  const f = useFormat();
  const conn = useConnectivity();
  const now = useNow();
  const heading = useRef<HTMLHeadingElement>(null);
  useEffect(() => {
    heading.current?.focus();
  }, [row.transactionNo]);
  const offline = conn.state === 'offline';
  const status = transactionStatusLabel(row.status);
  const money = (minor: number) => f.amountCode(minor, row.currency);
  const uncertainText = uncertain ? uncertainWords(uncertain, money) : undefined;
  const refundBlock =
    row.status !== 'success'
      ? `Only successful payments can be refunded; this one is ${status.toLowerCase()}.`
      : (refundBlocker(row) ??
        (uncertainText
          ? // Main refuses a second refund while one is unresolved; say so before the person tries.
            `${uncertainText}: resolve it in Refunds before refunding again.`
          : row.remainingMinor <= 0
            ? 'Nothing is left to refund.'
            : undefined));
  // The team database makes this desk read-only: refused in main, so said here before the person tries.
  const teamBlock = useContext(RefundDialogContext)?.blocked;
  const refundReason = offline
    ? OFFLINE_REASON
    : (teamBlock ?? refundBlock ?? (onRefund ? undefined : 'Refunds arrive in a later version.'));
  const paid = wasPaid(row.status);
  return (
    <aside
      className="tx-detail"
      aria-labelledby="tx-detail-title"
      data-testid="tx-detail"
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onClose();
      }}
    >
      <div className="tx-detail-head">
        <h2 id="tx-detail-title" tabIndex={-1} ref={heading}>
          {f.money(row.amountMinor, row.currency)}{' '}
          <span className={`status status-${row.status}`} title={`Service status: ${row.status}`}>
            {statusWithRefunds(status, row.refunded)}
          </span>
        </h2>
        <button type="button" className="link close" onClick={onClose} aria-label="Close details (Esc)">
          ×
        </button>
      </div>
      <p className="small muted" data-testid="tx-as-of">
        As of {f.dateTime(row.fetchedAt)} ({formatAge(row.fetchedAt, now)}). Times are in {f.zoneSentence}
        {f.zone.choice !== 'service' ? '; the service’s own time is UTC+8' : ''}.
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
      {(offline || refundReason) && !(uncertainText && !offline) && (
        <p id="tx-refund-reason" className="small muted">
          {refundReason}
        </p>
      )}
      {uncertain && uncertainText && (
        <div
          className="tx-uncertain"
          role="status"
          data-testid="detail-uncertain"
          {...(offline ? {} : { id: 'tx-refund-reason' })}
        >
          <strong>{uncertainText}</strong> — check it in Refunds. Nobody knows yet whether that money moved,
          so Refund… waits until it is resolved.
          {onOpenRefunds && (
            <button type="button" className="link" onClick={onOpenRefunds}>
              Open Refunds
            </button>
          )}
        </div>
      )}
      <dl className="tx-fields">
        <dt>Transaction no.</dt>
        <dd className="mono" data-testid="detail-transaction-no">
          {row.transactionNo}
        </dd>
        <dt>Reference</dt>
        <dd className="mono">{row.reference ?? <None why="no merchant reference" />}</dd>
        <dt>Type</dt>
        <dd>
          {row.transactionType === 'payment'
            ? 'Payment'
            : row.transactionType === 'refund'
              ? 'Refund'
              : 'Not stated by the service (not refundable here)'}
        </dd>
        <dt>Status</dt>
        <dd data-testid="detail-status">
          {status} <span className="small muted">(service code {row.status})</span>
          {row.refunded && row.refunded !== 'not_refunded' && (
            <div data-testid="detail-refunded">
              {REFUNDED_STATE_LABELS[row.refunded]}{' '}
              <span className="small muted">(from the refunds the service lists)</span>
            </div>
          )}
        </dd>
        <dt>Vendor</dt>
        <dd>
          {row.vendor ? (
            <>
              {vendorLabel(row.vendor)} <span className="small muted">(service code {row.vendor})</span>
            </>
          ) : (
            <None why="the service did not say" />
          )}
        </dd>
        <dt>Payment method</dt>
        <dd data-testid="detail-payment-method">
          {row.cardLast4 ? (
            <>
              Card ending {row.cardLast4}
              {row.vendor ? <span className="small muted"> ({vendorLabel(row.vendor)})</span> : null}
            </>
          ) : row.vendor ? (
            vendorLabel(row.vendor)
          ) : (
            <None why="the service did not say" />
          )}
        </dd>
        <dt>Amount</dt>
        <dd className="num">{f.money(row.amountMinor, row.currency)}</dd>
        <dt>Settles in</dt>
        <dd>{row.settleCurrency ?? <None why="the service did not say" />}</dd>
        <dt>Created</dt>
        <dd>
          <Time iso={row.createdAt} none="the service gave no time" />
        </dd>
        <dt>Paid</dt>
        <dd>{paid ? <Time iso={row.paidAt} none="the service gave no time" /> : <None why="not paid" />}</dd>
        <dt>Refunded</dt>
        <dd className="num">{f.money(row.refundedMinor, row.currency)}</dd>
        <dt>Refundable</dt>
        <dd data-testid="detail-remaining">
          {row.status !== 'success' ? (
            <None why="only successful payments can be refunded" />
          ) : refundBlocker(row) ? (
            <None why="cannot be computed safely; see above" />
          ) : uncertain ? (
            <>
              <strong>Uncertain:</strong>{' '}
              <strong className="num">
                {money(Math.max(0, row.remainingMinor - uncertain.amountMinor))}
              </strong>{' '}
              to <strong className="num">{money(row.remainingMinor)}</strong>
              <div className="small">
                {money(row.remainingMinor)} if the unknown refund never reached the service,{' '}
                {money(Math.max(0, row.remainingMinor - uncertain.amountMinor))} if it did.
              </div>
            </>
          ) : (
            <strong className="num">{f.money(row.remainingMinor, row.currency)}</strong>
          )}
          <div className="small muted">
            From the service’s refunds (completed and pending) as of the time above
            {uncertain ? ', and this desk’s refunds whose outcome is unknown' : ''}.
          </div>
        </dd>
      </dl>
      <h3>Refunds ({row.refunds.length + (uncertain?.intents.length ?? 0)})</h3>
      {uncertain && (
        <ul className="tx-refunds" aria-label="This desk’s refunds with an unknown outcome">
          {uncertain.intents.map((i) => (
            <li key={i.id} data-intent-id={i.id}>
              <div className="tx-refund-line">
                <strong className="num">{money(i.amountMinor)}</strong>
                <span className="status status-refund-unknown">
                  {i.state === 'sending' ? 'Being sent' : 'Outcome unknown'}
                </span>
              </div>
              <p className="small muted">
                Sent from this desk {f.dateTimeSeconds(i.createdAt)} by {i.operator || 'an unnamed operator'}{' '}
                (reference {i.id}); the service has not listed it.
              </p>
            </li>
          ))}
        </ul>
      )}
      {row.refunds.length === 0 ? (
        <p className="muted small">No refunds at the service{uncertain ? ' (as of the time above)' : ''}.</p>
      ) : (
        <ul className="tx-refunds" data-testid="detail-refunds" aria-label="Refunds at the service">
          {row.refunds.map((r) => (
            <li key={r.refundTransactionNo} data-refund-no={r.refundTransactionNo}>
              <div className="tx-refund-line">
                <strong className="num">{f.money(r.refundAmountMinor, r.currency)}</strong>
                <span className={`status status-refund-${r.status}`} title={`Service status: ${r.status}`}>
                  {refundStatusLabel(r.status)}
                </span>
              </div>
              <dl className="tx-refund-ids">
                <dt>Made</dt>
                <dd data-testid="detail-refund-made">
                  <Time iso={r.createdAt} none="the service gave no time" />
                </dd>
                <dt>Status</dt>
                <dd>
                  {refundStatusLabel(r.status)} <span className="small muted">(service code {r.status})</span>
                </dd>
                <dt>Refund no.</dt>
                <dd className="mono">{r.refundTransactionNo}</dd>
                <dt>Reference</dt>
                <dd className="mono">{r.refundReference ?? <None why="none given" />}</dd>
              </dl>
            </li>
          ))}
        </ul>
      )}
      {profileId && <PaymentTimeline profileId={profileId} transactionNo={row.transactionNo} />}
    </aside>
  );
}
