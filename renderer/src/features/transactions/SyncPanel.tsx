import { type FormEvent, useState } from 'react';
import { SYNC_MAX_SPAN_DAYS } from '../../../../shared/ipc/contract/transactions-batch';
import { defaultSyncRange, splitSyncWindows } from './sync-windows';

/**
 * Sync by date range: service calendar days (UTC+8), walked in windows of at most 15 days, because
 * the service's transaction list allows no more per call.
 */
export function SyncPanel({
  onStart,
  onClose,
}: {
  onStart(from: string, to: string): void;
  onClose(): void;
}) {
  const [range, setRange] = useState(() => defaultSyncRange(Date.now()));
  const split = splitSyncWindows(range.from, range.to);
  const submit = (e: FormEvent) => {
    e.preventDefault();
    if ('error' in split) return;
    onStart(range.from, range.to);
    onClose();
  };
  return (
    <form
      className="tx-sync"
      onSubmit={submit}
      aria-label="Sync by date range"
      data-testid="sync-panel"
      onKeyDown={(e) => e.key === 'Escape' && onClose()}
    >
      <label>
        From{' '}
        <input
          type="date"
          value={range.from}
          onChange={(e) => setRange({ ...range, from: e.target.value })}
          aria-label="Sync from"
        />
      </label>
      <label>
        to{' '}
        <input
          type="date"
          value={range.to}
          onChange={(e) => setRange({ ...range, to: e.target.value })}
          aria-label="Sync to"
        />
      </label>
      <span className="small muted">
        {'error' in split
          ? split.error
          : `Service calendar days (UTC+8) · ${split.windows.length} request${split.windows.length === 1 ? '' : 's'} of ≤ ${SYNC_MAX_SPAN_DAYS} days`}
      </span>
      <button type="submit" className="primary" disabled={'error' in split}>
        Start sync
      </button>
      <button type="button" onClick={onClose}>
        Close
      </button>
    </form>
  );
}
