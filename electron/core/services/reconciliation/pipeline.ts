/**
 * A ledger file made ready for a run, the way the app's mapping step does it: decode and parse, refuse
 * what is not a CSV ledger, choose the mapping, decide the formats from the file's values (or take the
 * ones given), and map every data row — read, or listed as unusable. The CLI uses it directly; the app
 * runs the same shared functions in the renderer's worker and mapping step.
 */
import { NotTextError, parseCsvBytes, type ParsedCsv } from '../../../../shared/csv/parser';
import { isZip, openWorkbook, WorkbookError } from '../../../../shared/csv/xlsx-read';
import type { DecimalSeparator } from '../../../../shared/recon/amounts';
import type { DateOrder } from '../../../../shared/recon/dates';
import {
  detectFormats,
  formatQuestions,
  formatsFrom,
  headersShown,
  ledgerFileProblem,
  toLedgerRows,
  type FormatEvidence,
  type LedgerFormats,
  type LedgerImport,
} from '../../../../shared/recon/ledger';
import { chooseMapping, mappingIssues, type ColumnMapping } from '../../../../shared/recon/mapping';
import type { FormatSource, LedgerFileInfo } from '../../../../shared/recon/run';

export interface PreparedLedger {
  parsed: ParsedCsv;
  mapping: ColumnMapping;
  evidence: FormatEvidence;
  formats: LedgerFormats;
  imported: LedgerImport;
  file: LedgerFileInfo;
}

/** Thrown for a file that cannot be reconciled at all, with a sentence that says why and what to do. */
export class LedgerInputError extends Error {
  override name = 'LedgerInputError';
}

/** How each format was decided, for the record. */
export function formatSources(
  evidence: FormatEvidence,
  chosen: Partial<LedgerFormats>,
): Pick<LedgerFileInfo, 'decimalSource' | 'dateOrderSource'> {
  const source = (isChosen: boolean, detected: boolean): FormatSource =>
    isChosen ? 'chosen' : detected ? 'detected' : 'default';
  return {
    decimalSource: source(chosen.decimal !== undefined, evidence.decimal.decimal !== undefined),
    dateOrderSource: source(chosen.dateOrder !== undefined, evidence.dates.order !== undefined),
  };
}

export interface PrepareOptions {
  mapping?: ColumnMapping;
  decimal?: DecimalSeparator;
  dateOrder?: DateOrder;
}

/** Parses, maps and checks a CSV ledger. `mapping` overrides the guess; formats override the evidence. */
export function prepareLedger(bytes: Uint8Array, name: string, opts: PrepareOptions = {}): PreparedLedger {
  let parsed: ParsedCsv;
  try {
    parsed = parseCsvBytes(bytes);
  } catch (e) {
    if (e instanceof NotTextError) throw new LedgerInputError(e.message);
    throw e;
  }
  return prepareParsed(parsed, name, opts);
}

/**
 * A ledger file of either kind: an Excel workbook (.xlsx, its `sheet` or the one that looks like a
 * ledger) or CSV. Resolves with the sheets a workbook has, so a caller can say which one was read.
 */
export async function prepareLedgerFile(
  bytes: Uint8Array,
  name: string,
  opts: PrepareOptions & { sheet?: string } = {},
): Promise<PreparedLedger & { sheets?: string[] }> {
  if (!isZip(bytes)) return prepareLedger(bytes, name, opts);
  try {
    const workbook = await openWorkbook(bytes);
    const parsed = workbook.read(opts.sheet);
    return { ...prepareParsed(parsed, name, opts), sheets: workbook.sheets };
  } catch (e) {
    if (e instanceof WorkbookError) throw new LedgerInputError(e.message);
    throw e;
  }
}

/** Maps and checks a parsed ledger (CSV or a workbook's sheet). */
export function prepareParsed(
  parsed: ParsedCsv & { sheet?: string },
  name: string,
  opts: PrepareOptions = {},
): PreparedLedger {
  const problem = ledgerFileProblem(parsed);
  if (problem) throw new LedgerInputError(problem);
  const mapping = opts.mapping ?? chooseMapping(parsed.headers);
  const issues = mappingIssues(mapping, parsed.headers);
  if (issues.length > 0)
    throw new LedgerInputError(
      // Bounded: a header of a million columns is named by its first ones and a count.
      `The columns could not be mapped: ${issues.join(' ')} Columns found: ${headersShown(parsed.headers, 30)}.`,
    );
  const chosen: Partial<LedgerFormats> = {
    ...(opts.decimal ? { decimal: opts.decimal } : {}),
    ...(opts.dateOrder ? { dateOrder: opts.dateOrder } : {}),
  };
  const evidence = detectFormats(parsed, mapping);
  const questions = formatQuestions(evidence, chosen);
  if (questions.length > 0) throw new LedgerInputError(questions.join(' '));
  const formats = formatsFrom(evidence, chosen);
  const imported = toLedgerRows(parsed, mapping, formats);
  return {
    parsed,
    mapping,
    evidence,
    formats,
    imported,
    file: {
      name: name.slice(0, 200),
      encoding: parsed.encoding,
      delimiter: parsed.delimiter,
      ...(parsed.sheet !== undefined ? { kind: 'xlsx' as const, sheet: parsed.sheet.slice(0, 100) } : {}),
      dataRows: imported.dataRows,
      decimal: formats.decimal,
      dateOrder: formats.dateOrder,
      ...formatSources(evidence, chosen),
    },
  };
}
