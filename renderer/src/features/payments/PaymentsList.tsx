import { useMemo, useState } from 'react';
import { PAYMENT_KINDS, PAYMENT_STATES, type PaymentView } from '../../../../shared/ipc/contract/payments';
import { paymentsCsv } from '../../../../shared/csv/exports/payments';
import { downloadText } from '../../lib/download';
import { filterPayments, type PaymentFilters, paymentsFileName } from './filters';
import { amountText, KIND_LABELS, localTime, STATE_LABELS, vendorLabel } from './format';
import { PaymentBadge } from './PaymentBadge';

/** Every payment this desk created for the profile, live, with filters and CSV export. */
export function PaymentsList(props: {
  payments: readonly PaymentView[];
  loading: boolean;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}) {
  const [f, setF] = useState<PaymentFilters>({ kind: 'all', state: 'all', text: '' });
  const rows = useMemo(() => filterPayments(props.payments, f), [props.payments, f]);
  const unknown = props.payments.filter((p) => p.state === 'outcome_unknown').length;
  return (
    <div className="pm-list">
      {unknown > 0 && (
        <p className="rd-alert rd-alert-warn" role="status">
          {unknown === 1 ? '1 payment has' : `${unknown} payments have`} an unknown outcome: Refund Desk is
          looking for {unknown === 1 ? 'it' : 'them'} by reference. Do not take those payments again yet.
        </p>
      )}
      <div className="rd-toolbar" role="search" aria-label="Filter payments">
        <label>
          Kind{' '}
          <select
            value={f.kind}
            onChange={(e) => setF({ ...f, kind: e.target.value as PaymentFilters['kind'] })}
          >
            <option value="all">All kinds</option>
            {PAYMENT_KINDS.map((k) => (
              <option key={k} value={k}>
                {KIND_LABELS[k]}
              </option>
            ))}
          </select>
        </label>
        <label>
          State{' '}
          <select
            value={f.state}
            onChange={(e) => setF({ ...f, state: e.target.value as PaymentFilters['state'] })}
          >
            <option value="all">All states</option>
            <option value="waiting">Not final yet</option>
            {PAYMENT_STATES.map((s) => (
              <option key={s} value={s}>
                {STATE_LABELS[s]}
              </option>
            ))}
          </select>
        </label>
        <label>
          Search{' '}
          <input
            type="search"
            value={f.text}
            placeholder="Reference, transaction, customer"
            onChange={(e) => setF({ ...f, text: e.target.value })}
          />
        </label>
        <span className="muted small">
          {rows.length} of {props.payments.length}
        </span>
        <button
          type="button"
          className="rd-push-right"
          disabled={rows.length === 0}
          onClick={() => downloadText(paymentsFileName('payments', new Date()), paymentsCsv(rows))}
        >
          Export CSV
        </button>
      </div>
      <div className="rd-table-wrap">
        <table className="rd-table pm-table" data-testid="payments-table">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <th scope="col">Payment</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">State</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((p) => (
              <tr
                key={p.id}
                className={p.id === props.selectedId ? 'pm-row-selected' : undefined}
                data-payment-id={p.id}
                onClick={() => props.onSelect(p.id)}
              >
                <td className="nowrap">{localTime(p.createdAt)}</td>
                <td>
                  <button
                    type="button"
                    className="link mono"
                    aria-pressed={p.id === props.selectedId}
                    onClick={(e) => {
                      e.stopPropagation();
                      props.onSelect(p.id);
                    }}
                  >
                    {p.reference}
                  </button>
                  <div className="small muted">
                    {[
                      KIND_LABELS[p.kind],
                      p.cardLast4 ? `Card •••• ${p.cardLast4}` : vendorLabel(p.vendor),
                      p.customerName,
                    ]
                      .filter(Boolean)
                      .join(' · ')}
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
        {!props.loading && rows.length === 0 && (
          <p className="rd-empty">
            {props.payments.length === 0
              ? 'No payments yet. Create a payment link, a whitelabel payment or a card payment under New payment.'
              : 'No payments match these filters.'}
          </p>
        )}
        {props.loading && (
          <p className="rd-empty" role="status">
            Loading payments…
          </p>
        )}
      </div>
    </div>
  );
}
