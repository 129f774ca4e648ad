import type { AccountKey } from '../../../../shared/domain/account';
import type { Currency } from '../../../../shared/domain/currencies';
import type { RecordedEnvironment } from '../../../../shared/domain/profile';

/**
 * The intent engine's port to durable storage: ONE table of intents (refunds, payment creates, and any
 * later kind that moves money) with their events, the audit log, leases and a change feed. Every method
 * is async and every decision names what it must be exclusive against, so a network database can
 * implement it with short transactions and row or advisory locks. Implementations: SQLite
 * (adapters/sqlite/intent-store.ts); the contract every implementation must pass is
 * test/contract/store.contract.ts.
 */

/** What moves money. Each kind supplies its own request, answer check and rules to the engine. */
export type IntentKind = 'refund' | 'payment';

/** The fields every intent has, whatever its kind; the kind's own fields travel in `data`. */
export interface IntentRecord extends AccountKey {
  id: string;
  kind: IntentKind;
  /** The kind's state name (refunds: sending, accepted…; payments: sending, open…). */
  state: string;
  profileId: string;
  profileName: string;
  environment: RecordedEnvironment;
  /** Refunds: the payment refunded. Payments: the payment created, once the service named it. */
  transactionNo?: string;
  /** Refunds: the payment's merchant reference. Payments: the reference sent (unique per merchant). */
  reference?: string;
  amountMinor: number;
  currency: Currency;
  /** Absent when the stored one is empty or not a currency this app handles (no amount's unit). */
  settleCurrency?: Currency;
  operator: string;
  createdAt: string;
  updatedAt: string;
  /** Who sends (or sent) the request: a label for people (`host:pid`); liveness is the lease. */
  sender?: string;
  /** While `sending`: until when (the store's clock, ms) the sender holds its lease. */
  leaseUntil?: number;
  retCode?: string;
  retMsg?: string;
  detail?: string;
  /** The only part of a card number ever kept (the store refuses anything but four digits). */
  cardLast4?: string;
  lastCheck?: { at: string; found: boolean; note: string };
  checks: number;
  attempts: number;
  /** The kind's own fields (JSON): never card numbers, security codes or tokens. */
  data: Record<string, unknown>;
  /**
   * Read only, where the store knows people apart (a team database stamps its login and desk on every
   * row): who made it. Absent on SQLite, where `operator` is all there is.
   */
  author?: { person: string; desk: string };
  /** Read only: a refund requested for approval (StoreApprovals), as the database recorded it. */
  approval?: ApprovalFacts;
}

/** A request for approval as the database keeps it: its people, desks and times are the database's. */
export interface ApprovalFacts {
  reason: string;
  requestedBy: string;
  requestedDesk: string;
  requestedAt: string;
  expiresAt: string;
  approvedBy?: string;
  approvedDesk?: string;
  approvedAt?: string;
  closedBy?: string;
  closedDesk?: string;
  closedAt?: string;
  comment?: string;
}

/** What a transition may change besides the state; null clears a field (in `data` too). */
export interface RecordPatch {
  transactionNo?: string | null;
  retCode?: string | null;
  retMsg?: string | null;
  detail?: string | null;
  data?: Record<string, unknown>;
}

export interface IntentEvent {
  at: string;
  type: string;
  data?: Record<string, unknown>;
}

export interface IntentCheck {
  at: string;
  found: boolean;
  /** false: the service could not be asked (network, or the intent cannot be checked from here). */
  reached: boolean;
  note: string;
}

/** One audit entry: who did what to which intent (or other subject), and what the service said. */
export interface AuditRecord {
  kind: IntentKind;
  at: string;
  outcome: string;
  operator: string;
  profileId: string;
  profileName: string;
  environment: RecordedEnvironment;
  /** The intent (or customer…) it is about; '' for a refusal that never became an intent. */
  subjectId: string;
  transactionNo?: string;
  amountMinor?: number;
  currency?: Currency;
  retCode?: string;
  retMsg?: string;
  detail?: string;
  data: Record<string, unknown>;
  /**
   * Read only, from a store that stamps them (the team database): the login that wrote the entry and
   * the desk it wrote from. A desk's own text (`operator`) is no proof of either.
   */
  person?: string;
  desk?: string;
}

/** The payment a refund is about: at most one open refund intent per payment (the database refuses more). */
export interface PaymentKey {
  environment: RecordedEnvironment;
  merchantNo: string;
  storeNo: string;
  transactionNo: string;
}

