/**
 * A reconciliation run as a record: what was compared (file, formats, mapping, period, options), where
 * the service's data came from and when, and how the run ended. Stored with the report's items in the
 * app database so re-opening a run shows — and exports — exactly what was shown the first time.
 */
import { z } from 'zod';
import { refuseUnsafeText } from '../domain/text';
import type { CsvEncoding } from '../csv/parser';
import type { AccountKey } from '../domain/account';
import { DATE_ORDERS } from './dates';
import { RECON_MAX_ROWS } from './limits';
import { DECIMAL_SEPARATORS } from './amounts';
import type { ColumnMapping } from './mapping';
import type { ReconOptions } from './period';
import type { ListingState } from './report';

/** The encodings the reader decodes (shared/csv/parser.ts): the file's is one of them, never free text. */
const CSV_ENCODINGS = [
  'utf-8',
  'utf-16le',
  'utf-16be',
  'windows-1252',
] as const satisfies readonly CsvEncoding[];

/** How a format was decided: from the file's values, by the person, or the default (no evidence needed). */
const formatSourceSchema = z.enum(['detected', 'chosen', 'default']);
export type FormatSource = z.infer<typeof formatSourceSchema>;

export const ledgerFileInfoSchema = z
  .object({
    name: z.string().max(200).superRefine(refuseUnsafeText('file name')),
    encoding: z.enum(CSV_ENCODINGS),
    delimiter: z.enum([',', ';', '\t']),
    /** An Excel workbook and the sheet read (absent: a CSV file, as every run before workbooks). */
    kind: z.literal('xlsx').optional(),
    sheet: z.string().max(100).superRefine(refuseUnsafeText('sheet name')).optional(),
    /** Data rows in the file (read + cannot be used). */
    dataRows: z.number().int().min(1).max(RECON_MAX_ROWS),
    decimal: z.enum(DECIMAL_SEPARATORS),
    decimalSource: formatSourceSchema,
    dateOrder: z.enum(DATE_ORDERS),
    dateOrderSource: formatSourceSchema,
  })
  .strict();
export type LedgerFileInfo = z.infer<typeof ledgerFileInfoSchema>;

export interface RunFacts {
  runId: string;
  label: string;
  profileId: string;
  profileName: string;
  /**
   * The account the run compared against (absent in runs made before it was kept). A profile id means
   * nothing to another desk: in team mode a desk opens another desk's published run when one of its
   * profiles is for this account (shared/domain/account.ts sameAccount).
   */
  account?: AccountKey;
  createdAt: string;
  endedAt?: string;
  endedAs?: 'completed' | 'cancelled';
  file: LedgerFileInfo;
  mapping: ColumnMapping;
  options: ReconOptions;
  listing: {
    state: ListingState;
    windows: number;
    windowsDone: number;
    payments: number;
    /** Why the list is not complete (unsupported by the service, unreachable, cancelled). */
    message?: string;
    fetchedFrom?: string;
    fetchedTo?: string;
  };
  /** Ledger rows (first of each key) by where their service data came from. */
  sources: { list: number; lookup: number; cache: number; cacheOldest?: string };
  lookups: { asked: number; failed: number; failedByCode: Record<string, number> };
  /** The service could not be reached for part of the run. */
  offline: boolean;
  /** Some rows were compared with data from this app's cache (or an earlier run), not fetched now. */
  usedCache: boolean;
  stoppedBecause?: { code: string; message: string };
  /** The run whose rows not checked this run re-checked. */
  recheckOf?: string;
  /** The earlier run of the same account whose outstanding exceptions this run carries forward. */
  carryForwardOf?: string;
}

/** Failures that mean the service could not be reached (as opposed to refusing a key). */
export const OFFLINE_CODES: ReadonlySet<string> = new Set(['network', 'timeout', 'unavailable']);
