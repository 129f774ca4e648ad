import type { WorkerLike } from './cache-writer';

// The page's Worker, declared here rather than taken from the DOM library: this module is also
// type-checked for Node (through the owner), where the writer then falls back to the page.
declare const Worker: (new (url: URL, options: { type: 'module'; name: string }) => WorkerLike) | undefined;

/**
 * Starts the cache's bulk-write worker (cache-write.worker), or is undefined where there are no
 * workers (tests in Node). Vite bundles the worker from this `new URL(…, import.meta.url)` into the
 * app's own assets, so it loads from the page's origin (the app:// protocol, or the browser host) under
 * the CSP's script-src 'self', as the ledger parser does.
 */
export const createCacheWriteWorker: (() => WorkerLike) | undefined =
  typeof Worker === 'undefined'
    ? undefined
    : () =>
        new Worker(new URL('./cache-write.worker.ts', import.meta.url), {
          type: 'module',
          name: 'cache-writer',
        });
