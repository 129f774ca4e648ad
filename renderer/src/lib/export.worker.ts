/**
 * Writes exports off the UI thread: a 100k-row workbook takes seconds of exceljs work that would
 * otherwise freeze the window. The work itself is in export-work.ts.
 */
import { exportWork, type ExportMessage } from './export-work';

const handle = exportWork((reply, transfer) => postMessage(reply, { transfer: transfer ?? [] }));
addEventListener('message', (e: MessageEvent<ExportMessage>) => void handle(e.data));
