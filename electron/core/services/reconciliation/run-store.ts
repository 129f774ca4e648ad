/**
 * The run record, durably (the port; adapters/sqlite/recon-store.ts implements it over the app
 * database). Beside the job and its answers (./job-store.ts) a run keeps:
 * - its facts (RunFacts: file, formats, mapping, profile, period, options, data sources),
 * - the ledger the renderer or CLI handed over, in chunks, so an interrupted run can still finish,
 * - the service's list of the period, one window at a time with when it was fetched,
 * - and once it ends, every report item with the summary and the statement — written in one
 *   transaction, so a re-opened run is exactly what was shown and exported the first time.
 */
import type { z } from 'zod';
import type { cachedAnswerSchema } from '../../../../shared/ipc/contract/reconciliation';
import type { ReconItem } from '../../../../shared/recon/match';
import type { LedgerRow, UnusableRow } from '../../../../shared/recon/ledger';
import type { RunFacts } from '../../../../shared/recon/run';
import type { ReconSummary } from '../../../../shared/recon/summary';
import type { Transaction } from '../../../../shared/domain/transaction';
import type { ExceptionRecord } from '../../../../shared/recon/exceptions';
import type { SignOff } from '../../../../shared/recon/seal';

/** A cached answer handed over with the ledger (from the renderer's cache, or an earlier run). */
export type CachedAnswer = z.infer<typeof cachedAnswerSchema>;

export type InputKind = 'row' | 'unusable' | 'cached';

export interface RunInput {
  rows: LedgerRow[];
  unusable: UnusableRow[];
  cached: CachedAnswer[];
}

/** One window of the service's list: its payments, or that the service does not offer the list. */
export type ListWindow =
  | { startDate: string; endDate: string; fetchedAt: string; state: 'listed'; transactions: Transaction[] }
  | { startDate: string; endDate: string; fetchedAt: string; state: 'unsupported'; message: string };

/** A run as stored: its facts, whether its ledger was fully handed over, and its result once ended. */
export interface StoredRun {
  facts: RunFacts;
  started: boolean;
  keys: string[];
  result?: { summary: ReconSummary; statement: string[]; items: number };
}

/** One audited change of an exception (or the run's sign-off, `exceptionId` absent). */
export interface ExceptionAuditEntry {
  runId: string;
  exceptionId?: string;
  at: string;
  by: string;
  /** 'update', 'match', 'carry', 'carry_check', 'sign_off'. */
  action: string;
  before?: unknown;
  after?: unknown;
}

/** Why a change of exceptions was not written. */
export type ExceptionWriteResult =
  | { ok: true }
  | { ok: false; reason: 'signed' }
  | { ok: false; reason: 'changed'; id: string }
  | { ok: false; reason: 'missing'; id: string };

export interface RunStore {
  /** Creates the run (not started: its ledger is being handed over). */
  create(facts: RunFacts): void;
  /** Appends a chunk of the ledger; returns how many of each kind the run now holds. */
  addInput(runId: string, kind: InputKind, entries: readonly unknown[]): Record<InputKind, number>;
  readInput(runId: string): RunInput;
  readInputCounts(runId: string): Record<InputKind, number>;
  /** Marks the ledger complete and records the keys to look up. */
  markStarted(runId: string, keys: readonly string[]): void;
  setKeys(runId: string, keys: readonly string[]): void;
  saveWindow(runId: string, window: ListWindow): void;
  readWindows(runId: string): ListWindow[];
  /** Writes the result and ends the run, in one transaction. */
  saveResult(
    runId: string,
    result: { facts: RunFacts; summary: ReconSummary; statement: string[]; items: readonly ReconItem[] },
  ): void;
  get(runId: string): StoredRun | undefined;
  /** Runs of a profile, newest first (runs of earlier versions, which have no facts, are left out). */
  /** One profile's runs, or every profile's when none is named. */
  list(profileId?: string): StoredRun[];
  readItems(runId: string, offset: number, limit: number): ReconItem[];
  /** Copies a run's list windows to another run (a re-check reuses what was already fetched). */
  copyWindows(fromRunId: string, toRunId: string): void;
  remove(runId: string): void;

  // Month-end close. Exceptions and sign-offs are kept beside the run's record and never write it.
  /** The run's non-matched items with their stored order (`seq`). */
  readExceptionItems(runId: string): Promise<Array<{ seq: number; item: ReconItem }>>;
  listExceptions(runId: string): Promise<ExceptionRecord[]>;
  /** Stores exceptions not stored yet (an existing id is left as it is), each with an audit entry. */
  addExceptions(
    runId: string,
    records: readonly ExceptionRecord[],
    audit?: Omit<ExceptionAuditEntry, 'runId' | 'exceptionId' | 'before' | 'after'>,
  ): Promise<ExceptionWriteResult>;
  /**
   * Writes changed exceptions and one audit entry each, in one transaction: every `before.version` must
   * still be the stored one, and the run must not be signed (else nothing is written).
   */
  changeExceptions(
    runId: string,
    changes: ReadonlyArray<{ before: ExceptionRecord; after: ExceptionRecord }>,
    audit: { at: string; by: string; action: string },
  ): Promise<ExceptionWriteResult>;
  readExceptionAudit(runId: string): Promise<ExceptionAuditEntry[]>;
  /** Records the sign-off (once: a second is refused) with its audit entry. */
  signOff(signOff: SignOff): Promise<ExceptionWriteResult>;
  readSignOff(runId: string): Promise<SignOff | undefined>;
  /** Deletes runs whose ledger was never fully handed over and that are older than `beforeIso`. */
  pruneDrafts(beforeIso: string): number;
}
