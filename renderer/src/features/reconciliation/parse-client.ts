import type { ParsedCsv } from '../../../../shared/csv/parser';

type Reply = { id: number; ok: true; parsed: ParsedCsv } | { id: number; ok: false; message: string };

let seq = 0;

/**
 * Parses file bytes in a module Web Worker (same-origin, so the CSP's script-src 'self' allows it).
 * One worker per file: it is torn down afterwards so a huge parse leaves no memory behind.
 */
export function parseInWorker(bytes: ArrayBuffer): Promise<ParsedCsv> {
  const worker = new Worker(new URL('./parse.worker.ts', import.meta.url), { type: 'module' });
  const id = (seq += 1);
  return new Promise<ParsedCsv>((resolve, reject) => {
    worker.addEventListener('message', (e: MessageEvent<Reply>) => {
      if (e.data.id !== id) return;
      worker.terminate();
      if (e.data.ok) resolve(e.data.parsed);
      else reject(new Error(e.data.message));
    });
    worker.addEventListener('error', (e) => {
      worker.terminate();
      reject(new Error(e.message || 'The file could not be read.'));
    });
    // Transfer, not copy: the bytes of a large file move to the worker without duplication.
    worker.postMessage({ id, bytes }, [bytes]);
  });
}
