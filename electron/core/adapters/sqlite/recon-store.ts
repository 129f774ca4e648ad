import type { JobFile, JobStore } from '../../services/reconciliation/job-store';
import type { KeyResult } from '../../services/reconciliation/runner';
import type { Database } from './database';

/** Answers are committed in batches: one fsync per batch instead of one per answer. */
const BATCH = 500;
const FLUSH_MS = 250;

export function insertJobRow(db: Database, job: JobFile): void {
  db.run(
    `INSERT INTO recon_jobs (id, profile_id, label, created_at, keys, ended_as) VALUES (?, ?, ?, ?, ?, ?)
       ON CONFLICT (id) DO UPDATE SET label = excluded.label, ended_as = excluded.ended_as`,
    job.id,
    job.profileId,
    job.label,
    job.createdAt,
    JSON.stringify(job.keys),
    job.endedAs ?? null,
  );
}

export function insertResultRows(db: Database, jobId: string, results: readonly KeyResult[]): void {
  for (const r of results)
    db.run(
      'INSERT OR REPLACE INTO recon_results (job_id, key, data) VALUES (?, ?, ?)',
      jobId,
      r.key,
      JSON.stringify(r),
    );
}

/** Reconciliation jobs and their answers in the app database. */
export function createSqliteJobStore(db: Database): JobStore {
  return {
    async save(job) {
      db.immediate(() => insertJobRow(db, job));
    },
    async list() {
      return db.all('SELECT * FROM recon_jobs ORDER BY created_at DESC').map((r) => ({
        version: 1 as const,
        id: String(r['id']),
        profileId: String(r['profile_id']),
        label: String(r['label']),
        createdAt: String(r['created_at']),
        keys: JSON.parse(String(r['keys'])) as string[],
        ...(r['ended_as'] ? { endedAs: r['ended_as'] as 'completed' | 'cancelled' } : {}),
      }));
    },
    async readResults(id) {
      return db
        .all<{ data: string }>('SELECT data FROM recon_results WHERE job_id = ?', id)
        .map((r) => JSON.parse(r.data) as KeyResult);
    },
    appender(id) {
      let pending: KeyResult[] = [];
      let timer: ReturnType<typeof setTimeout> | undefined;
      const flush = () => {
        if (timer) clearTimeout(timer);
        timer = undefined;
        if (pending.length === 0) return;
        const batch = pending;
        pending = [];
        db.immediate(() => insertResultRows(db, id, batch));
      };
      return {
        append(r) {
          pending.push(r);
          if (pending.length >= BATCH) flush();
          else timer ??= setTimeout(flush, FLUSH_MS);
        },
        close: async () => flush(),
      };
    },
    async remove(id) {
      db.immediate(() => {
        db.run('DELETE FROM recon_results WHERE job_id = ?', id);
        db.run('DELETE FROM recon_jobs WHERE id = ?', id);
      });
    },
  };
}
