import { parentPort, workerData } from 'node:worker_threads';
import type { AppCore } from '../../core/compose';
import type { TeamDatabase } from '../cli/database';
import type { CliIo } from '../cli/io';
import { createNodeCore } from '../node-core';
import type { CoreWorkerData, FromWorker, ToWorker } from './core-thread-protocol';

/**
 * The browser host's core, on a worker thread of its own (core-thread.ts starts it): loading the core's
 * code, migrating a fresh database and seeding the Demo sandbox take the better part of 200 ms of CPU,
 * during which the host's HTTP thread keeps serving the page and its scripts — on the other core.
 * Every call and event crosses as the JSON text that goes to the browser.
 */
const port = parentPort!;
const post = (message: FromWorker) => port.postMessage(message);
const { dataDir, database: values } = workerData as CoreWorkerData;
/** As the CLI's --database-url (hosts/cli/database.ts), which this thread reads only when it is set. */
const DATABASE_URL_ENV = 'REFUND_DESK_DATABASE_URL';

/** Opens the core as the host always has; a failure is told with the host's exit code for it. */
async function open(): Promise<{ core: AppCore; database?: TeamDatabase } | undefined> {
  let database: TeamDatabase | undefined;
  // The team database's code (the pg client) loads only for a team desk: a single desk never needs it.
  const team = Object.keys(values).length > 0 || !!process.env[DATABASE_URL_ENV]?.trim();
  const cli = team ? await import('../cli/database') : undefined;
  try {
    const io: CliIo = { out: () => undefined, err: () => undefined, env: process.env };
    database = cli?.optionalDatabase(values, io);
  } catch (e) {
    post({ type: 'failed', message: e instanceof Error ? e.message : String(e), exitCode: 2 });
    return undefined;
  }
  try {
    const core = await createNodeCore({
      host: 'browser',
      dataDir,
      ...(database
        ? { team: { url: database.connectionString, ...(database.ca ? { ca: database.ca } : {}) } }
        : {}),
    });
    return { core, ...(database ? { database } : {}) };
  } catch (e) {
    post(
      database
        ? { type: 'failed', message: cli!.teamFailure(e, database).message, exitCode: 5 }
        : { type: 'failed', message: e instanceof Error ? e.message : String(e), exitCode: 1 },
    );
    return undefined;
  }
}

const opened = await open();
if (opened) {
  const { core, database } = opened;
  core.events.subscribe((event, payload) =>
    post({ type: 'event', line: JSON.stringify({ event, payload }) }),
  );
  port.on('message', (message: ToWorker) => {
    if (message.type === 'call') {
      const input = message.unparseable ? Symbol('unparseable') : message.input;
      core.dispatch(message.channel, input).then(
        (envelope) => post({ type: 'reply', id: message.id, json: JSON.stringify(envelope) }),
        // As a throw in the host's own thread would: that request is answered "Host error" (500).
        () => post({ type: 'fault', id: message.id }),
      );
    } else if (message.type === 'close') {
      void core.close().then(() => {
        post({ type: 'closed' });
        port.close();
      });
    }
  });
  post({ type: 'ready', ...(database ? { shown: database.shown } : {}) });
}
