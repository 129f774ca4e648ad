import { jobEta } from './job-eta';
import type { JobState } from './use-batch-job';
import { useNow } from './use-now';

/** The running job's progress bar with the time left and Cancel, then its outcome until dismissed. */
export function JobBar({ job, onCancel, onDismiss }: { job: JobState; onCancel(): void; onDismiss(): void }) {
  const now = useNow(1_000);
  const eta = jobEta(job, now);
  const pct = job.total > 0 ? Math.round((job.done / job.total) * 100) : 0;
  return (
    <div
      className={`tx-job job-${job.status}`}
      data-testid="tx-job"
      data-status={job.status}
      role="status"
      aria-live="polite"
    >
      <span className="tx-job-label">{job.label}</span>
      {job.status === 'running' ? (
        <>
          <progress max={job.total} value={job.done} aria-label={`${job.label}: ${pct}%`} />
          <span className="small">
            {job.done} / {job.total}
            {job.failed > 0 && <span className="warn-text"> · {job.failed} failed</span>}
            {eta && <span data-testid="tx-job-eta"> · {eta}</span>}
          </span>
          <button type="button" onClick={onCancel}>
            Cancel
          </button>
        </>
      ) : (
        <>
          <span className="small">{job.message}</span>
          <button type="button" className="link" onClick={onDismiss}>
            Dismiss
          </button>
        </>
      )}
    </div>
  );
}
