/**
 * Writes exports off the UI thread: a 100k-row workbook takes seconds of work that would otherwise
 * freeze the window. The work itself is in export-work.ts.
 */
import { exportWork, type ExportMessage } from './export-work';

const handle = exportWork((reply) => postMessage(reply));
addEventListener('message', (e: MessageEvent<ExportMessage>) => void handle(e.data));
