/**
 * How big a refund batch file may be — the same in the app and in `cli refund-batch`, checked before a
 * file is read whole, worded like the reconciliation limits (shared/recon/limits.ts). A batch is a list
 * somebody prepared by hand or exported from a claims system: tens of thousands of rows at most.
 */
import { RECON_MAX_COLUMNS } from '../recon/limits';

/** The most data rows one batch takes. */
export const BATCH_MAX_ROWS = 50_000;

/** The largest batch file: 50,000 rows of a wide export (a workbook is zipped, so smaller still). */
export const BATCH_MAX_BYTES = 32 * 1024 * 1024;

/** The most columns a batch file's rows may have: as a ledger. */
export const BATCH_MAX_COLUMNS = RECON_MAX_COLUMNS;

const count = (n: number) => n.toLocaleString('en-US');
const megabytes = (bytes: number) => `${(bytes / (1024 * 1024)).toFixed(1).replace(/\.0$/, '')} MB`;

/** Why a file of this many bytes is refused before it is read, or undefined. */
export function batchSizeProblem(bytes: number): string | undefined {
  if (bytes <= BATCH_MAX_BYTES) return undefined;
  return `The file is ${megabytes(bytes)}; a refund batch takes a file of at most ${megabytes(BATCH_MAX_BYTES)} (and ${count(BATCH_MAX_ROWS)} rows). Split the list and run each part.`;
}

/** Why a batch with this many data rows is refused, or undefined. */
export function batchRowsProblem(dataRows: number): string | undefined {
  if (dataRows <= BATCH_MAX_ROWS) return undefined;
  return `The file has ${count(dataRows)} data rows; a refund batch takes at most ${count(BATCH_MAX_ROWS)}. Split the list and run each part.`;
}

/** Why a record with this many fields (on this line) is refused, or undefined. */
export function batchColumnsProblem(fields: number, line: number): string | undefined {
  if (fields <= BATCH_MAX_COLUMNS) return undefined;
  return `Line ${count(line)} has ${count(fields)} columns; a refund batch may have at most ${count(BATCH_MAX_COLUMNS)}. Keep the columns the batch needs (transaction number or reference, amount, currency, reason, row reference).`;
}
