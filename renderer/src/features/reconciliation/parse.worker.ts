/**
 * Parses a ledger file off the UI thread: a 100k-row file must not freeze the window. Same pure
 * function the CLI runs in Node (shared/csv/parser).
 */
import { parseCsvBytes } from '../../../../shared/csv/parser';

export interface ParseRequest {
  id: number;
  bytes: ArrayBuffer;
}

addEventListener('message', (e: MessageEvent<ParseRequest>) => {
  const { id, bytes } = e.data;
  try {
    postMessage({ id, ok: true, parsed: parseCsvBytes(new Uint8Array(bytes)) });
  } catch (err) {
    postMessage({
      id,
      ok: false,
      message: err instanceof Error ? err.message : 'The file could not be read.',
    });
  }
});
