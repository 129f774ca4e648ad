/**
 * The run record, durably (the port; adapters/sqlite/recon-store.ts implements it over the app
 * database). Beside the job and its answers (./job-store.ts) a run keeps:
 * - its facts (RunFacts: file, formats, mapping, profile, period, options, data sources),
 * - the ledger the renderer or CLI handed over, in chunks, so an interrupted run can still finish,
 * - the service's list of the period, one window at a time with when it was fetched,
 * - and once it ends, every report item with the summary and the statement — written in one
 *   transaction, so a re-opened run is exactly what was shown and exported the first time.
 * Month-end close (exceptions, their audit, the sign-off) is its own port, ./close-store.ts.
 */
import type { z } from 'zod';
import type { cachedAnswerSchema } from '../../../../shared/ipc/contract/reconciliation';
import type { ReconItem } from '../../../../shared/recon/match';
import type { LedgerRow, UnusableRow } from '../../../../shared/recon/ledger';
import type { RunFacts } from '../../../../shared/recon/run';
import type { ReconSummary } from '../../../../shared/recon/summary';
import type { Currency } from '../../../../shared/domain/currencies';
import type { Transaction } from '../../../../shared/domain/transaction';

/** Where the run's stored ledger rows and list hold an item's row and transaction (see saveResult). */
export interface ItemRefs {
  /** The position among the run's stored ledger rows (readInput's `rows`) of this very row; -1: none. */
  rowOf(row: LedgerRow): number;
  /** `<window start date>:<position in readWindows' transactions>` of this very transaction object. */
  listedOf(tx: Transaction): string | undefined;
}

/**
 * Puts, in its place among the items, the usual matched row answered by the run's own listed payment
 * (shared/recon/match.ts onUsual) without its item being made: the item
 * `{ line, matchedBy, ledger, service: serviceView(transaction, 'list', fetchedAt), transaction,
 * dayOffset?, outcome: 'matched', detail: '', deltas: [] }` whose `ledger` is the run's stored row at
 * `row` and whose `transaction` is the payment at `listed` (`<window start date>:<position>`, as
 * ItemRefs.listedOf writes it). Read back as that item. `fetchedAt` and `listed` hold no tab.
 */
export type UsualMatchPut = (
  fetchedAt: string,
  row: number,
  listed: string,
  dayOffset: number | undefined,
) => void;

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

/**
 * A listed window's payments as the matching reads them: by position, field by field, from the stored
 * columns — no object per payment (at a million payments the objects, their times as strings and their
 * collection were a third of a run). `transaction(at)` makes the payment exactly as it was listed, for
 * the few a report item holds.
 */
export interface PaymentColumns {
  readonly length: number;
  transactionNo(at: number): string;
  /** keyHash (shared/recon/key-index.ts) of every payment's number, when the columns give it at once. */
  numberHashes?(): Int32Array;
  reference(at: number): string | undefined;
  /** Whether the record is a refund (transactionType 'refund'), not a payment of the period. */
  isRefund(at: number): boolean;
  amountMinor(at: number): number;
  currency(at: number): Currency;
  status(at: number): string;
  /** Σ its refunds in success or pending in its own currency (ServiceView's refundedMinor). */
  refundedMinor(at: number): number;
  /**
   * `paidAt || createdAt`: its instant (ms) when that text is exactly toISOString's form of it, else
   * the text itself; undefined when it has neither (what the matching's day offset reads).
   */
  paymentTime(at: number): number | string | undefined;
  /** The payment exactly as listed: a new object each call for stored columns, the very one otherwise. */
  transaction(at: number): Transaction;
}

/** A window as the run reads it: its payments as columns (RunStore.readWindowColumns). */
export type ColumnWindow =
  | { startDate: string; endDate: string; fetchedAt: string; state: 'listed'; payments: PaymentColumns }
  | { startDate: string; endDate: string; fetchedAt: string; state: 'unsupported'; message: string };

/** A run as stored: its facts, whether its ledger was fully handed over, and its result once ended. */
export interface StoredRun {
  facts: RunFacts;
  started: boolean;
  keys: string[];
  result?: { summary: ReconSummary; statement: string[]; items: number };
}

// The close's types moved to their own port (./close-store.ts); kept here for existing importers.
export type { ExceptionAuditEntry, ExceptionWriteResult } from './close-store';

export interface RunStore {
  /** Creates the run (not started: its ledger is being handed over). */
  create(facts: RunFacts): void;
  /** Appends a chunk of the ledger; returns how many of each kind the run now holds. */
  addInput(runId: string, kind: InputKind, entries: readonly unknown[]): Record<InputKind, number>;
  /**
   * The run's ledger. Rows handed over in this process may be given back as the very objects handed
   * (not parsed again from what was stored): a caller does not change rows it has handed over.
   */
  readInput(runId: string): RunInput;
  readInputCounts(runId: string): Record<InputKind, number>;
  /** Marks the ledger complete and records the keys to look up. */
  markStarted(runId: string, keys: readonly string[]): void;
  setKeys(runId: string, keys: readonly string[]): void;
  saveWindow(runId: string, window: ListWindow): void;
  readWindows(runId: string): ListWindow[];
  /**
   * The same windows with their payments as columns (no object per payment): what a run reads. A store
   * without it is read through readWindows.
   */
  readWindowColumns?(runId: string): ColumnWindow[];
  /**
   * Writes the result and ends the run, in one transaction. With `refs`, items whose ledger row and
   * service record are the run's own stored ones may be stored as references to them (read back the same).
   */
  saveResult(
    runId: string,
    result: { facts: RunFacts; summary: ReconSummary; statement: string[]; items: readonly ReconItem[] },
    refs?: ItemRefs,
  ): void;
  /**
   * The same record, written as its items are made: inside the one transaction `write` hands each item
   * to `put` in order (a page is encoded and written as soon as it is full, and its items let go) and
   * returns the rest of the result. Stored exactly as saveResult stores the same items; returns how
   * many items were written. If `write` throws, nothing of the result is stored.
   */
  saveResultAsMade(
    runId: string,
    write: (
      put: (item: ReconItem) => void,
      putUsual: UsualMatchPut,
    ) => {
      facts: RunFacts;
      summary: ReconSummary;
      statement: string[];
    },
    refs?: ItemRefs,
  ): number;
  get(runId: string): StoredRun | undefined;
  /** Runs of a profile, newest first (runs of earlier versions, which have no facts, are left out). */
  /** One profile's runs, or every profile's when none is named. */
  list(profileId?: string): StoredRun[];
  readItems(runId: string, offset: number, limit: number): ReconItem[];
  /** Copies a run's list windows to another run (a re-check reuses what was already fetched). */
  copyWindows(fromRunId: string, toRunId: string): void;
  remove(runId: string): void;

  /** Deletes runs whose ledger was never fully handed over and that are older than `beforeIso`. */
  pruneDrafts(beforeIso: string): number;
}
