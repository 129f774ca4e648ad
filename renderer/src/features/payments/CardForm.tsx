import { type FormEvent, useEffect, useState } from 'react';
import { cardDigits, cardProblems, fullExpiryYear } from '../../../../shared/domain/card';
import {
  newPaymentReference,
  REFERENCE_MESSAGE,
  REFERENCE_PATTERN,
} from '../../../../shared/domain/checkout';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { profileMoneyMode } from '../profiles/money-mode';
import { useBridge } from '../../lib/bridge';
import type { ProfileView } from '../profiles/queries';
import { parseAmountField } from './amount';
import { useFormat } from '../preferences/use-prefs';
import { Field } from './Field';
import { described } from './field-props';
import { useCaptureCard } from './mutations';
import { AmountField, CustomerSelect, ReferenceField } from './OrderFields';
import { fieldErrorsOf } from './server-errors';
import { useCache } from '../../db/owner';

const NO_CARD = { number: '', expMonth: '', expYear: '', cvv: '' };
const MONTHS = Array.from({ length: 12 }, (_, i) => String(i + 1).padStart(2, '0'));

/**
 * The virtual terminal: a card payment typed in by staff (phone and mail orders). The card lives only in
 * this form's state until Charge is pressed; it is then handed to main once and cleared from the form
 * before the answer arrives. Nothing here stores, logs or caches it.
 */
