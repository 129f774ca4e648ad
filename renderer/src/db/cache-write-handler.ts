import type { Transaction } from '../../../shared/domain/transaction';
import type { FromWorker, ToWorker } from './cache-write-protocol';
import { putChunkRaw } from './raw-put';
import type { RefundDeskDb } from './schema';

/** Chunks written at once: one committing while the next is put. */
const IN_FLIGHT = 2;

interface Job {
  id: number;
  dbName: string;
  profileId: string;
  fetchedAt: string;
  chunkSize: number;
  pending: Transaction[];
  complete: boolean;
  cancelled: boolean;
  written: number;
  wake?: () => void;
}

/**
 * The worker's side of bulk writes, free of worker globals so a test can drive it over a MessageChannel
 * with fake-indexeddb. Writes run one job at a time in the order they arrived (a later fetch of the
 * same payment must land last), each in chunks of `chunkSize` rows per IndexedDB transaction, starting
 * as soon as the first chunk's rows have arrived while the page is still sending the rest, with the next
 * chunk put while the one before commits.
 *
 * Rows go to IndexedDB through the connection Dexie opened (raw-put), Dexie keeping the schema and
 * the opening. Each database stays open between writes; Dexie closes it when another connection asks
 * for a new version or a delete (the cache reset, an upgrade in another window), and the next chunk
 * opens it again.
 */
export function createCacheWriteHandler(deps: {
  open: (dbName: string) => RefundDeskDb;
  post: (m: FromWorker) => void;
}) {
  const dbs = new Map<string, RefundDeskDb>();
  const jobs = new Map<number, Job>();
  /**
   * Jobs that ended: a slice the page sent before it heard of a failure must not start the job anew
   * (it would wait for its last slice for ever, and every later write behind it).
   */
  const ended = new Set<number>();
  let queue: Promise<void> = Promise.resolve();

  const dbFor = (name: string): RefundDeskDb => {
    let db = dbs.get(name);
    if (!db) {
      db = deps.open(name);
      dbs.set(name, db);
    }
    return db;
  };

  async function run(job: Job): Promise<void> {
    // Chunks committing, oldest first: the next chunk's rows are put (serialised, on this thread) while
    // the one before is still being written by the database, as in one long transaction; IndexedDB runs
    // the overlapping transactions in the order they were created, so `written` counts a prefix.
    const inFlight: Array<Promise<number>> = [];
    let failed = false;
    const settle = async () => {
      job.written += await (inFlight.shift() ?? Promise.resolve(0));
      deps.post({ kind: 'progress', id: job.id, written: job.written });
    };
    try {
      const db = dbFor(job.dbName);
      for (;;) {
        while (!job.cancelled && !job.complete && !failed && job.pending.length < job.chunkSize)
          await new Promise<void>((r) => (job.wake = r));
        if (job.cancelled || failed || job.pending.length === 0) break;
        // Dexie closes its connection when another one deletes or upgrades the database (the cache
        // reset); opening again waits for that and opens the new one. Awaited here, before the chunk's
        // transaction is created, so chunks still commit in order.
        if (!db.isOpen()) await db.open();
        const chunk = job.pending.splice(0, job.chunkSize);
        // Through the raw connection, with the same stores and records as the repository's bulkUpsert.
        const put = putChunkRaw(db.backendDB(), job.profileId, chunk, job.fetchedAt).then(() => chunk.length);
        // A failure stops the wait for more rows at once; it is thrown when its turn comes (below).
        put.catch(() => {
          failed = true;
          job.wake?.();
        });
        inFlight.push(put);
        if (inFlight.length >= IN_FLIGHT) await settle();
      }
      while (inFlight.length > 0) await settle();
      // A Cancel that came after the last chunk was under way stopped nothing.
      const everyRow = job.complete && job.pending.length === 0;
      deps.post({ kind: 'done', id: job.id, written: job.written, cancelled: job.cancelled && !everyRow });
    } catch (e) {
      // A later chunk may still commit after an earlier one failed: stored, but not counted as written
      // (it shows when the list is next read), never the other way round.
      const err = e instanceof Error ? e : new Error(String(e));
      const inner = (err as { inner?: unknown }).inner;
      deps.post({
        kind: 'failed',
        id: job.id,
        written: job.written,
        name: err.name,
        message: err.message,
        ...(inner instanceof Error ? { innerName: inner.name } : {}),
      });
    } finally {
      jobs.delete(job.id);
      ended.add(job.id);
    }
  }

  return {
    onMessage(m: ToWorker): void {
      if (m.kind === 'cancel') {
        const job = jobs.get(m.id);
        if (job) {
          job.cancelled = true;
          job.wake?.();
        }
        return;
      }
      if (ended.has(m.id)) return;
      let job = jobs.get(m.id);
      if (!job) {
        const fresh: Job = {
          id: m.id,
          dbName: m.dbName,
          profileId: m.profileId,
          fetchedAt: m.fetchedAt,
          chunkSize: Math.max(1, m.chunkSize),
          pending: [],
          complete: false,
          cancelled: false,
          written: 0,
        };
        jobs.set(m.id, fresh);
        queue = queue.then(() => run(fresh));
        job = fresh;
      }
      for (const row of m.rows) job.pending.push(row);
      if (m.last) job.complete = true;
      job.wake?.();
    },
  };
}
