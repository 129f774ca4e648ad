import { useState } from 'react';
import { RESET_CACHE_WORDS, useCache } from '../../db/owner';

/**
 * "Reset local cache": a deliberate two-step action (Settings, and wherever the cache cannot be read).
 * The app reloads onto an empty cache afterwards.
 */
export function ResetCache({
  reason,
  reload = () => window.location.reload(),
}: {
  reason?: string;
  /** What happens once the cache is deleted (the app starts over; tests observe it). */
  reload?: () => void;
}) {
  const cache = useCache();
  const [confirming, setConfirming] = useState(false);
  const [error, setError] = useState<string>();
  const [busy, setBusy] = useState(false);
  const reset = async () => {
    setBusy(true);
    try {
      await cache.reset();
      reload();
    } catch (e) {
      setBusy(false);
      setError(
        `The cache could not be deleted (${e instanceof Error ? e.message : 'unknown reason'}). Close every Refund Desk window and try again.`,
      );
    }
  };
  return (
    <section className="rd-reset-cache" aria-label="Reset local cache" data-testid="reset-cache">
      {reason && <p>{reason}</p>}
      <p className="small muted">{RESET_CACHE_WORDS}</p>
      {!confirming ? (
        <button type="button" onClick={() => setConfirming(true)}>
          Reset local cache…
        </button>
      ) : (
        <div className="rd-actions">
          <button type="button" className="danger" disabled={busy} onClick={() => void reset()}>
            {busy ? 'Deleting…' : 'Delete the local cache and reload'}
          </button>
          <button type="button" disabled={busy} onClick={() => setConfirming(false)}>
            Cancel
          </button>
        </div>
      )}
      {error && (
        <p className="rd-error" role="alert">
          {error}
        </p>
      )}
    </section>
  );
}
