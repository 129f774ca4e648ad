import { useEffect, useState } from 'react';
import { AppInfoFooter } from '../features/shell/AppInfoFooter';
import { ComingSoon } from '../features/shell/ComingSoon';
import { PaymentsScreen } from '../features/payments/PaymentsScreen';
import { HealthIndicator } from '../features/shell/HealthIndicator';
import { ReconciliationScreen } from '../features/reconciliation/ReconciliationScreen';
import { LiveCacheUpdates } from '../features/transactions/LiveCacheUpdates';
import { TransactionsWorkspace } from '../features/transactions/TransactionsWorkspace';
import { AuditView } from '../features/refunds/AuditView';
import { RefundDialogHost } from '../features/refunds/RefundDialogHost';
import { RefundsView } from '../features/refunds/RefundsView';
import { SettingsScreen } from '../features/settings/SettingsScreen';
import { AREAS, type AreaId } from './areas';

/** The app shell: navigation rail, header with the health indicator, and the active area. */
export function App() {
  const [area, setArea] = useState<AreaId>('transactions');
  const current = AREAS.find((a) => a.id === area) ?? AREAS[0];

  useEffect(() => {
    // Ctrl/Cmd+1…6 switch areas, as in most desktop tools.
    const onKey = (e: KeyboardEvent) => {
      if (!(e.ctrlKey || e.metaKey) || e.altKey) return;
      const hit = AREAS.find((a) => a.shortcut === e.key);
      if (hit) {
        e.preventDefault();
        setArea(hit.id);
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, []);

  return (
    <RefundDialogHost>
      <LiveCacheUpdates />
      <div className="shell">
        <nav className="rail" aria-label="Main">
          <div className="brand">Refund Desk</div>
          <ul>
            {AREAS.map((a) => (
              <li key={a.id}>
                <button
                  type="button"
                  className={a.id === area ? 'nav-item active' : 'nav-item'}
                  aria-current={a.id === area ? 'page' : undefined}
                  onClick={() => setArea(a.id)}
                  title={`${a.label} (Ctrl+${a.shortcut})`}
                >
                  {a.label}
                </button>
              </li>
            ))}
          </ul>
          <AppInfoFooter />
        </nav>
        <div className="workspace">
          <header className="topbar">
            <h1>{current.label}</h1>
            <HealthIndicator />
          </header>
          <main className="content">
            {area === 'transactions' ? (
              <TransactionsWorkspace />
            ) : area === 'refunds' ? (
              <RefundsView />
            ) : area === 'audit' ? (
              <AuditView />
            ) : area === 'settings' ? (
              <SettingsScreen />
            ) : area === 'reconciliation' ? (
              <ReconciliationScreen />
            ) : area === 'payments' ? (
              <PaymentsScreen />
            ) : (
              <ComingSoon title={current.label} description={current.coming} />
            )}
          </main>
        </div>
      </div>
    </RefundDialogHost>
  );
}
