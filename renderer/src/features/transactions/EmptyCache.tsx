import { modKey } from '../../app/nav';
import { OFFLINE_REASON } from './connectivity';

interface Props {
  isDemo: boolean;
  isOffline: boolean;
  isBusy: boolean;
  onLoadDemo(): void;
  onSync(): void;
}

/** What a new user sees with nothing cached: what this list is, and the one or two ways to fill it. */
export function EmptyCache({ isDemo, isOffline, isBusy, onLoadDemo, onSync }: Props) {
  return (
    <section className="empty-state" data-testid="tx-empty">
      <h2>No transactions cached yet</h2>
      <p>
        The payment service has no search, so this list holds what Refund Desk has fetched. Look a payment up
        by its transaction number, your reference or a refund number in the box above (press <kbd>/</kbd>, or{' '}
        <kbd>{modKey('K')}</kbd> for every command), or sync a date range.
      </p>
      <div className="empty-actions">
        {isDemo && (
          <button
            type="button"
            className="primary"
            onClick={onLoadDemo}
            disabled={isOffline || isBusy}
            data-testid="load-demo"
          >
            Load demo data (last 15 days)
          </button>
        )}
        <button type="button" onClick={onSync} disabled={isOffline || isBusy}>
          Sync by date…
        </button>
      </div>
      {isOffline && <p className="small muted">{OFFLINE_REASON}</p>}
      {isDemo && !isOffline && (
        <p className="small muted">
          The Demo profile talks to the built-in sandbox: nothing here is real money.
        </p>
      )}
    </section>
  );
}
