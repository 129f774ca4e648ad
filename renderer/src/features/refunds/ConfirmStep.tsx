import { type FormEvent, useEffect, useRef } from 'react';
import { REFUND_REASONS } from '../../../../shared/ipc/contract/refunds';
import { typedAmountMatches } from './amount';
import { type Confirmations, confirmationsComplete, type Preview } from './draft';
import { amountText, environmentLabel } from './format';
import type { Requirements } from './requirements';

/** Step 2: exactly what will be sent, the extra confirmations, and the one Submit button. */
export function ConfirmStep(props: {
  preview: Preview;
  amountMinor: number;
  reasonCode: string;
  reasonNote: string;
  remainingAfterMinor: number;
  requirements: Requirements;
  confirmations: Confirmations;
  sending: boolean;
  /** Main asked for a confirmation we had not shown (its answer to the last Submit). */
  notice?: string | undefined;
  onConfirmations(c: Confirmations): void;
  onBack(): void;
  onSubmit(): void;
}) {
  const { preview, amountMinor, requirements: req, confirmations: c } = props;
  const tx = preview.transaction;
  const production = preview.environment === 'production';
  const complete = confirmationsComplete(req, c, amountMinor, tx.currency);
  const typedWrong =
    req.typedAmount &&
    c.typedAmount.trim() !== '' &&
    !typedAmountMatches(c.typedAmount, tx.currency, amountMinor);
  const reason = REFUND_REASONS.find((r) => r.code === props.reasonCode)?.label ?? props.reasonCode;
  const firstRef = useRef<HTMLElement | null>(null);
  useEffect(() => firstRef.current?.focus(), []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (!props.sending && complete) props.onSubmit();
  };

  return (
    <form className="rd-step" onSubmit={submit} noValidate aria-label="Confirm the refund">
      {production ? (
        <div className="rd-production-banner" role="alert" data-testid="production-banner">
          PRODUCTION — this refund moves real money to the customer.
        </div>
      ) : (
        <p className="rd-env-note" data-testid="environment-note">
          {environmentLabel(preview.environment)}: no real money moves.
        </p>
      )}
      <p className="rd-lead">Refund Desk will send this refund:</p>
      <div className="rd-big-amount num" data-testid="confirm-amount">
        {amountText(amountMinor, tx.currency)}
      </div>
      <dl className="rd-facts rd-facts-confirm" data-testid="confirm-summary">
        <div>
          <dt>Transaction</dt>
          <dd className="mono">{tx.transactionNo}</dd>
        </div>
        <div>
          <dt>Reference</dt>
          <dd className="mono">{tx.reference ?? '—'}</dd>
        </div>
        <div>
          <dt>Profile</dt>
          <dd>{preview.profileName}</dd>
        </div>
        <div>
          <dt>Environment</dt>
          <dd className={production ? 'rd-prod-text' : undefined}>{environmentLabel(preview.environment)}</dd>
        </div>
        <div>
          <dt>Operator</dt>
          <dd>{preview.operator || <span className="rd-error">not set — set your name in Settings</span>}</dd>
        </div>
        <div>
          <dt>Reason</dt>
          <dd>
            {reason}
            {props.reasonNote.trim() ? ` — ${props.reasonNote.trim()}` : ''}
          </dd>
        </div>
        <div>
          <dt>Remaining after</dt>
          <dd className="num">{amountText(props.remainingAfterMinor, tx.currency)}</dd>
        </div>
      </dl>

      {props.notice && (
        <p className="rd-alert rd-alert-warn" role="alert">
          {props.notice}
        </p>
      )}
      {req.limit && (
        <div className="rd-confirm-box" data-testid="limit-confirmation">
          <p>
            This refund needs an extra confirmation:{' '}
            {req.reasons.length ? req.reasons.join('; ') : 'it passes a limit of this profile'}.
          </p>
          <label className="rd-check">
            <input
              type="checkbox"
              ref={(el) => {
                if (el && !firstRef.current) firstRef.current = el;
              }}
              checked={c.overLimit}
              onChange={(e) => props.onConfirmations({ ...c, overLimit: e.target.checked })}
            />
            I confirm this refund above the limit.
          </label>
        </div>
      )}
      {req.typedAmount && (
        <div className="rd-field rd-confirm-box">
          <label htmlFor="rd-typed">Type the amount again to confirm ({tx.currency})</label>
          <input
            id="rd-typed"
            className="rd-amount-input num"
            inputMode="decimal"
            autoComplete="off"
            ref={(el) => {
              if (el && !firstRef.current) firstRef.current = el;
            }}
            value={c.typedAmount}
            aria-invalid={typedWrong}
            aria-describedby="rd-typed-help"
            onChange={(e) => props.onConfirmations({ ...c, typedAmount: e.target.value })}
            onPaste={(e) => e.preventDefault()}
          />
          <p id="rd-typed-help" className={typedWrong ? 'rd-error' : 'muted small'}>
            {typedWrong
              ? 'That is not the same amount.'
              : 'Production refunds are confirmed by typing the amount; pasting is disabled.'}
          </p>
        </div>
      )}

      <footer className="rd-actions">
        <button type="button" onClick={props.onBack} disabled={props.sending}>
          Back
        </button>
        <button
          type="submit"
          className={production ? 'danger' : 'primary'}
          ref={(el) => {
            if (el && !firstRef.current) firstRef.current = el;
          }}
          disabled={props.sending || !complete}
          aria-busy={props.sending}
        >
          {props.sending ? 'Sending…' : `Refund ${amountText(amountMinor, tx.currency)}`}
        </button>
      </footer>
    </form>
  );
}
