import { type FormEvent, useEffect, useId, useRef, useState } from 'react';
import { chargeConfirmation } from '../../../../shared/domain/charge';
import {
  newPaymentReference,
  REFERENCE_MESSAGE,
  REFERENCE_PATTERN,
} from '../../../../shared/domain/checkout';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import type { ProfileView } from '../profiles/queries';
import { Dialog } from '../../lib/ui/Dialog';
import { DELIBERATE_MS } from '../refunds/ConfirmStep';
import { environmentLabel } from '../refunds/format';
import { moneyModeOf } from '../../../../shared/domain/profile';
import { parseAmountField } from './amount';
import { Field } from './Field';
import { amountText } from './format';
import { useChargeMethod } from './mutations';
import { errorOf } from '../../lib/bridge';
import { AmountField, ReferenceField } from './OrderFields';
import { PaymentDetail } from './PaymentDetail';

type Method = CustomerView['methods'][number];

const hostOf = (url: string | undefined) => {
  try {
    return url ? new URL(url).host : 'address not known';
  } catch {
    return url ?? 'address not known';
  }
};

/**
 * Charges a customer's stored method: amount and reference → a confirmation of exactly what will be
 * charged (a red banner with live money; the amount typed again with live money or above the profile's
 * single-amount limit) → the outcome, followed live.
 */
