import type { CsvDelimiter, CsvEncoding, CsvRecord } from '../../../../shared/csv/parser';
import type { FormatEvidence, LedgerFormats, LedgerRow, UnusableRow } from '../../../../shared/recon/ledger';
import type { ColumnMapping } from '../../../../shared/recon/mapping';

/** Rows of the file shown under the column choices. */
export const PREVIEW_ROWS = 5;
/** Unusable rows listed before a run (the rest are counted, and every one is in the report). */
export const UNUSABLE_SHOWN = 200;
/**
 * Rows per message when the ledger is handed to the page for a run: the page rebuilds each message's
 * objects in one task, so a 100k-row ledger arrives as small tasks instead of one long one.
 */
export const ROWS_CHUNK = 5000;

/** What the page shows of a parsed file: never its rows, which stay in the worker. */
export interface LedgerFileSummary {
  headers: string[];
  encoding: CsvEncoding;
  delimiter: CsvDelimiter;
  dataRows: number;
  preview: CsvRecord[];
}

/** What the page shows for one mapping and format choice: figures, the first unusable rows, the period. */
export interface MapAnswer {
  evidence: FormatEvidence;
  formats: LedgerFormats;
  /** False when the mapping has issues: nothing was read (the file's own problems are listed). */
  readable: boolean;
  read: number;
  dataRows: number;
  unusableCount: number;
  unusableShown: Array<Pick<UnusableRow, 'line' | 'reason' | 'cause'>>;
  /** The days the read rows span, else the previous calendar month. */
  period: { from: string; to: string };
}

/**
 * Messages between the Reconciliation screen and its ledger worker (parse.worker). The worker keeps
 * the parsed file; the page asks it to read the file with a mapping (`map`, only the latest request is
 * answered) and, when a run starts, for the rows themselves (`rows`, answered in chunks).
 */
export type ToLedgerWorker =
  | { kind: 'parse'; id: number; bytes: ArrayBuffer }
  | { kind: 'map'; id: number; mapping: ColumnMapping; chosen: Partial<LedgerFormats> }
  | { kind: 'rows'; id: number; mapping: ColumnMapping; chosen: Partial<LedgerFormats> };

export type FromLedgerWorker =
  | { kind: 'parsed'; id: number; file: LedgerFileSummary }
  | { kind: 'mapped'; id: number; answer: MapAnswer }
  | {
      kind: 'rows';
      id: number;
      rows: LedgerRow[];
      unusable: UnusableRow[];
      last: boolean;
      /** On the last chunk: the rows' distinct transaction numbers (for the fresh-cache look-up). */
      transactionNos?: string[];
    }
  | { kind: 'failed'; id: number; message: string };
