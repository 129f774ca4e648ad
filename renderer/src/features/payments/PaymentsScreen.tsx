import './payments.css';
import { useQuery } from '@tanstack/react-query';
import { useState } from 'react';
import { moneyModeOf } from '../../../../shared/domain/profile';
import type { PaymentView } from '../../../../shared/ipc/contract/payments';
import { useBridge } from '../../lib/bridge';
import { useActiveProfile } from '../profiles/queries';
import { CustomersView } from './CustomersView';
import { NewPayment } from './NewPayment';
import { PaymentAuditView } from './PaymentAuditView';
import { PaymentDetail } from './PaymentDetail';
import { PaymentsList } from './PaymentsList';
import { customersQuery, paymentsQuery, usePaymentEvents, usePaymentRows } from './queries';

/** One empty list, so the rows are not worked out again on every render while payments load. */
const NONE: readonly PaymentView[] = [];

const TABS = [
  { id: 'payments', label: 'Payments' },
  { id: 'new', label: 'New payment' },
  { id: 'customers', label: 'Customers' },
  { id: 'audit', label: 'Audit' },
] as const;
type Tab = (typeof TABS)[number]['id'];

/** The Payments area: payments this desk created, new ones, customers and their stored methods, audit. */
export function PaymentsScreen() {
  const { profile, isPending } = useActiveProfile();
  if (isPending) return <p role="status">Loading…</p>;
  if (!profile)
    return (
      <section className="empty-state">
        <h2>No merchant profile is active</h2>
        <p>Add or choose a profile in Settings to take payments.</p>
      </section>
    );
  return <ForProfile key={profile.id} profile={profile} />;
}

function ForProfile({ profile }: { profile: NonNullable<ReturnType<typeof useActiveProfile>['profile']> }) {
  const bridge = useBridge();
  usePaymentEvents();
  const payments = useQuery(paymentsQuery(bridge, profile.id));
  const customers = useQuery(customersQuery(bridge, profile.id));
  const [tab, setTab] = useState<Tab>('payments');
  const [selected, setSelected] = useState<string>();
  // Each paid payment with its refunds as Transactions shows them (card, list, customers, export).
  const list = usePaymentRows(profile.id, payments.data ?? NONE);
  const live = (id: string) => list.find((p) => p.id === id);
  const current = selected ? live(selected) : undefined;
  const openPayment = (id: string) => {
    setSelected(id);
    setTab('payments');
  };

  return (
    <section className="rd-view pm-screen" aria-label="Payments">
      <div className="pm-tabs" role="tablist" aria-label="Payments">
        {TABS.map((t) => (
          <button
            key={t.id}
            type="button"
            role="tab"
            id={`pm-tab-${t.id}`}
            aria-selected={t.id === tab}
            aria-controls="pm-tabpanel"
            className={t.id === tab ? 'pm-tab pm-tab-on' : 'pm-tab'}
            onClick={() => setTab(t.id)}
          >
            {t.label}
          </button>
        ))}
        {moneyModeOf(profile.environment, profile.effectiveBaseUrl ?? profile.baseUrl) === 'live' && (
          <span className="rd-badge rd-badge-bad pm-live">LIVE MONEY</span>
        )}
      </div>
      {(payments.isError || customers.isError) && (
        <p className="rd-alert rd-alert-bad" role="alert">
          Could not load {payments.isError ? 'payments' : 'customers'}:{' '}
          {(payments.error ?? customers.error)?.message}
        </p>
      )}
      <div id="pm-tabpanel" role="tabpanel" aria-labelledby={`pm-tab-${tab}`}>
        {tab === 'payments' && (
          <div className={current ? 'pm-split' : undefined}>
            <PaymentsList
              payments={list}
              loading={payments.isPending}
              selectedId={selected}
              onSelect={setSelected}
            />
            {current && (
              <div className="pm-side">
                <PaymentDetail payment={current} onClose={() => setSelected(undefined)} />
              </div>
            )}
          </div>
        )}
        {tab === 'new' && <NewPayment profile={profile} customers={customers.data ?? []} live={live} />}
        {tab === 'customers' && (
          <CustomersView
            profile={profile}
            customers={customers.data ?? []}
            loading={customers.isPending}
            payments={list}
            onOpenPayment={openPayment}
          />
        )}
        {tab === 'audit' && <PaymentAuditView profileId={profile.id} />}
      </div>
    </section>
  );
}
