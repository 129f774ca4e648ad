import { useFormat } from '../preferences/use-prefs';
import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import type { CustomerView } from '../../../../shared/ipc/contract/payments';
import { KIND_LABELS } from './format';
import { PaymentCells, PaymentHeadCells } from './PaymentCells';

/** One customer: who they are, their stored methods (masked) and their payments from this desk. */
export function CustomerDetail(props: {
  customer: CustomerView;
  payments: readonly PaymentRow[];
  onCharge: (methodId: string) => void;
  onOpenPayment: (id: string) => void;
}) {
  // Times in the person's chosen zone and format, like every other screen.
  const localTime = useFormat().dateTimeSeconds;
  const c = props.customer;
  const mine = props.payments.filter((p) => p.customerId === c.id);
  return (
    <section
      className="pm-panel"
      aria-label={`Customer ${c.firstName} ${c.lastName}`}
      data-testid="customer-detail"
    >
      <h2>
        {c.firstName} {c.lastName}
      </h2>
      <dl className="rd-facts rd-facts-confirm">
        <div>
          <dt>Customer no.</dt>
          <dd className="mono">{c.customerNo}</dd>
        </div>
        <div>
          <dt>Email</dt>
          <dd>{c.email}</dd>
        </div>
        <div>
          <dt>Country</dt>
          <dd>
            {c.countryCode}
            {c.state ? ` · ${c.state}` : ''}
          </dd>
        </div>
        <div>
          <dt>Your code</dt>
          <dd>{c.customerCode ?? '—'}</dd>
        </div>
        <div>
          <dt>Registered</dt>
          <dd>{localTime(c.createdAt)}</dd>
        </div>
        <div>
          <dt>By</dt>
          <dd>{c.operator}</dd>
        </div>
      </dl>

      <h3>Stored methods</h3>
      {c.methods.length === 0 ? (
        <p className="muted">
          None yet. Take a card payment for this customer with “Save card” ticked; the stored method appears
          here once the service confirms it.
        </p>
      ) : (
        <ul className="pm-methods" data-testid="stored-methods">
          {c.methods.map((m) => (
            <li key={m.id}>
              <span>
                {m.label} <span className="mono muted">{m.vaultMasked}</span>
                <span className="small muted"> · stored {localTime(m.createdAt)}</span>
              </span>
              <button type="button" className="primary" onClick={() => props.onCharge(m.id)}>
                Charge…
              </button>
            </li>
          ))}
        </ul>
      )}

      <h3>Payments</h3>
      {mine.length === 0 ? (
        <p className="muted">No payments for this customer from this desk yet.</p>
      ) : (
        <div className="rd-table-wrap">
          <table className="rd-table">
            <thead>
              <tr>
                <PaymentHeadCells />
              </tr>
            </thead>
            <tbody>
              {mine.map((p) => (
                <tr key={p.id}>
                  <PaymentCells
                    payment={p}
                    onOpen={props.onOpenPayment}
                    about={`${KIND_LABELS[p.kind]} · ${localTime(p.createdAt)}`}
                  />
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
