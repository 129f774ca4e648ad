import { type FormEvent, useId, useState } from 'react';
import { DateField } from '../../lib/ui/DateField';
import { SYNC_MAX_SPAN_DAYS } from '../../../../shared/ipc/contract/transactions-batch';
import { defaultSyncRange, serviceToday, splitSyncWindows } from './sync-windows';

/**
 * Sync by date range: service calendar days (UTC+8) — the service's transaction list counts days in
 * its own zone, whatever zone the screens show — walked in windows of at most 15 days, because the
 * service allows no more per call. A range cannot end after today.
 */
export function SyncPanel({
  onStart,
  onClose,
}: {
  onStart(from: string, to: string): void;
  onClose(): void;
}) {
  const uid = useId();
  const [range, setRange] = useState(() => defaultSyncRange(Date.now()));
  const [today] = useState(() => serviceToday(Date.now()));
  const split = splitSyncWindows(range.from, range.to, today);
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
      onKeyDown={(e) => {
        if (e.key !== 'Escape') return;
        e.stopPropagation();
        onClose();
      }}
    >
      <strong>Service days (UTC+8)</strong>
      <label>
        From{' '}
        <DateField
          value={range.from}
          onChange={(v) => setRange({ ...range, from: v })}
          aria-label="Sync from (service day, UTC+8)"
          aria-describedby={`${uid}-note`}
        />
      </label>
      <label>
        to{' '}
        <DateField
          value={range.to}
          onChange={(v) => setRange({ ...range, to: v })}
          aria-label="Sync to (service day, UTC+8)"
          aria-describedby={`${uid}-note`}
        />
      </label>
      <span
        id={`${uid}-note`}
        className={`small ${'error' in split ? 'tx-sync-error' : 'muted'}`}
        role={'error' in split ? 'alert' : undefined}
        data-testid="sync-note"
      >
        {'error' in split
          ? split.error
          : `${split.windows.length} request${split.windows.length === 1 ? '' : 's'} of ≤ ${SYNC_MAX_SPAN_DAYS} days. The service counts days in UTC+8.`}
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
