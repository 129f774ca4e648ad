import type { JobState } from './use-batch-job';

/** Below this much elapsed time the rate is too young to promise anything. */
const MIN_ELAPSED_MS = 1_000;

/**
 * "about 40 s left" for a running job, from its pace so far (elapsed per item × items to go);
 * undefined until one item is done and a second has passed, and once the job is no longer running.
 */
export function jobEta(job: Pick<JobState, 'status' | 'done' | 'total' | 'startedAt'>, now: number) {
  const elapsed = now - job.startedAt;
  if (job.status !== 'running' || job.done <= 0 || job.done >= job.total || elapsed < MIN_ELAPSED_MS)
    return undefined;
  const leftS = ((elapsed / job.done) * (job.total - job.done)) / 1000;
  if (leftS < 60) return `about ${Math.max(1, Math.round(leftS))} s left`;
  const min = Math.round(leftS / 60);
  if (min < 60) return `about ${min} min left`;
  return `about ${Math.floor(min / 60)} h ${min % 60} min left`;
}
