import type { BatchStatus } from '../../../../../shared/batch/execution';
import { useFormat } from '../../preferences/use-prefs';
import { TotalsList } from './totals';
import { etaWords } from './words';

interface Props {
  status: BatchStatus;
  busy: string | null;
  error: string | null;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}

/**
 * Step 4: the batch executing in main, row by row, with progress, the time left at this run's pace,
 * Pause, Resume and Cancel. Everything is in the database: if the app closes, the batch resumes where
 * it was when the desk starts again.
 */
export function BatchProgress({ status: s, busy, error, onPause, onResume, onCancel }: Props) {
  const f = useFormat();
  const done = s.toSend - s.pending;
  const pct = s.toSend === 0 ? 100 : Math.floor((done / s.toSend) * 100);
  const running = s.state === 'running';
  const paused = s.state === 'paused';
  return (
    <section className="recon-card" aria-labelledby="rb-run">
      <h2 id="rb-run">
        Refunding {s.fileName} — batch {s.batchId}
      </h2>
      <p className="muted small">
        {s.profileName} · started {f.dateTime(s.createdAt)} by {s.operator || 'an unnamed operator'} ·{' '}
        <TotalsList totals={s.totals} />
      </p>
      <div
        className="recon-progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={s.toSend}
        aria-valuenow={done}
        aria-label="Rows done"
      >
        <div className="recon-progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <p role="status" data-testid="batch-progress">
        {busy
          ? `${busy}…`
          : `${f.count(done)} of ${f.count(s.toSend)} rows done · ${f.count(s.refunded)} refunded` +
            (s.refused > 0 ? ` · ${f.count(s.refused)} refused` : '') +
            (s.unknown > 0 ? ` · ${f.count(s.unknown)} outcome unknown` : '') +
            (running && s.active ? ` · ${etaWords(s.etaMs)}` : '') +
            (paused ? ' · paused' : '') +
            (running && !s.active ? ' · waiting for the desk running it' : '')}
      </p>
      {s.resumed && (
        <p className="small muted">This file’s unfinished batch was resumed, not started again.</p>
      )}
      {error && (
        <p role="alert" className="recon-error">
          {error}
        </p>
      )}
      <p className="muted small">
        Each row is recorded before it is sent: if the app closes, the batch resumes where it was, and a
        refund whose outcome is not known is checked with the service, never sent twice.
      </p>
      <div className="recon-actions">
        {running && (
          <button type="button" className="button" onClick={onPause} disabled={busy !== null}>
            Pause
          </button>
        )}
        {paused && (
          <button type="button" className="button primary" onClick={onResume} disabled={busy !== null}>
            Resume
          </button>
        )}
        {(running || paused) && (
          <button type="button" className="button" onClick={onCancel} disabled={busy !== null}>
            Cancel the rest
          </button>
        )}
      </div>
    </section>
  );
}