/**
 * What a decision must be exclusive against. A network store takes one lock per key (sorted, so two
 * decisions never deadlock); SQLite's database-wide write lock covers every key at once.
 */
export type ScopeKey =
  | { payment: PaymentKey }
  | { daily: { account: AccountKey; currency: Currency } }
  | { reference: { merchantNo: string; reference: string } };

/** The lease a sender takes when it inserts an intent as `sending`. */
export interface LeaseGrant {
  holder: string;
  ms: number;
}

/**
 * Thrown by `insert` when the database's own invariant refuses the row: `open_refund` — another refund
 * of the payment is open (sending or outcome unknown), including one an earlier version left open beside
 * another (both kept, both blocking); `reference` — the merchant reference is taken by a create the
 * service did not reject; `id` — the id exists.
 */
export class InvariantViolation extends Error {
  override name = 'InvariantViolation';
  constructor(readonly which: 'open_refund' | 'reference' | 'id') {
    super(`the store refused the intent: ${which}`);
  }
}

/** A stored intent that cannot be read into a record (a currency this app does not handle, a damaged row). */
export interface UnreadableRow {
  id: string;
  state: string;
  reason: string;
}

/**
 * Thrown by `forPayment` when some of the payment's intents cannot be read: a decision about that
 * payment must never be made as if they were not there. It carries what could be read and what could
 * not; the kind decides which unreadable ones still matter (a refund that ended without moving money
 * does not). Lists leave such rows out instead (and health names them).
 */
export class UnreadableRecords extends Error {
  override name = 'UnreadableRecords';
  constructor(
    readonly readable: IntentRecord[],
    readonly unreadable: UnreadableRow[],
  ) {
    super(`${unreadable.length} intent(s) of the payment cannot be read`);
  }
}

/**
 * What a decision may do. Reads see everything committed before the decision began plus its own
 * writes; writes commit together when `fn` returns, or not at all.
 */
export interface DecideTx {
  get(id: string): Promise<IntentRecord | undefined>;
  /** Oldest first. Rejects with UnreadableRecords when one of them cannot be read. */
  forPayment(kind: IntentKind, key: Omit<PaymentKey, 'environment'>): Promise<IntentRecord[]>;
  /** Every intent of `kind` naming this payment at the merchant, any store. */
  byTransaction(kind: IntentKind, merchantNo: string, transactionNo: string): Promise<IntentRecord[]>;
  byReference(kind: IntentKind, merchantNo: string, reference: string): Promise<IntentRecord[]>;
  /** Σ amountMinor of the account's intents of `kind` in `states` and `currency`, created in [from, to). */
  sum(q: {
    kind: IntentKind;
    account: Pick<AccountKey, 'merchantNo' | 'storeNo'>;
    currency: Currency;
    states: readonly string[];
    fromIso: string;
    toIso: string;
  }): Promise<number>;
  /** Inserts an intent (usually as `sending`, with the sender's lease) and its first event. */
  insert(record: IntentRecord, lease: LeaseGrant | undefined, event: IntentEvent): Promise<IntentRecord>;
  transition(t: Transition): Promise<IntentRecord | undefined>;
  audit(entry: AuditRecord): Promise<void>;
  /** Four-eyes, inside the decision; present exactly when the store has `approvals`. */
  approvals?: DecideApprovals;
}

/** An account's approval policy in one currency (the database's; no desk can lower its own). */
export interface ApprovalPolicy {
  /** A refund of more than this (minor units) must be requested and approved by another person. */
  aboveMinor: number;
  expireHours: number;
}

/**
 * The decision's side of four-eyes: read the policy, record a request, or approve one and claim it for
 * sending — each in the decision's unit of work, so the checks the decision made still hold when it
 * commits. The database refuses what its rules forbid (own request, above the checker's limit, expired,
 * not awaiting approval) with an AppError in its own words.
 */
export interface DecideApprovals {
  /** The policy for this account and currency; undefined when refunds of it need no approval. */
  policy(account: AccountKey, currency: Currency): Promise<ApprovalPolicy | undefined>;
  /** Records `record` as awaiting approval with its reason (required); nothing is sent. */
  request(record: IntentRecord, reason: string, event: IntentEvent): Promise<IntentRecord>;
  /**
   * Approves another person's request (or takes up one this person approved earlier and never sent) AND
   * moves it approved -> sending with this sender's lease: one unit of work, so it is never approved
   * without a sender, and the request leaves only after the decision committed.
   */
  approveAndClaim(id: string, lease: LeaseGrant, event: IntentEvent): Promise<IntentRecord>;
}

