import type { CsvDelimiter, CsvEncoding, CsvRecord } from '../../../../shared/csv/parser';
import type { FormatEvidence, LedgerFormats, LedgerRow, UnusableRow } from '../../../../shared/recon/ledger';
import type { ColumnMapping } from '../../../../shared/recon/mapping';
import type { ReasonGroup } from '../../../../shared/recon/reasons';

/** Rows of the file shown under the column choices. */
export const PREVIEW_ROWS = 5;
/**
 * Reasons listed before a run, each once with its lines (rows that share a reason are one line; the
 * rest are counted, and every row is in the report).
 */
export const UNUSABLE_SHOWN = 100;
/**
 * Rows per message when the ledger is handed to the page for a run: the page rebuilds each message's
 * objects in one task, so a 100k-row ledger arrives as small tasks instead of one long one.
 */
export const ROWS_CHUNK = 5000;

/** What the page shows of a parsed file: never its rows, which stay in the worker. */
export interface LedgerFileSummary {
  /** A CSV file, or an Excel workbook (then `sheet` is the one read, of `sheets`). */
  kind: 'csv' | 'xlsx';
  sheet?: string;
  sheets?: string[];
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
  /** The unusable rows by reason, in order of their first line (at most UNUSABLE_SHOWN reasons). */
  unusableGroups: ReasonGroup[];
  /** Rows read by their reference because their transaction number could not be used, by reason. */
  notes: ReasonGroup[];
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
  /** Another sheet of the workbook read (answered with `parsed`). */
  | { kind: 'sheet'; id: number; name: string }
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
