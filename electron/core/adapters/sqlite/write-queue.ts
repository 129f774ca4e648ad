import type { Database } from './database';

/**
 * One transaction at a time on a connection: every store on the same `Database` queues its async
 * writes here (a connection has one transaction, and a decision that awaits keeps it open). Stores that
 * share the file but not the queue would be refused (or, worse, joined) by an open decision.
 */
const tails = new WeakMap<Database, Promise<unknown>>();

export function exclusiveOn(db: Database): <T>(fn: () => T | Promise<T>) => Promise<T> {
  return <T>(fn: () => T | Promise<T>): Promise<T> => {
    const run = (tails.get(db) ?? Promise.resolve()).then(() => db.immediateAsync(fn));
    tails.set(
      db,
      run.catch(() => undefined),
    );
    return run;
  };
}
