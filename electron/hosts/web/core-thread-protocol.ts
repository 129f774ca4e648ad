/**
 * Messages between the browser host's HTTP thread (core-thread.ts) and the worker that opens and runs
 * its core (core-worker.ts). Plain data only: everything crosses by structured clone, and what goes to
 * the browser crosses already as its JSON text.
 */

/** What the worker is started with (its workerData). */
export interface CoreWorkerData {
  dataDir: string;
  /** The host's --database-url and --ca-file, as given (the worker reads the environment's too). */
  database: { 'database-url'?: string; 'ca-file'?: string };
}

export type ToWorker =
  | {
      type: 'call';
      id: number;
      channel: string;
      input: unknown;
      /** The body was not JSON: the core answers invalid_input, as for any input it cannot take. */
      unparseable: boolean;
    }
  | { type: 'close' };

export type FromWorker =
  /** The core is open; `shown`: the team database as it may be printed (no password), when there is one. */
  | { type: 'ready'; shown?: string }
  /** Opening failed: the message to print and the exit code (2: bad flags, 5: team database, 1: other). */
  | { type: 'failed'; message: string; exitCode: number }
  | { type: 'reply'; id: number; json: string }
  /** The call threw instead of answering an envelope. */
  | { type: 'fault'; id: number }
  | { type: 'event'; line: string }
  | { type: 'closed' };
