/**
 * Bulk writes of the cache off the UI thread: IndexedDB serialises every record on the thread that
 * puts it, and 100k rows take seconds, so the cache owner hands large writes to this module worker.
 * It opens the same database with the same schema module (openDb) as the page.
 */
import { createCacheWriteHandler } from './cache-write-handler';
import type { FromWorker, ToWorker } from './cache-write-protocol';
import { openDb } from './schema';

const handler = createCacheWriteHandler({
  open: (name) => openDb(name),
  post: (m: FromWorker) => postMessage(m),
});

addEventListener('message', (e: MessageEvent<ToWorker>) => handler.onMessage(e.data));