export function CardForm(props: {
  profile: Pick<ProfileView, 'id' | 'environment' | 'baseUrl' | 'effectiveBaseUrl' | 'loopbackMoneyMode'>;
  customers: readonly CustomerView[];
  onCreated: (p: PaymentView) => void;
}) {
  const bridge = useBridge();
  const f = useFormat();
  const cache = useCache();
  // Live money decides, from where the calls go (a custom address may be production too).
  const live = profileMoneyMode(props.profile) === 'live';
  const [acknowledged, setAcknowledged] = useState<boolean | undefined>(live ? undefined : true);
  const [amount, setAmount] = useState('');
  const [reference, setReference] = useState(newPaymentReference);
  const [customerId, setCustomerId] = useState('');
  const [saveCard, setSaveCard] = useState(false);
  const [note, setNote] = useState('');
  const [card, setCard] = useState(NO_CARD);
  const [errors, setErrors] = useState<Record<string, string>>({});
  const capture = useCaptureCard();

  useEffect(() => {
    if (!live) return;
    void cache.setting(props.profile.id, 'payments.pciAcknowledged').then((v) => setAcknowledged(v === true));
  }, [cache, live, props.profile.id]);

  if (acknowledged === undefined) return <p role="status">Loading…</p>;
  if (!acknowledged)
    return (
      <div className="rd-confirm-box pm-pci" role="alert" data-testid="pci-warning">
        <h3>Before you type a card number: PCI DSS scope</h3>
        <p>
          Typing card numbers into this computer with a live-money profile puts it — and your organisation —
          in PCI DSS scope (SAQ D): the computer, its network and the people using it must meet the card
          industry’s security rules. Refund Desk sends the card straight to the payment service and never
          stores, logs or caches it, but the keyboard, screen and memory of this computer still see it.
        </p>
        <p>Prefer a payment link when the customer can pay themselves.</p>
        <button
          type="button"
          className="primary"
          onClick={() => {
            void cache.saveSetting(props.profile.id, 'payments.pciAcknowledged', true);
            setAcknowledged(true);
          }}
        >
          I understand — show the card form
        </button>
      </div>
    );

  // An answer: show it; when the bank asks for 3-D Secure, hand its page to the system browser.
  const answered = (result: PaymentView) => {
    props.onCreated(result);
    if (result.state === 'open' && result.authUrl)
      void bridge['payments.openPage']({ profileId: props.profile.id, id: result.id, page: '3ds' });
    if (result.state === 'rejected') return; // keep the order details to correct them (not the card)
    setAmount('');
    setNote('');
    setSaveCard(false);
    setReference(newPaymentReference());
  };

  const submit = (e: FormEvent) => {
    e.preventDefault();
    const found: Record<string, string> = {};
    const a = parseAmountField(amount, 'USD', f);
    if (!a.ok) found['amount'] = a.message;
    if (!REFERENCE_PATTERN.test(reference.trim())) found['reference'] = REFERENCE_MESSAGE;
    if (saveCard && !customerId) found['customerId'] = 'Choose the customer the card is saved for.';
    Object.assign(found, cardProblems(card, Date.now()));
    if (!a.ok || Object.keys(found).length > 0) {
      setErrors(found);
      document.getElementById(`pm-card-${Object.keys(found)[0]}`)?.focus();
      return;
    }
    setErrors({});
    const sent = { ...card, number: cardDigits(card.number), expYear: fullExpiryYear(card.expYear) };
    // Drop the card from the form before anything else happens.
    setCard(NO_CARD);
    void capture.capture(
      {
        profileId: props.profile.id,
        amountMinor: a.amountMinor,
        currency: 'USD',
        reference: reference.trim(),
        saveCard,
        card: sent,
        ...(customerId ? { customerId } : {}),
        ...(note.trim() ? { note: note.trim() } : {}),
        ...(live ? { pciAcknowledged: true } : {}),
      },
      { answered, failed: (err) => setErrors(fieldErrorsOf(err, 'card.')) },
    );
  };

  const id = (k: string) => `pm-card-${k}`;
  const setCardField = (k: keyof typeof NO_CARD, v: string) => {
    setCard((c) => ({ ...c, [k]: v }));
    setErrors(({ [k]: _gone, ...rest }) => rest);
  };
  return (
    <form className="pm-form" onSubmit={submit} noValidate aria-label="Card payment" autoComplete="off">
      <p className="muted small">
        {live
          ? 'LIVE MONEY: this charges a real card.'
          : 'Card data goes straight to the payment service; Refund Desk keeps only the last four digits.'}{' '}
        Test cards in Demo: 4242 4242 4242 4242 (paid at once), 4000 0000 0000 3220 (3-D Secure), 4000 0000
        0000 0002 (declined).
      </p>
      <div className="pm-grid">
        <AmountField
          id={id('amount')}
          currency="USD"
          value={amount}
          error={errors['amount']}
          onChange={setAmount}
        />
        <ReferenceField
          id={id('reference')}
          value={reference}
          error={errors['reference']}
          onChange={setReference}
        />
        <CustomerSelect
          id={id('customerId')}
          label="Customer (optional; enables 3-D Secure)"
          customers={props.customers}
          value={customerId}
          error={errors['customerId']}
          onChange={setCustomerId}
        />
        <Field id={id('note')} label="Note (optional)">
          <input id={id('note')} maxLength={100} value={note} onChange={(e) => setNote(e.target.value)} />
        </Field>
      </div>
      <fieldset className="pm-card">
        <legend>Card</legend>
        <Field id={id('number')} label="Card number" error={errors['number']}>
          <input
            {...described(id('number'), errors['number'])}
            className="mono"
            inputMode="numeric"
            autoComplete="off"
            data-lpignore="true"
            spellCheck={false}
            maxLength={23}
            value={card.number}
            onChange={(e) => setCardField('number', e.target.value)}
          />
        </Field>
        <Field id={id('expMonth')} label="Expiry month" error={errors['expMonth']}>
          <select
            {...described(id('expMonth'), errors['expMonth'])}
            value={card.expMonth}
            onChange={(e) => setCardField('expMonth', e.target.value)}
          >
            <option value="">MM</option>
            {MONTHS.map((m) => (
              <option key={m}>{m}</option>
            ))}
          </select>
        </Field>
        <Field id={id('expYear')} label="Expiry year" error={errors['expYear']}>
          <input
            {...described(id('expYear'), errors['expYear'])}
            className="num pm-year"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            placeholder="YY"
            value={card.expYear}
            onChange={(e) => setCardField('expYear', e.target.value)}
          />
        </Field>
        <Field id={id('cvv')} label="Security code" error={errors['cvv']}>
          <input
            {...described(id('cvv'), errors['cvv'])}
            className="num pm-cvv"
            type="password"
            inputMode="numeric"
            autoComplete="off"
            maxLength={4}
            value={card.cvv}
            onChange={(e) => setCardField('cvv', e.target.value)}
          />
        </Field>
      </fieldset>
      <label className="rd-check pm-save">
        <input type="checkbox" checked={saveCard} onChange={(e) => setSaveCard(e.target.checked)} />
        Save card on the customer for later charges (the service stores it; Refund Desk keeps a masked
        reference)
      </label>
      {capture.error && (
        <p className="rd-alert rd-alert-bad" role="alert">
          {capture.error.message}
        </p>
      )}
      <footer className="rd-actions pm-actions">
        <button
          type="submit"
          className={live ? 'danger' : 'primary'}
          disabled={capture.pending}
          aria-busy={capture.pending}
        >
          {capture.pending ? 'Charging…' : `Charge ${amount.trim() || '…'} USD`}
        </button>
      </footer>
    </form>
  );
}
