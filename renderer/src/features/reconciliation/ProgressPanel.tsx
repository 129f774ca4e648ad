import type { Formatters } from '../preferences/format';
import { useFormat } from '../preferences/use-prefs';
import { etaText } from './format';
import type { ReconProgress } from './use-recon-run';

interface Props {
  label: string;
  progress: ReconProgress;
  busy: string | null;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}

/** What the run is doing, in words. */
function doing(p: ReconProgress, f: Formatters): string {
  if (p.phase === 'receiving') return 'Handing the ledger over';
  if (p.phase === 'listing')
    return `Reading the service’s list of the period: window ${f.count(Math.min(p.done + 1, p.total))} of ${f.count(p.total)}`;
  if (p.phase === 'lookups')
    return `${f.count(p.done)} of ${f.count(p.total)} looked up${p.failed > 0 ? `, ${f.count(p.failed)} failed` : ''}`;
  return 'Matching and writing the report';
}

/**
 * Step 3: the run in main — reading the period's list, looking up the rest, matching — with progress,
 * ETA, Pause, Resume and Cancel. Cancel always ends in the report of what was done.
 */
export function ProgressPanel({ label, progress, busy, onPause, onResume, onCancel }: Props) {
  const f = useFormat();
  const pct = progress.total === 0 ? 0 : Math.floor((progress.done / progress.total) * 100);
  const running = progress.state === 'running';
  const paused = progress.state === 'paused';
  return (
    <section className="recon-card" aria-labelledby="recon-run">
      <h2 id="recon-run">Checking {label} against the service</h2>
      <div
        className="recon-progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
        aria-label={progress.phase === 'listing' ? 'List windows read' : 'Lookups done'}
      >
        <div className="recon-progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <p data-testid="recon-progress" role="status">
        {busy ?? doing(progress, f)}
        {running && progress.phase === 'lookups' ? ` · ${etaText(progress.etaMs)}` : ''}
        {paused ? ' · paused' : ''}
        {progress.state === 'cancelled' ? ' · cancelled, writing the report of what was done' : ''}
      </p>
      {progress.stoppedBecause && (
        <p role="alert" className="recon-error">
          Paused because the service kept failing: {progress.stoppedBecause.message} Nothing is lost — fix the
          cause and resume, or cancel to get the report of what was done.
        </p>
      )}
      <p className="muted small">
        Everything is saved as it arrives: if the app closes, the run comes back paused and resumes where it
        stopped.
      </p>
      <div className="recon-actions">
        {running && (
          <button type="button" className="button" onClick={onPause}>
            Pause
          </button>
        )}
        {paused && (
          <button type="button" className="button primary" onClick={onResume}>
            Resume
          </button>
        )}
        {(running || paused) && (
          <button type="button" className="button" onClick={onCancel}>
            Cancel and show what is done
          </button>
        )}
      </div>
    </section>
  );
}
