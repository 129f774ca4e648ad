import { useFormat } from '../preferences/use-prefs';
import { etaText } from './format';
import type { ReconProgress } from './use-recon-run';

interface Props {
  label: string;
  progress: ReconProgress;
  onPause: () => void;
  onResume: () => void;
  onCancel: () => void;
}

/** Step 3: the batch query in main — progress bar, ETA, pause / resume / cancel. */
export function ProgressPanel({ label, progress, onPause, onResume, onCancel }: Props) {
  const f = useFormat();
  const pct = progress.total === 0 ? 100 : Math.floor((progress.done / progress.total) * 100);
  const running = progress.state === 'running';
  return (
    <section className="recon-card" aria-labelledby="recon-run">
      <h2 id="recon-run">Checking {label} against the service</h2>
      <div
        className="recon-progress"
        role="progressbar"
        aria-valuemin={0}
        aria-valuemax={progress.total}
        aria-valuenow={progress.done}
        aria-label="Lookups done"
      >
        <div className="recon-progress-bar" style={{ width: `${pct}%` }} />
      </div>
      <p data-testid="recon-progress" role="status">
        {f.count(progress.done)} of {f.count(progress.total)} looked up
        {progress.failed > 0 && `, ${f.count(progress.failed)} failed`}
        {running ? ` · ${etaText(progress.etaMs)}` : progress.state === 'paused' ? ' · paused' : ''}
      </p>
      {progress.stoppedBecause && (
        <p role="alert" className="recon-error">
          Paused because the service kept failing: {progress.stoppedBecause.message} Nothing is lost — fix the
          cause and resume.
        </p>
      )}
      <p className="muted small">
        Answers are saved as they arrive: if the app closes, the run resumes where it stopped.
      </p>
      <div className="recon-actions">
        {running ? (
          <button type="button" className="button" onClick={onPause}>
            Pause
          </button>
        ) : (
          <button type="button" className="button primary" onClick={onResume}>
            Resume
          </button>
        )}
        <button type="button" className="button" onClick={onCancel}>
          Cancel and show what is done
        </button>
      </div>
    </section>
  );
}
