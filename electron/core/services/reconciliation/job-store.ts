/**
 * Reconciliation jobs, durably: a job's inputs and its answers as they arrive, so a run interrupted by a
 * restart resumes with only the unanswered keys left to query. The SQLite adapter
 * (adapters/sqlite/recon-store.ts) implements this port; answers are written in batches (they are a copy
 * of the service's data, never money this app moved, so losing the last few to a crash only means those
 * keys are queried again).
 */
import { z } from 'zod';
import type { KeyResult } from './runner';

export const jobFileSchema = z.object({
  version: z.literal(1),
  id: z.string().regex(/^[A-Za-z0-9_-]{1,64}$/),
  profileId: z.string(),
  label: z.string(),
  createdAt: z.string(),
  keys: z.array(z.string()),
  /** Set once the run finished or was cancelled; absent means it may be resumed. */
  endedAs: z.enum(['completed', 'cancelled']).optional(),
});
export type JobFile = z.infer<typeof jobFileSchema>;

export interface JobStore {
  save(job: JobFile): Promise<void>;
  list(): Promise<JobFile[]>;
  readResults(id: string): Promise<KeyResult[]>;
  appender(id: string): { append(r: KeyResult): void; close(): Promise<void> };
  remove(id: string): Promise<void>;
}
