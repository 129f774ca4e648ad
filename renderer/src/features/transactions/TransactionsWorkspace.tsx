import { useContext } from 'react';
import { modKey } from '../../app/nav';
import { RefundDialogContext } from '../refunds/dialog-context';
import { ConnectivityContext } from './connectivity';
import { useActiveProfile } from '../profiles/queries';
import { TransactionsView } from './TransactionsView';
import { useConnectivityState } from './use-connectivity-state';
import './transactions.css';

/**
 * The Transactions area: scoped to the active merchant profile (switching profile shows that
 * profile's cache only), with the online/offline state shared by every action on the screen, and
 * the detail panel's Refund… opening the refunds feature's dialog when its host is mounted.
 */
export function TransactionsWorkspace({ onRefund: given }: { onRefund?: (transactionNo: string) => void }) {
  const { profile, isPending, error } = useActiveProfile();
  // The refund dialog lives in the refunds feature: an explicit opener wins, else its context; with
  // neither, the button stays disabled and says why.
  const refunds = useContext(RefundDialogContext);
  const onRefund = given ?? (refunds ? (no: string) => refunds.open(no) : undefined);
  const conn = useConnectivityState(profile?.id);
  if (isPending)
    return (
      <p className="muted" role="status">
        Loading profiles…
      </p>
    );
  if (error || !profile) {
    return (
      <section className="empty-state" data-testid="tx-no-profile">
        <h2>No merchant profile is active</h2>
        <p>
          Transactions belong to a merchant profile. Add or choose one in Settings ({modKey('6')}), then come
          back here.
        </p>
        {error && <p className="small muted">{error.message}</p>}
      </section>
    );
  }
  return (
    <ConnectivityContext.Provider value={conn}>
      <TransactionsView key={profile.id} profile={profile} {...(onRefund ? { onRefund } : {})} />
    </ConnectivityContext.Provider>
  );
}