/** Who this desk's connection is in the team database, and what it may approve. */
export interface TeamIdentity {
  login: string;
  /** refund_viewer, refund_maker, refund_checker. */
  groups: string[];
  /** A checker's personal limits: approves up to this much per currency. */
  limits: Array<{ currency: string; upToMinor: number }>;
}

/**
 * Four-eyes outside a decision (a team database only: a single desk has no second person, so SQLite
 * does not implement it). Each call is its own short unit of work; the database decides who may.
 */
export interface StoreApprovals {
  /** A checker declines another person's request, with a comment (required): nothing is sent. */
  reject(id: string, comment: string): Promise<IntentRecord>;
  /** The requester withdraws their own request, with a comment (required): nothing is sent. */
  cancel(id: string, comment: string): Promise<IntentRecord>;
  /** Requests awaiting approval (or approved and not yet sent), oldest first; expired ones are swept first. */
  open(): Promise<IntentRecord[]>;
  whoAmI(): Promise<TeamIdentity>;
  /**
   * Who may approve a request: other logins with the checker role whose limit in its currency covers
   * its amount (what approving checks, read for the requester's screen; approving still decides).
   */
  approvers(request: { currency: string; amountMinor: number; requestedBy: string }): Promise<string[]>;
}

export interface Transition {
  id: string;
  /** Applies only while the intent is in one of these states (guarded; another process may win). */
  from: readonly string[];
  to: string;
  patch: RecordPatch;
  event: IntentEvent;
  /** Written in the same unit of work as the transition: both or neither. */
  audit?: (next: IntentRecord) => AuditRecord | readonly AuditRecord[] | undefined;
}

export interface Page<T> {
  items: T[];
  /** Pass as `after` for the next page; absent on the last page. */
  next?: string;
}

/** Whose intents: the profile that sent them, or any intent sent to its account (see sameAccount). */
export interface Owner {
  profileId: string;
  account?: AccountKey;
}

export interface IntentStore {
  /**
   * Runs `fn` as ONE unit of work, exclusive against every other decision (in any process, on any
   * machine) whose scope shares a key. What `fn` reads is current; what it writes is durable before this
   * resolves — or nothing is, if it throws. `fn` may be async, but must not touch the network or wait on
   * anything slow: the locks are held until it returns.
   */
  decide<T>(scope: readonly ScopeKey[], fn: (tx: DecideTx) => T | Promise<T>): Promise<T>;
  /** A guarded transition and its audit entry, in one unit of work. Undefined when another changed it first. */
  transition(t: Transition): Promise<IntentRecord | undefined>;
  /** Records the evidence of one query (state unchanged). */
  noteCheck(id: string, check: IntentCheck): Promise<IntentRecord | undefined>;
  checksOf(id: string): Promise<IntentCheck[]>;
  /** Extends the lease of a `sending` intent still held by `holder`; false when it is no longer theirs. */
  renewLease(id: string, holder: string, ms: number): Promise<boolean>;
  /** `sending` intents whose lease has run out (by the store's clock): to be resolved by query. */
  expiredLeases(kind: IntentKind): Promise<IntentRecord[]>;
  get(id: string): Promise<IntentRecord | undefined>;
  /** Intents of `kind` in one of `states`, oldest first. */
  inStates(kind: IntentKind, states: readonly string[]): Promise<IntentRecord[]>;
  forPayment(kind: IntentKind, key: Omit<PaymentKey, 'environment'>): Promise<IntentRecord[]>;
  byTransaction(kind: IntentKind, merchantNo: string, transactionNo: string): Promise<IntentRecord[]>;
  sum: DecideTx['sum'];
  /** Newest first, `limit` at a time (all when absent). */
  list(q: { kind: IntentKind; owner?: Owner; limit?: number; after?: string }): Promise<Page<IntentRecord>>;
  audit: {
    record(entry: AuditRecord): Promise<void>;
    /** Newest first. */
    list(q: {
      kind: IntentKind;
      profileId?: string;
      limit?: number;
      after?: string;
    }): Promise<Page<AuditRecord>>;
  };
  /**
   * Calls `fn` with the intents other processes (or desks) changed, soon after they commit. Returns the
   * unsubscribe. How changes are noticed is the implementation's business (SQLite: its data_version;
   * PostgreSQL: LISTEN/NOTIFY).
   */
  watch(fn: (changed: IntentRecord[]) => void): () => void;
  /** Four-eyes: present on a team database (several people), absent on a single desk's SQLite. */
  approvals?: StoreApprovals;
}
