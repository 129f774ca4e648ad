/**
 * Reconciliation jobs on disk (DESIGN.md "Long work"): a job's inputs in `<id>.job.json`, its answers
 * appended to `<id>.results.jsonl` as they arrive. After a restart the keys without an answer are all
 * that is left to query. Results are a cache of the service (never money this app moved), so lines
 * are appended without fsync; a torn last line is ignored and that key is simply queried again.
 */
import { createWriteStream, type WriteStream } from 'node:fs';
import { mkdir, readFile, readdir, rm, writeFile, rename } from 'node:fs/promises';
import { join } from 'node:path';
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

/** Jobs live under `<dataDir>/recon/`. */
export function createJobStore(dataDir: string): JobStore {
  const dir = join(dataDir, 'recon');
  const jobPath = (id: string) => join(dir, `${id}.job.json`);
  const resultsPath = (id: string) => join(dir, `${id}.results.jsonl`);

  return {
    async save(job) {
      await mkdir(dir, { recursive: true });
      // Write-then-rename so a crash never leaves half a job file.
      const tmp = `${jobPath(job.id)}.tmp`;
      await writeFile(tmp, JSON.stringify(job));
      await rename(tmp, jobPath(job.id));
    },
    async list() {
      let names: string[];
      try {
        names = await readdir(dir);
      } catch {
        return [];
      }
      const jobs: JobFile[] = [];
      for (const name of names.filter((n) => n.endsWith('.job.json'))) {
        try {
          const parsed = jobFileSchema.safeParse(JSON.parse(await readFile(join(dir, name), 'utf8')));
          if (parsed.success) jobs.push(parsed.data);
        } catch {
          // An unreadable job file is skipped; its ledger can be imported again.
        }
      }
      return jobs.sort((a, b) => (a.createdAt < b.createdAt ? 1 : -1));
    },
    async readResults(id) {
      let text: string;
      try {
        text = await readFile(resultsPath(id), 'utf8');
      } catch {
        return [];
      }
      const out: KeyResult[] = [];
      for (const line of text.split('\n')) {
        if (!line) continue;
        try {
          out.push(JSON.parse(line) as KeyResult);
        } catch {
          // Torn last line after a crash: that key is queried again.
        }
      }
      return out;
    },
    appender(id) {
      let stream: WriteStream | undefined;
      return {
        append(r) {
          stream ??= createWriteStream(resultsPath(id), { flags: 'a' });
          stream.write(`${JSON.stringify(r)}\n`);
        },
        close: () =>
          new Promise<void>((resolve) => {
            if (!stream) return resolve();
            stream.end(() => resolve());
          }),
      };
    },
    async remove(id) {
      await rm(jobPath(id), { force: true });
      await rm(resultsPath(id), { force: true });
    },
  };
}
