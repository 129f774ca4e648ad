import { useFormat } from '../preferences/use-prefs';
import { useMemo, useState } from 'react';
import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import type { CustomerView } from '../../../../shared/ipc/contract/payments';
import type { ProfileView } from '../profiles/queries';
import { ChargeDialog } from './ChargeDialog';
import { CustomerDetail } from './CustomerDetail';
import { CustomerForm } from './CustomerForm';

/** The profile's customers: searchable list, registration, and one customer's page. */
export function CustomersView(props: {
  profile: ProfileView;
  customers: readonly CustomerView[];
  loading: boolean;
  payments: readonly PaymentRow[];
  onOpenPayment: (id: string) => void;
}) {
  // Times in the person's chosen zone and format, like every other screen.
  const localTime = useFormat().dateTimeSeconds;
  const [text, setText] = useState('');
  const [selected, setSelected] = useState<string>();
  const [registering, setRegistering] = useState(false);
  const [charging, setCharging] = useState<string>();
  const shown = useMemo(() => {
    const n = text.trim().toLowerCase();
    return props.customers.filter(
      (c) =>
        n === '' ||
        [`${c.firstName} ${c.lastName}`, c.email, c.customerNo, c.customerCode].some((h) =>
          h?.toLowerCase().includes(n),
        ),
    );
  }, [props.customers, text]);
  const customer = props.customers.find((c) => c.id === selected);
  const method = customer?.methods.find((m) => m.id === charging);

  return (
    <div className="pm-split">
      <div className="pm-list">
        <div className="rd-toolbar" role="search" aria-label="Find a customer">
          <label>
            Search{' '}
            <input
              type="search"
              value={text}
              placeholder="Name, email, customer no."
              onChange={(e) => setText(e.target.value)}
            />
          </label>
          <span className="muted small">
            {shown.length} of {props.customers.length}
          </span>
          <button
            type="button"
            className="primary rd-push-right"
            onClick={() => {
              setRegistering(true);
              setSelected(undefined);
            }}
          >
            Register customer…
          </button>
        </div>
        <div className="rd-table-wrap">
          <table className="rd-table" data-testid="customers-table">
            <thead>
              <tr>
                <th scope="col">Customer</th>
                <th scope="col">Customer no.</th>
                <th scope="col">Stored methods</th>
              </tr>
            </thead>
            <tbody>
              {shown.map((c) => (
                <tr
                  key={c.id}
                  className={c.id === selected ? 'pm-row-selected' : undefined}
                  onClick={() => {
                    setSelected(c.id);
                    setRegistering(false);
                  }}
                >
                  <td>
                    <button
                      type="button"
                      className="link"
                      aria-pressed={c.id === selected}
                      onClick={(e) => {
                        e.stopPropagation();
                        setSelected(c.id);
                        setRegistering(false);
                      }}
                    >
                      {c.firstName} {c.lastName}
                    </button>
                    <div className="small muted">
                      {c.email} · registered {localTime(c.createdAt)}
                    </div>
                  </td>
                  <td className="mono">{c.customerNo}</td>
                  <td>{c.methods.length === 0 ? '—' : c.methods.map((m) => m.label).join(', ')}</td>
                </tr>
              ))}
            </tbody>
          </table>
          {!props.loading && shown.length === 0 && (
            <p className="rd-empty">
              {props.customers.length === 0
                ? 'No customers registered from this desk yet.'
                : 'No customer matches.'}
            </p>
          )}
        </div>
      </div>
      <div className="pm-side">
        {registering ? (
          <CustomerForm
            profileId={props.profile.id}
            onDone={(c) => {
              setRegistering(false);
              if (c) setSelected(c.id);
            }}
          />
        ) : customer ? (
          <CustomerDetail
            customer={customer}
            payments={props.payments}
            onCharge={setCharging}
            onOpenPayment={props.onOpenPayment}
          />
        ) : (
          <p className="pm-hint muted">
            Choose a customer to see their stored methods and payments, or register one.
          </p>
        )}
      </div>
      {customer && method && (
        <ChargeDialog
          profile={props.profile}
          customer={customer}
          method={method}
          live={(id) => props.payments.find((p) => p.id === id)}
          onClose={() => setCharging(undefined)}
        />
      )}
    </div>
  );
}
