import { useFormat } from '../preferences/use-prefs';
import { useQuery } from '@tanstack/react-query';
import { useMemo, useState } from 'react';
import { useBridge } from '../../lib/bridge';
import { ListToolbar } from '../refunds/ListToolbar';
import { exportPaymentAudit } from './exports';
import { OptionFilter } from './OrderFields';
import { paymentAuditQuery } from './queries';

const ACTION_LABELS: Record<string, string> = {
  'customer.register': 'Register customer',
  'payment.link': 'Payment link',
  'payment.whitelabel': 'Whitelabel payment',
  'payment.card': 'Card payment',
  'payment.charge': 'Stored-method charge',
  'payment.check': 'Check by reference',
  'payment.final': 'Final status',
  'method.saved': 'Card stored',
  'payment.note': 'Note on a payment',
};

/** The read-only record of every payments action: who, what, when and the service's answer. */
export function PaymentAuditView({ profileId }: { profileId: string }) {
  // Times in the person's chosen zone and format, like every other screen.
  const format = useFormat();
  const localTime = format.dateTimeSeconds;
  const bridge = useBridge();
  const audit = useQuery(paymentAuditQuery(bridge, profileId));
  const [text, setText] = useState('');
  const [action, setAction] = useState('all');
  const [currency, setCurrency] = useState('all');
  const currencies = useMemo(
    () => [...new Set((audit.data ?? []).flatMap((e) => (e.currency ? [e.currency] : [])))].sort(),
    [audit.data],
  );
  const rows = useMemo(() => {
    const n = text.trim().toLowerCase();
    return (audit.data ?? []).filter(
      (e) =>
        (action === 'all' || e.action === action) &&
        (currency === 'all' || e.currency === currency) &&
        (n === '' ||
          [e.reference, e.transactionNo, e.customerNo, e.operator, e.outcome, e.action, e.retMsg].some((h) =>
            h?.toLowerCase().includes(n),
          )),
    );
  }, [audit.data, text, action, currency]);
  return (
    <div className="pm-list">
      <ListToolbar
        label="Filter the payments audit log"
        currencies={currencies}
        currency={currency}
        onCurrency={setCurrency}
        text={text}
        onText={setText}
        placeholder="Reference, transaction, operator, outcome"
        shown={rows.length}
        total={audit.data?.length ?? 0}
        onExport={(kind) => void exportPaymentAudit(kind, rows, format)}
      >
        <OptionFilter
          label="Action"
          all="All actions"
          value={action}
          options={Object.entries(ACTION_LABELS).map(([code, label]) => [code, label] as const)}
          onChange={setAction}
        />
      </ListToolbar>
      {audit.isError && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load the audit log: {audit.error.message}
        </p>
      )}
      <div className="rd-table-wrap">
        <table className="rd-table" data-testid="payment-audit-table">
          <thead>
            <tr>
              <th scope="col">When</th>
              <th scope="col">Operator</th>
              <th scope="col">Action</th>
              <th scope="col">Outcome</th>
              <th scope="col">Reference / transaction</th>
              <th scope="col" className="num">
                Amount
              </th>
              <th scope="col">Service said</th>
            </tr>
          </thead>
          <tbody>
            {rows.map((e, i) => (
              <tr key={`${e.at}-${i}`}>
                <td className="nowrap">{localTime(e.at)}</td>
                <td>{e.operator}</td>
                <td>{ACTION_LABELS[e.action] ?? e.action}</td>
                <td>{e.outcome.replace(/_/g, ' ')}</td>
                <td className="mono">
                  {e.reference ?? e.customerNo ?? '—'}
                  {e.transactionNo && <div className="small muted">{e.transactionNo}</div>}
                </td>
                <td className="num">
                  {e.amountMinor !== undefined && e.currency
                    ? format.amountCode(e.amountMinor, e.currency)
                    : '—'}
                </td>
                <td>{e.retMsg ? `${e.retMsg}${e.retCode ? ` (${e.retCode})` : ''}` : (e.detail ?? '—')}</td>
              </tr>
            ))}
          </tbody>
        </table>
        {audit.isSuccess && rows.length === 0 && <p className="rd-empty">Nothing recorded yet.</p>}
      </div>
      <p className="muted small">Times are shown in your local time; exports are in UTC and say so.</p>
    </div>
  );
}
