import { useEffect } from 'react';
import { useBridge } from '../../lib/bridge';
import { useStore } from './mutations';
import { useActiveProfile } from '../profiles/queries';

/** Refund states after which the payment's refundInfo at the service has changed. */
const CHANGED_AT_SERVICE = new Set(['accepted', 'succeeded', 'failed']);

/**
 * Keeps the cache current without the person pressing Refresh, whichever area is open:
 * - `transactions.updated` (an IPN confirmed by main with a fresh query) is written as is;
 * - `refunds.updated` for an accepted or settled refund re-fetches that one payment, so its refund
 *   history and remaining amount in the list and detail are what the service now says.
 */
function useLiveUpdates(profileId: string): void {
  const bridge = useBridge();
  const store = useStore(profileId);
  useEffect(() => {
    const offTx = bridge.on['transactions.updated']((e) => {
      if (e.profileId === profileId) void store([e.transaction], e.fetchedAt);
    });
    const offRefund = bridge.on['refunds.updated']((intent) => {
      if (intent.profileId !== profileId || !CHANGED_AT_SERVICE.has(intent.state)) return;
      void bridge['transactions.refresh']({ profileId, transactionNos: [intent.transactionNo] }).then((r) => {
        if (!r.ok || r.value.profileId !== profileId) return; // offline: the cache keeps what it had
        const fresh = r.value.items.flatMap((i) => (i.ok ? [i.transaction] : []));
        return store(fresh, r.value.fetchedAt);
      });
    });
    return () => {
      offTx();
      offRefund();
    };
  }, [bridge, store, profileId]);
}

function ForProfile({ profileId }: { profileId: string }) {
  useLiveUpdates(profileId);
  return null;
}

/** Mounted once in the shell. Renders nothing. */
export function LiveCacheUpdates() {
  const { profile } = useActiveProfile();
  return profile ? <ForProfile key={profile.id} profileId={profile.id} /> : null;
}
