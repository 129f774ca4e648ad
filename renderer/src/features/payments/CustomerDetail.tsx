import type { CustomerView, PaymentView } from '../../../../shared/ipc/contract/payments';
import { amountText, KIND_LABELS, localTime } from './format';
import { PaymentBadge } from './PaymentBadge';

/** One customer: who they are, their stored methods (masked) and their payments from this desk. */
export function CustomerDetail(props: {
  customer: CustomerView;
  payments: readonly PaymentView[];
  onCharge: (methodId: string) => void;
  onOpenPayment: (id: string) => void;
}) {
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
                <th scope="col">Payment</th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">State</th>
              </tr>
            </thead>
            <tbody>
              {mine.map((p) => (
                <tr key={p.id}>
                  <td>
                    <button type="button" className="link mono" onClick={() => props.onOpenPayment(p.id)}>
                      {p.reference}
                    </button>
                    <div className="small muted">
                      {KIND_LABELS[p.kind]} · {localTime(p.createdAt)}
                    </div>
                  </td>
                  <td className="num">{amountText(p.amountMinor, p.currency)}</td>
                  <td>
                    <PaymentBadge state={p.state} />
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
        </div>
      )}
    </section>
  );
}
