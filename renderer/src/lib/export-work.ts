/**
 * The part of an export that runs in the export worker (export.worker.ts), kept free of worker globals
 * so tests drive it directly: it receives the rows in chunks — a CSV's as the lines the page rendered,
 * a workbook's as cell values by column — and writes each chunk into the file as it arrives (the lines
 * as UTF-8, or .xlsx sheet XML deflated into the zip, shared/csv/xlsx.ts),
 * acknowledging every chunk with the rows written so far, so the page sends more only as the worker
 * keeps up and nothing piles up on either side. The file's bytes are gathered in a Blob (which the
 * browser keeps outside this heap, on disk when large) and handed back at the end. Column value
 * functions cannot cross to a worker, so the page reads each row's values first (cheap) and only plain
 * values (or text) travel.
 */
import { csvByteChunks, type CsvColumn, type CsvKind, type CsvOptions } from '../../../shared/csv/writer';
import { createXlsxStream, XLSX_MIME, type XlsxOptions } from '../../../shared/csv/xlsx';

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
  /** `count` rows' cells by column: `columns[c][j]` is row j's value of column c. */
  | { type: 'rows'; count: number; columns: CellValue[][] }
  /** A CSV's next `count` rows, as the page rendered them (csvLines): written as they are. */
  | { type: 'lines'; count: number; text: string }
  | { type: 'end' };

export type ExportReply =
  | { type: 'progress'; written: number; total: number }
  | { type: 'done'; file: Blob }
  | { type: 'error'; message: string };

export const CSV_MIME = 'text/csv;charset=utf-8';

/** Bytes gathered before they are folded into the Blob (and leave this heap). */
const FOLD_BYTES = 4 * 1024 * 1024;

/** The file's bytes as they are made, folded into a Blob every few megabytes. */
function blobParts(type: string) {
  let blob = new Blob([], { type });
  let pending: Uint8Array<ArrayBuffer>[] = [];
  let size = 0;
  const fold = () => {
    if (pending.length === 0) return;
    blob = new Blob([blob, ...pending], { type });
    pending = [];
    size = 0;
  };
  return {
    add(bytes: Uint8Array) {
      if (bytes.length === 0) return;
      // Copied: the writer may reuse or keep a view of its buffer.
      pending.push(bytes.slice() as Uint8Array<ArrayBuffer>);
      size += bytes.length;
      if (size >= FOLD_BYTES) fold();
    },
    blob(): Blob {
      fold();
      return blob;
    },
  };
}

interface Writing {
  rows(rows: readonly number[]): Promise<void>;
  lines(text: string): void;
  finish(): Promise<Blob>;
}

/**
 * The writers read the chunk being written by column; a row is its index in the chunk. Messages are
 * handled one at a time, so a chunk is replaced only once its rows are written.
 */
function startWriting(start: Extract<ExportMessage, { type: 'start' }>, cells: () => CellValue[][]): Writing {
  const columns: CsvColumn<number>[] = start.columns.map((c, i) => ({ ...c, value: (j) => cells()[i]![j] }));
  if (start.kind === 'csv') {
    const parts = blobParts(CSV_MIME);
    const csv = csvByteChunks(columns, start.csv);
    const encoder = new TextEncoder();
    parts.add(csv.start);
    return {
      rows: async (rows) => parts.add(csv.rows(rows)),
      lines: (text) => parts.add(encoder.encode(text)),
      finish: async () => parts.blob(),
    };
  }
  const parts = blobParts(XLSX_MIME);
  const xlsx = createXlsxStream(columns, start.xlsx, (chunk) => parts.add(chunk));
  return {
    rows: (rows) => xlsx.write(rows),
    lines: () => {
      throw new Error('A workbook is written from cells, not CSV lines.');
    },
    finish: async () => {
      await xlsx.finish();
      return parts.blob();
    },
  };
}

/**
 * One export's state in the worker; `post` sends a reply to the page. Messages are handled one at a
 * time, in order (writing a chunk waits for the file to take it).
 */
export function exportWork(post: (reply: ExportReply) => void) {
  let writing: Writing | undefined;
  let chunk: CellValue[][] = [];
  // 0…count-1: the rows of a chunk, kept for the next chunk of the same size.
  let indexes: number[] = [];
  let total = 0;
  let written = 0;
  let failed = false;
  const handle = async (msg: ExportMessage): Promise<void> => {
    if (failed) return;
    try {
      if (msg.type === 'start') {
        total = msg.total;
        writing = startWriting(msg, () => chunk);
        return;
      }
      if (!writing) throw new Error('The export was not started.');
      if (msg.type === 'rows') {
        chunk = msg.columns;
        if (indexes.length !== msg.count) indexes = Array.from({ length: msg.count }, (_, j) => j);
        await writing.rows(indexes);
        written += msg.count;
        post({ type: 'progress', written, total });
        return;
      }
      if (msg.type === 'lines') {
        writing.lines(msg.text);
        written += msg.count;
        post({ type: 'progress', written, total });
        return;
      }
      post({ type: 'done', file: await writing.finish() });
    } catch (err) {
      failed = true;
      post({ type: 'error', message: err instanceof Error ? err.message : 'The export failed.' });
    }
  };
  let queue = Promise.resolve();
  return (msg: ExportMessage): Promise<void> => (queue = queue.then(() => handle(msg)));
}
