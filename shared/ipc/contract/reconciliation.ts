import { z } from 'zod';
import { refuseUnsafeText } from '../../domain/text';
import { RECON_OUTCOMES, type ReconItem } from '../../recon/match';
import type { RunFacts } from '../../recon/run';
import type { ReconSummary } from '../../recon/summary';
import { columnMappingSchema } from '../../recon/mapping';
import { listScopeSchema, scoped } from './scope';
import { transactionSchema } from './transactions';

/**
 * Reconciliation runs (README, "Reconciliation"). The renderer parses and maps the ledger (in a worker)
 * and hands main the rows in chunks; main reads the service's list for the period, looks up what the
 * list and the cache do not answer (bounded concurrency), matches, and stores the whole result as a
 * record in the app database. Re-opening a run reads that record: the same figures, the same exports.
 *
 *   create → addInput (chunks) → start → progress events … → report + items (pages)
 *
 * The renderer subscribes to progress before `start`, and `get` reads a run's state at any time, so a
 * run that finishes before anyone listened is never lost.
 */
const runId = z.string().regex(/^[A-Za-z0-9_-]{1,64}$/);
const minor = z.number().int().refine(Number.isSafeInteger);
const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** At most this many rows (or unusable rows, or cached answers) per addInput call. */
export const RECON_INPUT_CHUNK = 5000;
/** The most data rows one run takes: a 100k-row ledger with room to spare. */
export const RECON_MAX_ROWS = 250_000;

export const ledgerRowSchema = z
  .object({
    line: z.number().int().min(2),
    transactionNo: z
      .string()
      .regex(/^\d{1,32}$/)
      .optional(),
    reference: z.string().min(1).max(128).superRefine(refuseUnsafeText('reference')).optional(),
    amountMinor: minor,
    currency: z.string().regex(/^[A-Z]{3}$/),
    date: z.string().max(60).superRefine(refuseUnsafeText('date')).optional(),
    day: day.optional(),
    status: z.enum(['paid', 'refunded', 'unpaid', 'other']),
    statusText: z.string().max(100).superRefine(refuseUnsafeText('status')).optional(),
    refundedMinor: minor.optional(),
  })
  .strict()
  .refine((r) => r.transactionNo !== undefined || r.reference !== undefined, 'a row needs a key');

const unusableCause = z.enum([
  'thousands_separator',
  'decimal_comma',
  'broken_quoting',
  'field_count',
  'scientific_id',
  'id_not_digits',
  'no_key',
  'currency',
  'amount',
  'date',
]);

/** A cell of an unusable row as written (escaped by the importer: nothing in it may hide). */
const writtenCell = (what: string, max: number) => z.string().max(max).superRefine(refuseUnsafeText(what));

export const unusableRowSchema = z
  .object({
    line: z.number().int().min(2),
    reason: writtenCell('reason', 600),
    cause: unusableCause.optional(),
    fields: z
      .object({
        transactionNo: writtenCell('transaction number', 60).optional(),
        reference: writtenCell('reference', 60).optional(),
        amount: writtenCell('amount', 60).optional(),
        currency: writtenCell('currency', 60).optional(),
        date: writtenCell('date', 60).optional(),
      })
      .strict()
      .optional(),
    raw: writtenCell('row', 300).optional(),
    currency: z
      .string()
      .regex(/^[A-Z]{3}$/)
      .optional(),
  })
  .strict();

/** An answer from this app's cache: what the service said for a key, and when it was fetched. */
export const cachedAnswerSchema = z
  .object({
    key: z.string().regex(/^(tx:\d{1,32}|ref:.{1,128})$/s),
    transaction: transactionSchema,
    fetchedAt: z.string().max(40),
  })
  .strict();

export const reconOptionsSchema = z
  .object({
    period: z.object({ from: day, to: day }).strict().optional(),
    days: z.enum(['service', 'local']),
    timeZone: z.string().min(1).max(64),
    dateToleranceDays: z.number().int().min(0).max(31),
    refundLookbackDays: z.number().int().min(0).max(366),
  })
  .strict();

export const ledgerFileInfoSchema = z
  .object({
    name: z.string().max(200).superRefine(refuseUnsafeText('file name')),
    encoding: z.string().max(20),
    delimiter: z.enum([',', ';', '\t']),
    dataRows: z.number().int().min(1).max(RECON_MAX_ROWS),
    decimal: z.enum(['.', ',']),
    decimalSource: z.enum(['detected', 'chosen', 'default']),
    dateOrder: z.enum(['ymd', 'dmy', 'mdy']),
    dateOrderSource: z.enum(['detected', 'chosen', 'default']),
  })
  .strict();

