import type { FromLedgerWorker } from './ledger-protocol';
import type { LedgerPort } from './parse-client';

/** A module Web Worker (same-origin, so the CSP's script-src 'self' allows it). */
export function ledgerWorkerPort(): LedgerPort {
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
  return {
    post: (m, transfer = []) => worker.postMessage(m, transfer),
    listen(onMessage, onError) {
      worker.addEventListener('message', (e: MessageEvent<FromLedgerWorker>) => onMessage(e.data));
      worker.addEventListener('error', (e) => {
        e.preventDefault();
        onError(e.message || 'The file reader stopped.');
      });
      worker.addEventListener('messageerror', () => onError('A message from the file reader was lost.'));
    },
    terminate: () => worker.terminate(),
  };
}
