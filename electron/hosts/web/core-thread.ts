import { Worker } from 'node:worker_threads';
import type { CoreWorkerData, FromWorker, ToWorker } from './core-thread-protocol';
import type { ServedCore } from './server';

/** Opening the core failed: what to print, and the host's exit code for it. */
export class CoreOpenFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

export interface CoreThread {
  /** The core once open; rejects with a CoreOpenFailure (or the worker's own error). */
  ready: Promise<ServedCore & { shown?: string }>;
  /** Closes the core (background work, sandbox, database) and ends the worker. */
  close(): Promise<void>;
}

/**
 * Starts `workerFile` (core-worker.ts, or its build) and speaks to it: calls by id, events as lines.
 * The worker ending when not asked to (an exception nothing caught, as would have ended a host with its
 * core in its own thread) fails every call still waiting and `ready`, and is told to `lost`.
 */
export function startCoreThread(
  workerFile: URL,
  data: CoreWorkerData,
  lost: (e: Error) => void = () => undefined,
): CoreThread {
  const worker = new Worker(workerFile, { workerData: data });
  const waiting = new Map<number, { resolve: (json: string) => void; reject: (e: Error) => void }>();
  const listeners = new Set<(line: string) => void>();
  let nextId = 1;
  let gone: Error | undefined;
  let closing = false;
  let closed: () => void = () => undefined;
  const ended = new Promise<void>((resolve) => (closed = resolve));

  let settle: { resolve: (c: ServedCore & { shown?: string }) => void; reject: (e: Error) => void };
  const ready = new Promise<ServedCore & { shown?: string }>(
    (resolve, reject) => (settle = { resolve, reject }),
  );
  // Calls made meanwhile see the failure; whoever started the thread reports it.
  ready.catch(() => undefined);

  const served: ServedCore = {
    call: (channel, input) => {
      if (gone) return Promise.reject(gone);
      const id = nextId++;
      const message: ToWorker =
        typeof input === 'symbol'
          ? { type: 'call', id, channel, input: undefined, unparseable: true }
          : { type: 'call', id, channel, input, unparseable: false };
      return new Promise<string>((resolve, reject) => {
        waiting.set(id, { resolve, reject });
        worker.postMessage(message);
      });
    },
    onEvent: (listener) => {
      listeners.add(listener);
      return () => listeners.delete(listener);
    },
  };

  worker.on('message', (message: FromWorker) => {
    switch (message.type) {
      case 'ready':
        return settle.resolve({ ...served, ...(message.shown ? { shown: message.shown } : {}) });
      case 'failed':
        // The worker ends next, as expected: calls and `ready` fail with this, nothing is "lost".
        gone = new CoreOpenFailure(message.message, message.exitCode);
        return settle.reject(gone);
      case 'reply':
      case 'fault': {
        const call = waiting.get(message.id);
        waiting.delete(message.id);
        if (message.type === 'reply') call?.resolve(message.json);
        else call?.reject(new Error('The call failed in the core.'));
        return;
      }
      case 'event':
        for (const listener of listeners) listener(message.line);
        return;
      case 'closed':
        return closed();
    }
  });
  const end = (e: Error) => {
    if (!gone && !closing) lost(e);
    gone ??= e;
    settle.reject(gone);
    for (const call of waiting.values()) call.reject(gone);
    waiting.clear();
    closed();
  };
  worker.on('error', end);
  worker.on('exit', (code) => end(new Error(`The core's thread ended (${code}).`)));

  return {
    ready,
    close: async () => {
      closing = true;
      if (!gone) {
        worker.postMessage({ type: 'close' } satisfies ToWorker);
        await ended;
      }
      await worker.terminate();
    },
  };
}