export function ChargeDialog(props: {
  profile: ProfileView;
  customer: CustomerView;
  method: Method;
  /** The newest version of the created payment (pushed by main). */
  live: (id: string) => PaymentView | undefined;
  onClose: () => void;
}) {
  const titleId = useId();
  const { profile, customer, method } = props;
  const moneyMode = moneyModeOf(profile.environment, profile.effectiveBaseUrl ?? profile.baseUrl);
  const live = moneyMode === 'live';
  const host = hostOf(profile.effectiveBaseUrl ?? profile.baseUrl);
  const charge = useChargeMethod();
  const [step, setStep] = useState<'amount' | 'confirm' | 'result'>('amount');
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState(newPaymentReference);
  const [note, setNote] = useState('');
  const [typed, setTyped] = useState('');
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [notice, setNotice] = useState<string>();
  const inFlight = useRef(false);
  const first = useRef<HTMLInputElement>(null);
  const lead = useRef<HTMLParagraphElement>(null);
  // Initial focus is never on the money-moving button: the first field, else the summary's lead line.
  useEffect(() => (first.current ?? lead.current)?.focus(), [step]);
  // The Charge button arms itself a moment after the confirmation appears, so a key press or double
  // click that began on the previous step cannot land on it.
  const [armed, setArmed] = useState(false);
  useEffect(() => {
    if (step !== 'confirm') return;
    const t = setTimeout(() => setArmed(true), DELIBERATE_MS);
    return () => {
      clearTimeout(t);
      setArmed(false);
    };
  }, [step]);

  const parsed = parseAmountField(amount, 'USD');
  const amountMinor = parsed.ok ? parsed.amountMinor : 0;
  const need = chargeConfirmation({
    amountMinor,
    currency: 'USD',
    moneyMode,
    guardrails: profile.guardrails ?? { limits: [] },
    typedAmount: typed,
  });
  const typedNeeded = need.reasons.length > 0;

  const toConfirm = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    if (!parsed.ok) found['amount'] = parsed.message;
    if (!REFERENCE_PATTERN.test(reference.trim())) found['reference'] = REFERENCE_MESSAGE;
    setErrors(found);
    if (Object.keys(found).length === 0) setStep('confirm');
  };
  const send = (e: FormEvent) => {
    e.preventDefault();
    if (!armed || inFlight.current || !parsed.ok || need.missing.length > 0) return;
    inFlight.current = true;
    setNotice(undefined);
    charge.mutate(
      {
        profileId: profile.id,
        methodId: method.id,
        amountMinor,
        currency: 'USD',
        reference: reference.trim(),
        ...(note.trim() ? { note: note.trim() } : {}),
        confirmation: typedNeeded ? { typedAmount: typed } : {},
      },
      {
        onSuccess: () => setStep('result'),
        onError: (err) => setNotice(errorOf(err).message),
        onSettled: () => {
          inFlight.current = false;
        },
      },
    );
  };

  const created = charge.data ? (props.live(charge.data.id) ?? charge.data) : undefined;
  // Who is charged and with what, on both steps.
  const whoAndHow = (
    <>
      <div>
        <dt>Customer</dt>
        <dd>
          {customer.firstName} {customer.lastName} ({customer.customerNo})
        </dd>
      </div>
      <div>
        <dt>Stored method</dt>
        <dd>
          {method.label} <span className="mono">{method.vaultMasked}</span>
        </dd>
      </div>
    </>
  );
  let body;
  if (step === 'amount') {
    body = (
      <form className="rd-step" onSubmit={toConfirm} noValidate aria-label="Charge amount">
        <dl className="rd-facts rd-facts-confirm">{whoAndHow}</dl>
        <AmountField
          id="pm-ch-amount"
          currency="USD"
          value={amount}
          error={errors['amount']}
          onChange={setAmount}
          ref={first}
          className="rd-amount-input num"
        />
        <ReferenceField
          id="pm-ch-reference"
          value={reference}
          error={errors['reference']}
          onChange={setReference}
        />
        <Field id="pm-ch-note" label="Note (optional)">
          <input id="pm-ch-note" maxLength={100} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
        <footer className="rd-actions">
          <button type="button" onClick={props.onClose}>
            Cancel
          </button>
          <button type="submit" className="primary">
            Continue
          </button>
        </footer>
      </form>
    );
  } else if (step === 'confirm') {
    body = (
      <form className="rd-step" onSubmit={send} noValidate aria-label="Confirm the charge">
        {live ? (
          <div className="rd-production-banner" role="alert" data-testid="production-banner">
            LIVE MONEY — this charges the customer’s real card ({host}).
          </div>
        ) : (
          <p className="rd-env-note" data-testid="environment-note">
            {moneyMode === 'local'
              ? `${environmentLabel(profile.environment)}: no real money moves.`
              : `${environmentLabel(profile.environment)}: the payment service’s test system (${host}).`}
          </p>
        )}
        <p className="rd-lead" ref={lead} tabIndex={-1}>
          Refund Desk will charge:
        </p>
        <div className="rd-big-amount num" data-testid="charge-amount">
          {amountText(amountMinor, 'USD')}
        </div>
        <dl className="rd-facts rd-facts-confirm" data-testid="charge-summary">
          {whoAndHow}
          <div>
            <dt>Reference</dt>
            <dd className="mono">{reference.trim()}</dd>
          </div>
          <div>
            <dt>Profile</dt>
            <dd>{profile.name}</dd>
          </div>
          <div>
            <dt>Environment</dt>
            <dd className={live ? 'rd-prod-text' : undefined}>{environmentLabel(profile.environment)}</dd>
          </div>
          <div>
            <dt>Operator</dt>
            <dd>
              {profile.operatorName ?? (
                <span className="muted">your computer account name (set your name in Settings)</span>
              )}
            </dd>
          </div>
        </dl>
        {notice && (
          <p className="rd-alert rd-alert-bad" role="alert">
            {notice}
          </p>
        )}
        {typedNeeded && (
          <div className="rd-field rd-confirm-box">
            <label htmlFor="pm-ch-typed">Type the amount again to confirm (USD)</label>
            <input
              id="pm-ch-typed"
              ref={first}
              className="rd-amount-input num"
              inputMode="decimal"
              autoComplete="off"
              value={typed}
              onChange={(e) => setTyped(e.target.value)}
              onPaste={(e) => e.preventDefault()}
            />
            <p className="muted small">Needed because {need.reasons.join(' and ')}. Pasting is disabled.</p>
          </div>
        )}
        <footer className="rd-actions">
          <button type="button" onClick={() => setStep('amount')} disabled={charge.isPending}>
            Back
          </button>
          <button
            type="submit"
            className={live ? 'danger' : 'primary'}
            disabled={!armed || charge.isPending || need.missing.length > 0}
            aria-busy={charge.isPending}
          >
            {charge.isPending ? 'Charging…' : `Charge ${amountText(amountMinor, 'USD')}`}
          </button>
        </footer>
      </form>
    );
  } else if (created) {
    body = (
      <div className="rd-step">
        <PaymentDetail payment={created} actions={false} />
        <footer className="rd-actions">
          <button type="button" className="primary" onClick={props.onClose}>
            Close
          </button>
        </footer>
      </div>
    );
  }
  return (
    <Dialog
      titleId={titleId}
      title={
        step === 'result'
          ? 'Charge result'
          : step === 'confirm'
            ? 'Confirm the charge'
            : `Charge ${method.label}`
      }
      onClose={charge.isPending ? undefined : props.onClose}
      tone={live ? 'production' : undefined}
      testId="charge-dialog"
    >
      {body}
    </Dialog>
  );
}
