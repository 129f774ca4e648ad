import { useEffect, useMemo } from 'react';
import { type AccountKey, sameAccount } from '../../../../shared/domain/account';
import { useBridge } from '../../lib/bridge';
import { useStore } from './mutations';
import { type ProfileView, useActiveProfile } from '../profiles/queries';

/** Refund states after which the payment's refundInfo at the service has changed. */
const CHANGED_AT_SERVICE = new Set(['accepted', 'succeeded', 'failed']);

/**
 * Keeps the cache current without the person pressing Refresh, whichever area is open:
 * - `transactions.updated` (an IPN confirmed by main with a fresh query) is written as is;
 * - `refunds.updated` for an accepted or settled refund re-fetches that one payment, so its refund
 *   history and remaining amount in the list and detail are what the service now says. That is this
 *   profile's refund, or one another desk (the CLI, a colleague on the team database) made to the same
 *   account: its profile id means nothing here, its account does.
 */
function useLiveUpdates(profileId: string, account: AccountKey): void {
  const bridge = useBridge();
  const store = useStore(profileId);
  useEffect(() => {
    const offTx = bridge.on['transactions.updated']((e) => {
      if (e.profileId === profileId) void store([e.transaction], e.fetchedAt);
    });
    const offRefund = bridge.on['refunds.updated']((intent) => {
      if (!CHANGED_AT_SERVICE.has(intent.state)) return;
      if (intent.profileId !== profileId && !sameAccount(intent, account)) return;
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
  }, [bridge, store, profileId, account]);
}

function ForProfile({ profile }: { profile: ProfileView }) {
  const { environment, effectiveBaseUrl, merchantNo, storeNo } = profile;
  const account = useMemo(
    () => ({ environment, baseUrl: effectiveBaseUrl ?? '', merchantNo, storeNo }),
    [environment, effectiveBaseUrl, merchantNo, storeNo],
  );
  useLiveUpdates(profile.id, account);
  return null;
}

/** Mounted once in the shell. Renders nothing. */
export function LiveCacheUpdates() {
  const { profile } = useActiveProfile();
  return profile ? <ForProfile key={profile.id} profile={profile} /> : null;
}
