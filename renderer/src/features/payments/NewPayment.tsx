import { useState } from 'react';
import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import type { ProfileView } from '../profiles/queries';
import { CardForm } from './CardForm';
import { CheckoutForm } from './CheckoutForm';
import { PaymentDetail } from './PaymentDetail';

const KINDS = [
  {
    id: 'link',
    label: 'Payment link',
    hint: 'A hosted checkout page (link and QR code) the customer pays on.',
  },
  {
    id: 'whitelabel',
    label: 'Whitelabel',
    hint: 'SDK data for a page of your own (PayPal, Venmo, cards, Apple Pay, Google Pay).',
  },
  { id: 'card', label: 'Card (virtual terminal)', hint: 'Type in a card for a phone or mail order.' },
] as const;
type Kind = (typeof KINDS)[number]['id'];

/** Choose what to create; the form on the left, what it created (followed live) on the right. */
export function NewPayment(props: {
  profile: ProfileView;
  customers: readonly CustomerView[];
  live: (id: string) => PaymentRow | undefined;
}) {
  const [kind, setKind] = useState<Kind>('link');
  const [createdId, setCreatedId] = useState<string>();
  const [createdSnapshot, setCreatedSnapshot] = useState<PaymentView>();
  const created = createdId ? (props.live(createdId) ?? createdSnapshot) : undefined;
  const onCreated = (p: PaymentView) => {
    setCreatedId(p.id);
    setCreatedSnapshot(p);
  };
  return (
    <div className="pm-split">
      <div className="pm-panel">
        <div className="pm-kinds" role="radiogroup" aria-label="What to create">
          {KINDS.map((k) => (
            <label key={k.id} className={k.id === kind ? 'pm-kind pm-kind-on' : 'pm-kind'}>
              <input
                type="radio"
                name="pm-kind"
                value={k.id}
                checked={k.id === kind}
                onChange={() => setKind(k.id)}
              />
              <span className="pm-kind-label">{k.label}</span>
              <span className="small muted">{k.hint}</span>
            </label>
          ))}
        </div>
        {kind === 'card' ? (
          <CardForm
            key={props.profile.id}
            profile={props.profile}
            customers={props.customers}
            onCreated={onCreated}
          />
        ) : (
          <CheckoutForm
            key={`${kind}-${props.profile.id}`}
            kind={kind}
            profile={props.profile}
            customers={props.customers}
            onCreated={onCreated}
          />
        )}
      </div>
      <div className="pm-side">
        {created ? (
          <PaymentDetail payment={created} />
        ) : (
          <p className="pm-hint muted">
            What you create appears here, with its link, QR code or SDK data, and is followed to its final
            status.
          </p>
        )}
      </div>
    </div>
  );
}
