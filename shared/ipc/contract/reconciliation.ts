import { z } from 'zod';
import { refuseUnsafeText } from '../../domain/text';
import { RECON_OUTCOMES, type ReconItem } from '../../recon/match';
import { ledgerFileInfoSchema, type RunFacts } from '../../recon/run';
import { reconOptionsSchema } from '../../recon/period';
import { ledgerRowSchema, unusableRowSchema } from '../../recon/ledger';
import type { ReconSummary } from '../../recon/summary';
import { columnMappingSchema } from '../../recon/mapping';
import { listScopeSchema, scoped } from './scope';
import { transactionSchema } from '../../domain/transaction';
import {
  EXCEPTION_STATES,
  exceptionFilterSchema,
  exceptionNoteSchema,
  matchReasonSchema,
  ownerSchema,
  signOffCommentSchema,
  type ExceptionView,
} from '../../recon/exceptions';
import type { SignOff } from '../../recon/seal';

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

/** At most this many rows (or unusable rows, or cached answers) per addInput call. */
export const RECON_INPUT_CHUNK = 5000;

/** An answer from this app's cache: what the service said for a key, and when it was fetched. */
export const cachedAnswerSchema = z
  .object({
    key: z
      .string()
      .regex(/^(tx:\d{1,32}|ref:.{1,128})$/s)
      .superRefine(refuseUnsafeText('cached key')),
    transaction: transactionSchema,
    fetchedAt: z.string().max(40),
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
  carryForwardOf: z.string().optional(),
  /**
   * Team mode: another desk ran it; this desk reads the copy published to the team database, which
   * holds the run's non-matched rows only (`heldItems`). `profileName`: the name on that desk.
   */
  published: z
    .object({
      by: z.string(),
      desk: z.string(),
      at: z.string(),
      profileName: z.string(),
      heldItems: z.number().int().nonnegative(),
    })
    .optional(),
});

export const reconciliationCreate = {
  input: z
    .object({
      ...scoped,
      label: z.string().max(200).superRefine(refuseUnsafeText('label')),
      file: ledgerFileInfoSchema,
      mapping: columnMappingSchema,
      // Checked here, not in reconOptionsSchema: runs already stored are read back through that schema.
      options: reconOptionsSchema.extend({
        timeZone: reconOptionsSchema.shape.timeZone.superRefine(refuseUnsafeText('time zone')),
      }),
      /** An earlier run of this profile whose outstanding exceptions this run carries and re-checks. */
      carryForwardOf: runId.optional(),
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

/*
 * Month-end close (issue 28). Exceptions are worked beside the run's record: the figures never change.
 * The person is the profile's operator name, decided in main (never sent by the renderer). Main
 * re-checks every rule (state needs a note, versions, currencies, a signed run refuses every change).
 */
const exceptionId = z.string().regex(/^[ic]\d{1,7}$/, 'Name an exception of the run.');
const exceptionViewSchema = z.custom<ExceptionView>(isObject);
const signOffSchema = z.custom<SignOff>(isObject);

export const reconciliationExceptions = {
  input: z.object({ ...scoped, runId, filter: exceptionFilterSchema.optional() }).strict(),
  output: z.object({
    exceptions: z.array(exceptionViewSchema),
    /** Exceptions of the run before filtering. */
    total: z.number().int().nonnegative(),
    /** Ids still outstanding (open or explained): a sign-off lists them as open. */
    outstanding: z.array(z.string()),
    owners: z.array(z.string()),
    /** The day ages are counted to, in the run's days. */
    today: z.string(),
    signOff: signOffSchema.optional(),
    /** For a signed run: the content hash computed again now, and whether it is the signed one. */
    contentHash: z.string().optional(),
    intact: z.boolean().optional(),
  }),
};

export const reconciliationUpdateException = {
  input: z
    .object({
      ...scoped,
      runId,
      exceptionId,
      version: z.number().int().nonnegative(),
      state: z.enum(EXCEPTION_STATES).optional(),
      /** '' clears the owner. */
      owner: ownerSchema.optional(),
      note: exceptionNoteSchema.optional(),
    })
    .strict(),
  output: exceptionViewSchema,
};

export const reconciliationMatchException = {
  input: z
    .object({
      ...scoped,
      runId,
      exceptionId,
      version: z.number().int().nonnegative(),
      kind: z.enum(['payment', 'refund']),
      id: z.string().regex(/^\d{1,32}$/, 'A transaction number is digits only.'),
      reason: matchReasonSchema,
    })
    .strict(),
  output: exceptionViewSchema,
};

export const reconciliationSignOff = {
  input: z
    .object({
      ...scoped,
      runId,
      comment: signOffCommentSchema,
      /** Every outstanding exception, listed as open in the sign-off. */
      open: z.array(exceptionId).max(250_000),
    })
    .strict(),
  output: signOffSchema,
};

/**
 * Team mode: runs published to the team database that wait for a sign-off, of the named profile's
 * ACCOUNT (profile ids are a desk's own): its own runs on this desk and other desks' runs of that
 * account. Opened with the channels above (get, report, items, exceptions, signOff), each re-checking
 * the account; a single desk lists none.
 */
export const reconciliationAwaitingSignOff = {
  input: z.object({ ...scoped }).strict(),
  output: z.object({
    runs: z.array(
      z.object({
        runId: z.string(),
        label: z.string(),
        /** The profile name on the desk that ran it. */
        profileName: z.string(),
        period: z.object({ from: z.string(), to: z.string() }).optional(),
        createdAt: z.string(),
        items: z.number().int().nonnegative(),
        exceptionItems: z.number().int().nonnegative(),
        publishedBy: z.string(),
        publishedDesk: z.string(),
        publishedAt: z.string(),
        /** This desk ran it (it holds every row). */
        local: z.boolean(),
      }),
    ),
  }),
};

/**
 * A run's close history, oldest first: every change of an exception and the sign-off, with who (the
 * person's name on the desk; in team mode also the login and the desk the database stamped).
 */
export const reconciliationAudit = {
  input: z.object({ ...scoped, runId }).strict(),
  output: z.object({
    entries: z.array(
      z.object({
        at: z.string(),
        by: z.string(),
        action: z.string(),
        exceptionId: z.string().optional(),
        login: z.string().optional(),
        desk: z.string().optional(),
        /** The exception's state before and after (a state change), and the note it added. */
        from: z.enum(EXCEPTION_STATES).optional(),
        to: z.enum(EXCEPTION_STATES).optional(),
        note: z.string().optional(),
      }),
    ),
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
