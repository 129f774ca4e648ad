import { type FormEvent, type KeyboardEvent, useEffect, useRef } from 'react';
import { REFUND_REASONS } from '../../../../shared/ipc/contract/refunds';
import { checkRefundAmount, defaultAmountText, refundBreakdown, remainingAfter } from './amount';
import { type Draft, type Preview, reasonProblem } from './draft';
import { transactionStatusLabel } from '../../../../shared/domain/labels';
import { environmentLabel } from './format';
import { useFormat } from '../preferences/use-prefs';
import { moneyModeShown } from './requirements';
import { recentRefundWords } from './recent';

/** Step 1: how much and why, with the remaining amount updated as the person types. */
export function AmountStep(props: {
  preview: Preview;
  draft: Draft;
  showErrors: boolean;
  onChange(d: Draft): void;
  onContinue(): void;
  onCancel(): void;
}) {
  const { preview, draft } = props;
  const tx = preview.transaction;
  // Amounts are shown, and read, in the person's number format (Settings → Numbers).
  const f = useFormat();
  const amountText = f.amountCode;
  const b = refundBreakdown(tx, preview.remainingMinor);
  const check = checkRefundAmount(draft.amountText, tx.currency, preview.remainingMinor, f);
  const after = remainingAfter(preview.remainingMinor, check);
  const reason = reasonProblem(draft);
  const unresolved = preview.pendingIntents.filter((i) => i.state !== 'accepted');
  // Refunds of this payment in the last 24 hours (any desk): the one still open is said above already.
  const recent = (preview.recentRefunds ?? []).filter((r) => !unresolved.some((i) => i.id === r.id));
  const foreign = tx.refunds.filter(
    (r) => (r.status === 'success' || r.status === 'pending') && r.currency !== tx.currency,
  );
  const blocked = preview.blockedReason
    ? preview.blockedReason
    : tx.status !== 'success'
      ? `This payment is ${transactionStatusLabel(tx.status).toLowerCase()} (service status “${tx.status}”): only successful payments can be refunded.`
      : b.remainingMinor <= 0
        ? 'Nothing remains refundable on this payment.'
        : undefined;
  const amountRef = useRef<HTMLInputElement>(null);
  useEffect(() => amountRef.current?.select(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    props.onContinue();
  };
  // Browsers do not submit a form on Enter in a <select>; keyboard users expect Enter to advance anyway.
  const enterOnSelect = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key === 'Enter' && e.target instanceof HTMLSelectElement) {
      e.preventDefault();
      e.currentTarget.requestSubmit();
    }
  };
  // Every unreadable amount is said at once (and blocks Continue), not only one that is too large.
  const showAmountError = !check.ok;

  return (
    <form
      className="rd-step"
      onSubmit={submit}
      onKeyDown={enterOnSelect}
      noValidate
      aria-label="Amount and reason"
    >
      <dl className="rd-facts" data-testid="refund-facts">
        <div>
          <dt>Transaction</dt>
          <dd className="mono">{tx.transactionNo}</dd>
        </div>
        {tx.reference && (
          <div>
            <dt>Reference</dt>
            <dd className="mono">{tx.reference}</dd>
          </div>
        )}
        <div>
          <dt>Status</dt>
          <dd>
            <span
              className={`rd-badge rd-badge-${tx.status === 'success' ? 'ok' : 'bad'}`}
              title={`Service status: ${tx.status}`}
            >
              {transactionStatusLabel(tx.status)}
            </span>
          </dd>
        </div>
        <div>
          <dt>Profile</dt>
          <dd>
            {preview.profileName}
            <span
              className={`rd-badge rd-env-badge ${moneyModeShown(preview) === 'live' ? 'rd-badge-bad' : 'rd-badge-info'}`}
            >
              {moneyModeShown(preview) === 'live' ? 'LIVE MONEY' : environmentLabel(preview.environment)}
            </span>
          </dd>
        </div>
        <div>
          <dt>Payment amount</dt>
          <dd className="num">{amountText(tx.amountMinor, tx.currency)}</dd>
        </div>
        <div>
          <dt>Already refunded</dt>
          <dd className="num">{amountText(b.refundedMinor, tx.currency)}</dd>
        </div>
        <div>
          <dt>Pending refunds</dt>
          <dd className="num">{amountText(b.pendingMinor, tx.currency)}</dd>
        </div>
        {foreign.map((r) => (
          <div key={r.refundTransactionNo} data-testid="foreign-refund">
            <dt>Refund in {r.currency} (not counted)</dt>
            <dd className="num">{amountText(r.refundAmountMinor, r.currency)}</dd>
          </div>
        ))}
        <div>
          <dt>Remaining refundable</dt>
          <dd className="num strong" data-testid="remaining-now">
            {amountText(b.remainingMinor, tx.currency)}
          </dd>
        </div>
      </dl>

      {blocked && (
        <p className="rd-alert rd-alert-bad" role="alert">
          {blocked} Nothing can be sent.
        </p>
      )}
      {unresolved.map((i) =>
        i.state === 'awaiting_approval' || i.state === 'approved' ? (
          <p key={i.id} className="rd-alert rd-alert-warn" role="alert">
            Refund {i.id} for this payment is{' '}
            {i.state === 'approved' ? 'approved and about to be sent' : 'awaiting approval'}. Refund Desk will
            refuse another one until a checker approves or declines it, or its requester cancels it.
          </p>
        ) : (
          <p key={i.id} className="rd-alert rd-alert-warn" role="alert">
            Refund {i.id} for this payment is still{' '}
            {i.state === 'outcome_unknown' ? 'unresolved (outcome unknown)' : 'being sent'}. Refund Desk will
            refuse another one until it is resolved: use “Check again” in Refunds.
          </p>
        ),
      )}
      {recent.map((r) => (
        <p
          key={r.id}
          className="rd-alert rd-alert-warn"
          role="alert"
          data-testid="recent-refund"
          title={f.dateTime(r.at)}
        >
          {recentRefundWords(r, preview.fetchedAt, f)}
        </p>
      ))}

      {!blocked && (
        <>
          <div className="rd-field">
            <label htmlFor="rd-amount">Refund amount ({tx.currency})</label>
            <div className="rd-amount-row">
              <input
                id="rd-amount"
                ref={amountRef}
                className="rd-amount-input num"
                inputMode="decimal"
                autoComplete="off"
                value={draft.amountText}
                aria-invalid={showAmountError}
                aria-describedby="rd-amount-help rd-amount-after"
                onChange={(e) => props.onChange({ ...draft, amountText: e.target.value })}
              />
              <span className="rd-ccy">{tx.currency}</span>
              <button
                type="button"
                className="link"
                onClick={() =>
                  props.onChange({
                    ...draft,
                    amountText: defaultAmountText(preview.remainingMinor, tx.currency, f),
                  })
                }
              >
                Full amount
              </button>
            </div>
            <p
              id="rd-amount-help"
              className={showAmountError ? 'rd-error' : 'muted small'}
              data-testid="amount-message"
            >
              {showAmountError
                ? check.message
                : check.ok && check.amountMinor === b.remainingMinor
                  ? 'Full refund of what remains.'
                  : 'Partial refund.'}
            </p>
            <p id="rd-amount-after" className="rd-after" aria-live="polite" data-testid="remaining-after">
              Remaining refundable after this refund:{' '}
              {check.ok ? (
                <strong className="num">{amountText(after, tx.currency)}</strong>
              ) : (
                // Never "0.00" beside an amount that cannot be sent: nothing is decided until it is valid.
                <span className="muted">— until the amount above can be refunded</span>
              )}
            </p>
          </div>

          <div className="rd-field">
            <label htmlFor="rd-reason">Reason</label>
            <select
              id="rd-reason"
              value={draft.reasonCode}
              aria-invalid={props.showErrors && reason?.field === 'reason'}
              onChange={(e) => props.onChange({ ...draft, reasonCode: e.target.value })}
            >
              <option value="">Choose a reason…</option>
              {REFUND_REASONS.map((r) => (
                <option key={r.code} value={r.code}>
                  {r.label}
                </option>
              ))}
            </select>
          </div>
          <div className="rd-field">
            <label htmlFor="rd-note">Note {draft.reasonCode === 'other' ? '(required)' : '(optional)'}</label>
            <textarea
              id="rd-note"
              rows={2}
              maxLength={500}
              value={draft.reasonNote}
              aria-invalid={props.showErrors && reason?.field === 'note'}
              onChange={(e) => props.onChange({ ...draft, reasonNote: e.target.value })}
            />
            <p className="muted small">
              Kept in Refund Desk’s audit log; the payment service has no reason field.
            </p>
          </div>
          {props.showErrors && reason && (
            <p className="rd-error" role="alert" data-testid="reason-message">
              {reason.message}
            </p>
          )}
        </>
      )}

      <footer className="rd-actions">
        <button type="button" onClick={props.onCancel}>
          Cancel
        </button>
        <button
          type="submit"
          className="primary"
          disabled={Boolean(blocked) || unresolved.length > 0 || !check.ok}
        >
          Continue
        </button>
      </footer>
    </form>
  );
}
