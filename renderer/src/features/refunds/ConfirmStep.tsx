import { type FormEvent, type KeyboardEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import { REFUND_REASONS } from '../../../../shared/ipc/contract/refunds';
import { typedAmountMatches } from './amount';
import { type Confirmations, confirmationsComplete, type Preview } from './draft';
import { environmentLabel } from './format';
import { useFormat } from '../preferences/use-prefs';
import { OperatorName } from '../profiles/OperatorName';
import { useActiveProfile } from '../profiles/queries';
import { moneyModeShown, type Requirements } from './requirements';

/** How long after the step appears its send button stays disarmed. */
export const DELIBERATE_MS = 600;

const hostOf = (url: string) => {
  try {
    return new URL(url).host;
  } catch {
    return 'address not known';
  }
};

/**
 * What the step's one button does: send a refund (the default), or approve another person's request and
 * send it (four-eyes) — the same step, the same confirmations, other words.
 */
export interface ConfirmAction {
  /** The sentence above the amount. */
  lead: string;
  /** The button's name in the hint ("Refund", "Approve and send"). */
  name: string;
  /** The button's words before the amount and merchant. */
  verb: string;
  /** Facts shown first in the summary (`<div><dt/><dd/></div>` items): who asked, until when. */
  facts?: ReactNode;
}

const REFUND_ACTION: ConfirmAction = {
  lead: 'Refund Desk will send this refund:',
  name: 'Refund',
  verb: 'Refund',
};

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
  /** Default: a refund. An approval says so in its lead, button and summary. */
  action?: ConfirmAction;
  /** The Back button's words (an approval goes back to the list: "Cancel"). */
  backLabel?: string;
}) {
  const { preview, amountMinor, requirements: req, confirmations: c } = props;
  const action = props.action ?? REFUND_ACTION;
  const f = useFormat();
  const amountText = f.amountCode;
  // Whether the name main records is this computer's account name (the profile names no operator).
  const { profiles } = useActiveProfile();
  const own = profiles.find((p) => p.id === preview.profileId);
  const operatorFromAccount = own !== undefined && !own.operatorName;
  const tx = preview.transaction;
  const moneyMode = moneyModeShown(preview);
  const production = moneyMode === 'live';
  const complete = confirmationsComplete(req, c, amountMinor, tx.currency, f);
  const typedWrong =
    req.typedAmount &&
    c.typedAmount.trim() !== '' &&
    !typedAmountMatches(c.typedAmount, tx.currency, amountMinor, f);
  const reason = REFUND_REASONS.find((r) => r.code === props.reasonCode)?.label ?? props.reasonCode;
  // Initial focus is never on the money-moving button: on the first confirmation field if there is one,
  // else on the summary heading, so a stray Enter does nothing.
  const firstRef = useRef<HTMLElement | null>(null);
  const headingRef = useRef<HTMLParagraphElement>(null);
  useEffect(() => (firstRef.current ?? headingRef.current)?.focus(), []);
  // The send button arms itself a moment after the step appears: a key press or double click that
  // began on the previous step cannot land on it.
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    const t = setTimeout(() => setArmed(true), DELIBERATE_MS);
    return () => clearTimeout(t);
  }, []);

  const submit = (e: FormEvent) => {
    e.preventDefault();
    if (armed && !props.sending && complete) props.onSubmit();
  };
  // Enter and Space count only when this step saw the key go down, once. A key held from the previous
  // step does nothing here: not its auto-repeats (also where a platform does not mark them as repeats),
  // not its release (Space activates a button on release).
  const down = useRef(new Set<string>());
  const onKeyDown = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    if (e.repeat || down.current.has(e.key)) e.preventDefault();
    else down.current.add(e.key);
  };
  const onKeyUp = (e: KeyboardEvent<HTMLFormElement>) => {
    if (e.key !== 'Enter' && e.key !== ' ') return;
    if (!down.current.delete(e.key)) e.preventDefault();
  };
  const merchant = `merchant ${preview.merchantNo}`;

  return (
    <form
      className="rd-step"
      onSubmit={submit}
      onKeyDown={onKeyDown}
      onKeyUp={onKeyUp}
      noValidate
      aria-label={action === REFUND_ACTION ? 'Confirm the refund' : `Confirm: ${action.name.toLowerCase()}`}
    >
      {production ? (
        <div className="rd-production-banner" role="alert" data-testid="production-banner">
          LIVE MONEY — this refund moves real money to the customer ({hostOf(preview.baseUrl)}).
        </div>
      ) : (
        <p className="rd-env-note" data-testid="environment-note">
          {moneyMode === 'local'
            ? `${environmentLabel(preview.environment)}: no real money moves.`
            : `${environmentLabel(preview.environment)}: the payment service's test system (${hostOf(preview.baseUrl)}).`}
        </p>
      )}
      <p className="rd-lead" ref={headingRef} tabIndex={-1}>
        {action.lead}
      </p>
      <div className="rd-big-amount num" data-testid="confirm-amount">
        {amountText(amountMinor, tx.currency)}
      </div>
      <dl className="rd-facts rd-facts-confirm" data-testid="confirm-summary">
        {action.facts}
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
          <dd>
            <OperatorName name={preview.operator} fromAccount={operatorFromAccount} />
          </dd>
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
              : 'Refunds of real money are confirmed by typing the amount; pasting is disabled.'}
          </p>
        </div>
      )}

      {/* Enter alone deliberately does not send from here (focus starts away from the button): say how. */}
      <p className="muted small rd-send-hint" data-testid="send-hint">
        To send, Tab to the “{action.name}” button and press Enter (or click it). Enter alone does not send.
      </p>
      <footer className="rd-actions">
        <button type="button" onClick={props.onBack} disabled={props.sending}>
          {props.backLabel ?? 'Back'}
        </button>
        <button
          type="submit"
          className={production ? 'danger' : 'primary'}
          disabled={!armed || props.sending || !complete}
          aria-busy={props.sending}
          data-testid="send-refund"
        >
          {props.sending
            ? 'Sending…'
            : `${action.verb} ${amountText(amountMinor, tx.currency)} · ${merchant}`}
        </button>
      </footer>
    </form>
  );
}
