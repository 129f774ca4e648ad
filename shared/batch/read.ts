/**
 * A refund batch file made ready for a dry run: CSV or .xlsx told apart by their bytes (a workbook is a
 * zip), read into the CSV reader's records, refused as a whole when it cannot be a batch (no header, no
 * rows, over the limits, no usable mapping, a decimal separator nothing decides), then every data row
 * mapped — read, or listed as unusable. The same steps as the reconciliation's ledger
 * (electron/core/services/reconciliation/pipeline.ts) over the same shared reader, mapping and amounts.
 */
import { NotTextError, parseCsvBytes, type ParsedCsv } from '../csv/parser';
import { isZip, openWorkbook, WorkbookError } from '../csv/xlsx-read';
import { decimalLabel, type DecimalSeparator } from '../recon/amounts';
import { headersShown } from '../recon/ledger';
import { batchColumnsProblem, batchRowsProblem, batchSizeProblem } from './limits';
import { batchMappingIssues, fitsBatch, guessBatchMapping, type BatchMapping } from './mapping';
import { batchDecimalEvidence, toBatchRows, type BatchFileRows } from './rows';

/** A file that cannot be a batch at all, with a sentence that says why and what to do. */
export class BatchInputError extends Error {
  override name = 'BatchInputError';
}

export interface BatchFileInfo {
  name: string;
  format: 'csv' | 'xlsx';
  /** The sheet read, and every sheet with data, for a workbook. */
  sheet?: string;
  sheets?: string[];
  decimal: DecimalSeparator;
  dataRows: number;
}

export interface PreparedBatch extends BatchFileRows {
  mapping: BatchMapping;
  headers: string[];
  file: BatchFileInfo;
}

export interface ReadBatchOptions {
  mapping?: BatchMapping;
  /** A workbook's sheet; default the first whose header maps to a batch. */
  sheet?: string;
  decimal?: DecimalSeparator;
}

/** Reads, maps and checks a batch file's bytes. */
export async function readBatchFile(
  bytes: Uint8Array,
  name: string,
  opts: ReadBatchOptions = {},
): Promise<PreparedBatch> {
  const tooBig = batchSizeProblem(bytes.length);
  if (tooBig) throw new BatchInputError(tooBig);
  let parsed: ParsedCsv;
  let sheet: { sheet: string; sheets: string[] } | undefined;
  try {
    if (isZip(bytes)) {
      // The sheet whose header maps to a batch (not a ledger's guess: "Refund amount" is no ledger amount).
      const book = await openWorkbook(bytes, fitsBatch);
      const read = book.read(opts.sheet);
      parsed = read;
      sheet = { sheet: read.sheet, sheets: book.sheets };
    } else {
      if (opts.sheet !== undefined)
        throw new BatchInputError('A sheet was named, but the file is a CSV file, not a workbook.');
      parsed = parseCsvBytes(bytes);
    }
  } catch (e) {
    if (e instanceof NotTextError || e instanceof WorkbookError) throw new BatchInputError(e.message);
    throw e;
  }
  if (parsed.headers.length === 0) throw new BatchInputError('The file is empty: it has no header row.');
  const columns = batchColumnsProblem(
    parsed.problems.reduce((m, p) => Math.max(m, p.cells?.length ?? 0), parsed.headers.length),
    parsed.headerLine,
  );
  if (columns) throw new BatchInputError(columns);
  if (parsed.dataRows === 0)
    throw new BatchInputError(
      `The file has a header row (${headersShown(parsed.headers)}) but no data rows, so there is nothing to refund.`,
    );
  const rowsProblem = batchRowsProblem(parsed.dataRows);
  if (rowsProblem) throw new BatchInputError(rowsProblem);
  const mapping = opts.mapping ?? guessBatchMapping(parsed.headers);
  const issues = batchMappingIssues(mapping, parsed.headers);
  if (issues.length > 0)
    throw new BatchInputError(
      `The columns could not be mapped: ${issues.join(' ')} Columns found: ${headersShown(parsed.headers, 30)}.`,
    );
  const evidence = batchDecimalEvidence(parsed, mapping);
  if (evidence.needsChoice && !opts.decimal)
    throw new BatchInputError(
      evidence.dot > 0 && evidence.comma > 0
        ? `Amounts use both separators as decimals (“${evidence.examples.dot}” and “${evidence.examples.comma}”): choose the decimal separator, ${decimalLabel('.')} or ${decimalLabel(',')}.`
        : `Is “${evidence.examples.ambiguous}” a decimal or a whole number with a thousands separator? Nothing else in the file decides: choose the decimal separator, ${decimalLabel('.')} or ${decimalLabel(',')}.`,
    );
  const decimal = opts.decimal ?? evidence.decimal ?? '.';
  const rows = toBatchRows(parsed, mapping, decimal);
  return {
    ...rows,
    mapping,
    headers: parsed.headers,
    file: {
      name: name.slice(0, 200),
      format: sheet ? 'xlsx' : 'csv',
      ...(sheet ?? {}),
      decimal,
      dataRows: rows.dataRows,
    },
  };
}
