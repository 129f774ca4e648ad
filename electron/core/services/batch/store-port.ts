/**
 * The refund batch's port to durable storage: a batch (its account, file, who started it, its state)
 * and every row of its file with the dry run's answer, its row key and what executing it did. SQLite:
 * adapters/sqlite/batch-store.ts (schema v9). Every method is async so a network store can implement it.
 *
 * What a batch already refunded is read from the refund intents themselves (`doneKeys`: their
 * `data.batch.rowKey`), not from the rows: an intent that committed just before a crash counts even if
 * its row was never updated, so a row is never offered twice.
 *
 * Team mode (adapters/postgres/batch-store.ts, schema v5): the same port on the team database, plus
 * `approvals` — four-eyes for a batch as a whole. There the DATABASE decides, when a batch is created,
 * whether it may run or waits for a second person (`awaiting_approval`): what `create` answers is the
 * batch as stored.
 */
import type { AccountKey } from '../../../../shared/domain/account';
import type { Currency } from '../../../../shared/domain/currencies';
import type { BatchRowResult } from '../../../../shared/batch/result';
import type { RecordedEnvironment } from '../../../../shared/domain/profile';

/**
 * awaiting_approval: team mode, above the account's approval policy; nothing is sent until approved.
 * rejected (by a checker, with a comment) and expired (not approved in time, server clock): team mode,
 * final, nothing was sent.
 */
export const BATCH_STATES = [
  'awaiting_approval',
  'running',
  'paused',
  'cancelled',
  'finished',
  'rejected',
  'expired',
] as const;
export type BatchState = (typeof BATCH_STATES)[number];

/**
 * pending: to be sent; sending: taken by an executor (its intent may or may not have committed);
 * sent: its refund intent is `intentId`; refused: checked again and not sent; skipped: never to be sent
 * (the dry run refused it, or the batch was cancelled before its turn).
 */
export const BATCH_ROW_STATES = ['pending', 'sending', 'sent', 'refused', 'skipped'] as const;
export type BatchRowState = (typeof BATCH_ROW_STATES)[number];

/** What a batch was started from: kept for its report and its audit. */
export interface BatchFacts {
  moneyMode: string;
  checkedAt: string;
  mapping: Record<string, unknown>;
  dataRows: number;
  counts: Record<string, number>;
  totals: Array<{ currency: string; amountMinor: number; rows: number }>;
}

export interface BatchRecord extends AccountKey {
  id: string;
  profileId: string;
  profileName: string;
  environment: RecordedEnvironment;
  fileName: string;
  /** SHA-256 (hex) of the file's bytes: the same file opened again resumes its unfinished batch. */
  fileDigest: string;
  operator: string;
  state: BatchState;
  createdAt: string;
  updatedAt: string;
  facts: BatchFacts;
  /** Team mode: who started it (the database's login), and its approval as a whole when it needs one. */
  approval?: BatchApproval;
}

export interface BatchApproval {
  startedBy: string;
  /** When a batch awaiting approval expires (server time, UTC ISO). */
  expiresAt?: string;
  approvedBy?: string;
  approvedDesk?: string;
  /** A batch rejected (the checker and their comment) or expired: who closed it, when (server time). */
  closedBy?: string;
  closedAt?: string;
  closeComment?: string;
}

/** A page of batches, newest first; `before` is the last one of the previous page. */
export interface BatchListQuery {
  limit: number;
  before?: { createdAt: string; id: string };
  /** Only batches in this state (the approvals screen: `awaiting_approval`). */
  state?: BatchState;
}

export interface BatchRowRecord {
  batchId: string;
  line: number;
  state: BatchRowState;
  /** The dry run's answer for this row, as the batch was started. */
  dry: BatchRowResult;
  intentId?: string;
  /** What happened: the intent's state once sent, `refused`, or why it was skipped. */
  outcome?: string;
  detail?: string;
  /** When it was executed (UTC ISO), and by whom. */
  at?: string;
  operator?: string;
}

