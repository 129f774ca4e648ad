import { type ReactNode, useEffect, useRef } from 'react';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import { useFormat } from '../preferences/use-prefs';
import { checkedWords, MONEY_MOVED_TEXT, type OutcomeText } from './outcome';

/** Step 3: what happened, whether money moved, and what to do next. */
export function ResultStep(props: {
  outcome: OutcomeText;
  intent?: IntentView | undefined;
  checking: boolean;
  checkError?: string | undefined;
  onCheckAgain(): void;
  onBack?: (() => void) | undefined;
  onClose(): void;
  /** More summary items (`<div><dt/><dd/>`): a request for approval's requester, expiry and approvers. */
  facts?: ReactNode;
}) {
  const { outcome: o, intent } = props;
  const f = useFormat();
  const headingRef = useRef<HTMLHeadingElement>(null);
  useEffect(() => headingRef.current?.focus(), []);
  return (
    <div className="rd-step" data-testid="refund-result" data-state={intent?.state ?? 'refused'}>
      <section className={`rd-outcome rd-outcome-${o.tone}`} aria-live="polite">
        <h3 ref={headingRef} tabIndex={-1}>
          {o.title}
        </h3>
        <p className={`rd-moved rd-moved-${o.moneyMoved}`}>{MONEY_MOVED_TEXT[o.moneyMoved]}</p>
        <p>{o.body}</p>
        {intent && (
          <p className="small muted" data-testid="outcome-checked">
            {checkedWords(intent, f.dateTimeSeconds)} ({f.zoneLabel})
          </p>
        )}
        <p className="muted">{o.next}</p>
      </section>
      {intent && (
        <dl className="rd-facts rd-facts-confirm">
          <div>
            <dt>Amount</dt>
            <dd className="num">{f.amountCode(intent.amountMinor, intent.currency)}</dd>
          </div>
          <div>
            <dt>Transaction</dt>
            <dd className="mono">{intent.transactionNo}</dd>
          </div>
          {intent.refundTransactionNo && (
            <div>
              <dt>Refund number</dt>
              <dd className="mono" data-testid="refund-transaction-no">
                {intent.refundTransactionNo}
              </dd>
            </div>
          )}
          {intent.retCode && (
            <div>
              <dt>Service code</dt>
              <dd className="mono">{intent.retCode}</dd>
            </div>
          )}
          {intent.retMsg && (
            <div>
              <dt>Service message</dt>
              <dd>{intent.retMsg}</dd>
            </div>
          )}
          <div>
            <dt>{intent.approval ? 'Request (Refund Desk reference)' : 'Refund Desk reference'}</dt>
            <dd className="mono" data-testid="result-reference">
              {intent.id}
            </dd>
          </div>
          {props.facts}
          {intent.lastCheck && (
            <div>
              <dt>Last check</dt>
              <dd>
                {f.dateTimeSeconds(intent.lastCheck.at)} ({f.zoneLabel}):{' '}
                {intent.lastCheck.found ? 'found at the service' : 'not found at the service'} —{' '}
                {intent.lastCheck.note}
              </dd>
            </div>
          )}
        </dl>
      )}
      {props.checkError && (
        <p className="rd-error" role="alert">
          {props.checkError}
        </p>
      )}
      <footer className="rd-actions">
        {props.onBack && (
          <button type="button" onClick={props.onBack}>
            Back
          </button>
        )}
        {intent?.state === 'outcome_unknown' && (
          <button type="button" onClick={props.onCheckAgain} disabled={props.checking}>
            {props.checking ? 'Checking…' : 'Check again'}
          </button>
        )}
        <button type="button" className="primary" onClick={props.onClose}>
          Close
        </button>
      </footer>
    </div>
  );
}
