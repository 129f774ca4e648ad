import type { Currency } from '../../../../shared/domain/currencies';
import type { AuditEntry } from './audit';
import type { Intent, IntentDraft, IntentPatch, IntentState } from './intent';

export interface IntentCheck {
  at: string;
  found: boolean;
  reached: boolean;
  note: string;
}

/**
 * The refund service's port to durable storage (the SQLite adapter in adapters/sqlite/refund-store.ts).
 * The service owns the money rules; the store owns atomicity across processes.
 */
export interface RefundStore {
  /**
   * Runs `fn` as ONE exclusive write transaction across every process sharing the data directory
   * (BEGIN IMMEDIATE). What `fn` reads is current, and what it inserts is committed (fsync) before this
   * returns — or nothing is, if it throws. `fn` must be synchronous: no network inside.
   */
  decide<T>(fn: (tx: DecisionTx) => T): T;
  get(id: string): Intent | undefined;
  /** Newest first. */
  list(): Intent[];
  /** Every intent not yet final (resume, poller). */
  unfinished(): Intent[];
  /**
   * Intents a person closed as not sent after `sinceIso` that are still closed (state `refused`): the
   * ones still watched, in case the service lists them after all.
   */
  closedSince(sinceIso: string): Intent[];
  /**
   * Every intent of one payment. Throws UnreadableIntentError when one that may have moved money cannot
   * be read: leaving it out would let a refund be decided without it.
   */
  forPayment(merchantNo: string, storeNo: string, transactionNo: string): Intent[];
  /** Σ amounts of the account's counted intents in `currency` created in [fromIso, toIso). */
  dayTotal(merchantNo: string, storeNo: string, currency: Currency, fromIso: string, toIso: string): number;
  /**
   * Guarded transition: applies only while the intent is in one of `from`. Returns the new intent, or
   * undefined when another process (or call) changed it first — the caller then re-reads.
   */
  transition(
    id: string,
    from: readonly IntentState[],
    to: IntentState,
    patch: IntentPatch,
    event: { at: string; type: string; data?: Record<string, unknown> },
  ): Intent | undefined;
  /**
   * Records the evidence of one query about an intent (its state is unchanged). `reached`: the service
   * answered (false when it could not be asked, or the intent cannot be checked from here).
   */
  noteCheck(id: string, check: IntentCheck): Intent | undefined;
  /** Every check of an intent, oldest first. */
  checksOf(id: string): IntentCheck[];
  /** Intents changed by any process since `seq`, and the sequence to pass next time. */
  changesSince(seq: number): { intents: Intent[]; seq: number };
  currentSeq(): number;
  /** Cheap: changes when any connection commits. */
  dataVersion(): number;
  audit: {
    record(entry: AuditEntry): void;
    /** Newest first. */
    list(): AuditEntry[];
  };
}

export interface DecisionTx {
  /** As RefundStore.forPayment, inside the deciding transaction. */
  forPayment(merchantNo: string, storeNo: string, transactionNo: string): Intent[];
  dayTotal(merchantNo: string, storeNo: string, currency: Currency, fromIso: string, toIso: string): number;
  /** Inserts the intent as `sending` on behalf of `sender`. */
  insertSending(draft: IntentDraft, sender: string, at: string): SendingIntent;
}

/** An intent this version decided: it has every field a refund request needs. */
export type SendingIntent = Intent & Pick<IntentDraft, 'settleCurrency'>;

/**
 * A refund of the payment is in the database but cannot be read (an earlier version kept it in a
 * currency this app does not handle, or the row is damaged) and may have moved money: no refund of that
 * payment can be decided. `message` says so in words for the person.
 */
export class UnreadableIntentError extends Error {
  override name = 'UnreadableIntentError';
  constructor(
    readonly intentId: string,
    message: string,
  ) {
    super(message);
  }
}