/** What executing one row did (absent fields are cleared). */
export interface RowPatch {
  intentId?: string;
  outcome?: string;
  detail?: string;
  at?: string;
  operator?: string;
}

export interface BatchTally {
  dryClass: string;
  state: BatchRowState;
  outcome?: string;
  rows: number;
}

export interface BatchStore {
  /**
   * The batch and all its rows, in one unit of work; answers the batch as stored (in team mode the
   * database may have recorded it as `awaiting_approval` instead of `running`).
   */
  create(batch: BatchRecord, rows: readonly BatchRowRecord[]): Promise<BatchRecord>;
  get(id: string): Promise<BatchRecord | undefined>;
  /** Every row, in file order. */
  rows(id: string): Promise<BatchRowRecord[]>;
  /** How many rows of the batch are in each (dry run class, state, outcome): for its status, cheaply. */
  tally(id: string): Promise<BatchTally[]>;
  /** Running, paused (or awaiting approval) batches of the account, oldest first. */
  unfinished(account: Pick<AccountKey, 'merchantNo' | 'storeNo'>): Promise<BatchRecord[]>;
  /**
   * The account's batches, newest first (created time, then id), a page at a time; in team mode every
   * desk's. A batch awaiting approval past its expiry is answered (and stored) as `expired`.
   */
  list(account: Pick<AccountKey, 'merchantNo' | 'storeNo'>, q: BatchListQuery): Promise<BatchRecord[]>;
  setState(id: string, state: BatchState, at: string): Promise<void>;
  /**
   * Takes the batch for `runner` until `untilMs` (the store's clock) when nobody else holds it; true
   * when it is (now) this runner's. One process runs a batch at a time.
   */
  claim(id: string, runner: string, nowMs: number, untilMs: number): Promise<boolean>;
  release(id: string, runner: string): Promise<void>;
  /** A guarded row transition: applies only from one of `from`; false when the row was elsewhere. */
  moveRow(
    batchId: string,
    line: number,
    from: readonly BatchRowState[],
    to: BatchRowState,
    patch: RowPatch,
  ): Promise<boolean>;
  /**
   * Refund intents of the account that a batch row created and that may have moved money (sending,
   * outcome unknown, accepted, succeeded): row key → { batch id, intent id, line }.
   */
  doneKeys(
    account: Pick<AccountKey, 'merchantNo' | 'storeNo'>,
  ): Promise<Map<string, { batchId: string; intentId: string; line: number }>>;
  /** The refund intent a row of this batch created, if one committed (by its row key). */
  intentOfRow(
    account: Pick<AccountKey, 'merchantNo' | 'storeNo'>,
    batchId: string,
    rowKey: string,
  ): Promise<string | undefined>;
  /** Four-eyes for a batch as a whole: the team database's (absent on a single desk). */
  approvals?: BatchApprovals;
}

export interface BatchApprovals {
  /**
   * The account's approval policy per currency as the database holds it: a refund (or a batch's total)
   * above it needs a second person. A currency that is absent needs no approval.
   */
  policies(
    account: Pick<AccountKey, 'merchantNo' | 'storeNo'> & { environment: string },
  ): Promise<Partial<Record<Currency, number>>>;
  /**
   * Approves the batch as a whole — refused by the database for its starter, above this checker's limit
   * in any currency, once expired, or when it is not awaiting approval — and answers it, now running.
   */
  approve(id: string): Promise<BatchRecord>;
  /**
   * Rejects the batch with a comment (not blank) — refused by the database for its starter, a person
   * who is not a checker, or a batch not awaiting approval — and answers it, now `rejected`; its rows
   * to send end refused (`declined`). Nothing is sent.
   *
   * Both answer a batch found past its expiry as `expired` (marked so by the database) instead.
   */
  reject(id: string, comment: string): Promise<BatchRecord>;
}
