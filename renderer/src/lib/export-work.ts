/**
 * The part of an export that runs in the export worker (export.worker.ts), kept free of worker globals
 * so tests drive it directly: it receives the rows' cell values in chunks, then writes the CSV text or
 * the .xlsx workbook and replies with the file's bytes. Column value functions cannot cross to a
 * worker, so the page reads each row's values first (cheap) and only plain values travel.
 */
import { type CsvColumn, type CsvKind, type CsvOptions, writeCsvBytes } from '../../../shared/csv/writer';
import { writeXlsx, type XlsxOptions } from '../../../shared/csv/xlsx';

export type CellValue = string | number | null | undefined;

export type ExportMessage =
  | {
      type: 'start';
      kind: 'csv' | 'xlsx';
      columns: { header: string; kind: CsvKind }[];
      total: number;
      csv: CsvOptions;
      xlsx: Omit<XlsxOptions, 'onProgress'>;
    }
  | { type: 'rows'; rows: CellValue[][] }
  | { type: 'end' };

export type ExportReply =
  | { type: 'progress'; written: number; total: number }
  | { type: 'done'; bytes: ArrayBuffer }
  | { type: 'error'; message: string };

/** One export's state in the worker; `post` sends a reply (with transferables) to the page. */
export function exportWork(post: (reply: ExportReply, transfer?: ArrayBuffer[]) => void) {
  let start: Extract<ExportMessage, { type: 'start' }> | undefined;
  const rows: CellValue[][] = [];
  return async (msg: ExportMessage): Promise<void> => {
    try {
      if (msg.type === 'start') start = msg;
      else if (msg.type === 'rows') for (const r of msg.rows) rows.push(r);
      else {
        if (!start) throw new Error('The export was not started.');
        const columns: CsvColumn<CellValue[]>[] = start.columns.map((c, i) => ({ ...c, value: (r) => r[i] }));
        let bytes: Uint8Array;
        if (start.kind === 'csv') bytes = writeCsvBytes(columns, rows, start.csv);
        else {
          const total = rows.length;
          bytes = await writeXlsx(columns, rows, {
            ...start.xlsx,
            onProgress: (written) => post({ type: 'progress', written, total }),
          });
        }
        const buffer =
          bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength
            ? (bytes.buffer as ArrayBuffer)
            : (bytes.slice().buffer as ArrayBuffer);
        post({ type: 'done', bytes: buffer }, [buffer]);
      }
    } catch (err) {
      post({ type: 'error', message: err instanceof Error ? err.message : 'The export failed.' });
    }
  };
}
