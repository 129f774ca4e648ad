/**
 * The ledger worker: parses the chosen file and keeps it, and reads it with each mapping the person
 * tries, off the UI thread — a 100k-row ledger must not freeze the window. Same pure functions the CLI
 * runs in Node (shared/csv/parser, shared/recon/ledger); the logic is in ledger-handler.
 */
import { createLedgerHandler } from './ledger-handler';
import type { FromLedgerWorker, ToLedgerWorker } from './ledger-protocol';

const handler = createLedgerHandler({
  post: (m: FromLedgerWorker) => postMessage(m),
  later: (fn) => setTimeout(fn, 0),
});

addEventListener('message', (e: MessageEvent<ToLedgerWorker>) => handler.onMessage(e.data));