export const reconProgressSchema = z.object({
  state: z.enum(['draft', 'running', 'paused', 'cancelled', 'completed']),
  /** listing: reading the service's list of the period; lookups: one query per remaining key. */
  phase: z.enum(['receiving', 'listing', 'lookups', 'matching', 'done']),
  done: z.number().int().nonnegative(),
  total: z.number().int().nonnegative(),
  failed: z.number().int().nonnegative(),
  etaMs: z.number().int().nonnegative().optional(),
  stoppedBecause: z.object({ code: z.string(), message: z.string() }).optional(),
});

const counts = z.record(z.enum(RECON_OUTCOMES), z.number().int().nonnegative());

/** A run as lists and screens show it. */
export const reconRunSchema = z.object({
  runId: z.string(),
  profileId: z.string(),
  profileName: z.string(),
  label: z.string(),
  createdAt: z.string(),
  endedAt: z.string().optional(),
  options: reconOptionsSchema,
  dataRows: z.number().int().nonnegative(),
  progress: reconProgressSchema,
  /** Once ended: outcome counts, and whether cached data was used or the service was unreachable. */
  counts: counts.optional(),
  usedCache: z.boolean().optional(),
  offline: z.boolean().optional(),
  twoWay: z.boolean().optional(),
  recheckOf: z.string().optional(),
});

export const reconciliationCreate = {
  input: z
    .object({
      ...scoped,
      label: z.string().max(200).superRefine(refuseUnsafeText('label')),
      file: ledgerFileInfoSchema,
      mapping: columnMappingSchema,
      options: reconOptionsSchema,
    })
    .strict(),
  output: z.object({ runId: z.string() }),
};

export const reconciliationAddInput = {
  input: z
    .object({
      ...scoped,
      runId,
      rows: z.array(ledgerRowSchema).max(RECON_INPUT_CHUNK).optional(),
      unusable: z.array(unusableRowSchema).max(RECON_INPUT_CHUNK).optional(),
      cached: z.array(cachedAnswerSchema).max(RECON_INPUT_CHUNK).optional(),
    })
    .strict(),
  output: z.object({ rows: z.number().int(), unusable: z.number().int(), cached: z.number().int() }),
};

const byRun = { input: z.object({ ...scoped, runId }).strict(), output: reconRunSchema };
export const reconciliationStart = byRun;
export const reconciliationPause = byRun;
export const reconciliationResume = byRun;
export const reconciliationCancel = byRun;
export const reconciliationGet = byRun;
/** Re-checks the rows a run could not check: a new run over the same ledger, reusing every answer. */
export const reconciliationRecheck = byRun;

/** A profile's runs; the active profile's when none is named. */
export const reconciliationList = {
  input: listScopeSchema,
  output: z.object({ runs: z.array(reconRunSchema) }),
};

/**
 * Parts of the stored record main wrote itself (shared/recon types). Checked for shape only: a report
 * of 100k items is not re-validated field by field on its way out.
 */
const isObject = (v: unknown) => typeof v === 'object' && v !== null;
const factsSchema = z.custom<RunFacts>(isObject);
const summarySchema = z.custom<ReconSummary>(isObject);
const itemSchema = z.custom<ReconItem>(isObject);

/** The stored record's header: facts, summary and statement (items come in pages). */
export const reconciliationReport = {
  input: z.object({ ...scoped, runId }).strict(),
  output: z.object({
    run: reconRunSchema,
    facts: factsSchema,
    summary: summarySchema,
    statement: z.array(z.string()),
    items: z.number().int().nonnegative(),
  }),
};

export const reconciliationItems = {
  input: z
    .object({
      ...scoped,
      runId,
      offset: z.number().int().nonnegative(),
      limit: z.number().int().min(1).max(5000),
    })
    .strict(),
  output: z.object({
    items: z.array(itemSchema),
    total: z.number().int().nonnegative(),
    nextOffset: z.number().int().nonnegative().nullable(),
  }),
};

/** The demo ledger for the running Demo sandbox (its dates follow the day the sandbox was seeded). */
export const reconciliationDemoLedger = {
  input: z.undefined().or(z.object({}).strict()),
  output: z.object({ name: z.string(), text: z.string() }),
};

export const reconciliationEvents = {
  /** After every answered key or list window, and on every change of state or phase. */
  'reconciliation.progress': reconProgressSchema.extend({ runId: z.string() }),
};
