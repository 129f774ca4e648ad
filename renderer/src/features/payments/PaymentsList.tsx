import { useFormat } from '../preferences/use-prefs';
import { useMemo, useState } from 'react';
import type { PaymentRow } from '../../../../shared/csv/exports/payments';
import { PAYMENT_KINDS, PAYMENT_STATES } from '../../../../shared/ipc/contract/payments';
import { ListToolbar } from '../refunds/ListToolbar';
import { exportPayments } from './exports';
import { filterPayments, type PaymentFilters } from './filters';
import { KIND_LABELS, STATE_LABELS, vendorLabel } from './format';
import { OptionFilter } from './OrderFields';
import { PaymentCells, PaymentHeadCells } from './PaymentCells';

/** Every payment this desk created for the profile, live, with filters and CSV export. */
export function PaymentsList(props: {
  payments: readonly PaymentRow[];
  loading: boolean;
  selectedId: string | undefined;
  onSelect: (id: string) => void;
}) {
  // Times in the person's chosen zone and format, like every other screen.
  const format = useFormat();
  const localTime = format.dateTimeSeconds;
  const [f, setF] = useState<PaymentFilters>({ kind: 'all', state: 'all', currency: 'all', text: '' });
  const rows = useMemo(() => filterPayments(props.payments, f), [props.payments, f]);
  const currencies = useMemo(
    () => [...new Set(props.payments.map((p) => p.currency))].sort(),
    [props.payments],
  );
  const unknown = props.payments.filter((p) => p.state === 'outcome_unknown').length;
  return (
    <div className="pm-list">
      {unknown > 0 && (
        <p className="rd-alert rd-alert-warn" role="status">
          {unknown === 1 ? '1 payment has' : `${unknown} payments have`} an unknown outcome: Refund Desk is
          looking for {unknown === 1 ? 'it' : 'them'} by reference. Do not take those payments again yet.
        </p>
      )}
      <ListToolbar
        label="Filter payments"
        currencies={currencies}
        currency={f.currency}
        onCurrency={(currency) => setF({ ...f, currency })}
        text={f.text}
        onText={(text) => setF({ ...f, text })}
        placeholder="Reference, transaction, customer"
        shown={rows.length}
        total={props.payments.length}
        onExport={(kind) => void exportPayments(kind, rows, format)}
      >
        <OptionFilter
          label="Kind"
          all="All kinds"
          value={f.kind}
          options={PAYMENT_KINDS.map((k) => [k, KIND_LABELS[k]] as const)}
          onChange={(kind) => setF({ ...f, kind })}
        />
        <OptionFilter
          label="State"
          all="All states"
          value={f.state}
          options={[
            ['waiting', 'Not final yet'] as const,
            ...PAYMENT_STATES.map((s) => [s, STATE_LABELS[s]] as const),
          ]}
          onChange={(state) => setF({ ...f, state })}
        />
      </ListToolbar>
      <div className="rd-table-wrap">
        <table className="rd-table pm-table" data-testid="payments-table">
          <thead>
            <tr>
              <th scope="col">Created</th>
              <PaymentHeadCells />
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
                <PaymentCells
                  payment={p}
                  pressed={p.id === props.selectedId}
                  onOpen={props.onSelect}
                  about={[
                    KIND_LABELS[p.kind],
                    p.cardLast4 ? `•••• ${p.cardLast4}` : vendorLabel(p.vendor),
                    p.customerName,
                  ]
                    .filter(Boolean)
                    .join(' · ')}
                />
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
