import { useFormat } from '../preferences/use-prefs';
import { formatAge } from './format';
import type { Connectivity } from './connectivity';
import { useNow } from './use-now';

/** Shown while the service cannot be reached: what still works, how old the data is, and Try again. */
export function OfflineBanner({
  conn,
  newestFetch,
}: {
  conn: Connectivity;
  newestFetch: string | null | undefined;
}) {
  const now = useNow();
  const f = useFormat();
  if (conn.state !== 'offline') return null;
  return (
    <div className="tx-offline" role="alert" data-testid="offline-banner">
      <div className="tx-offline-text">
        <strong title={conn.reason}>Offline — the payment service cannot be reached.</strong>{' '}
        {newestFetch
          ? `You are browsing cached data, last fetched ${formatAge(newestFetch, now)} (${f.dateTime(newestFetch)}, ${f.zoneLabel}).`
          : 'Nothing is cached for this profile yet.'}{' '}
        Search, filters and export still work; lookups, refresh, sync and refunds wait for the connection.
        {/* The failure's own words are the tooltip above and the header's: said once on the screen. */}
      </div>
      <button type="button" onClick={conn.recheck} disabled={conn.isChecking}>
        {conn.isChecking ? 'Checking…' : 'Try again'}
      </button>
    </div>
  );
}
