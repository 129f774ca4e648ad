/**
 * Month-end close, durably (the port): a run's exceptions, their audit and the run's sign-off, kept
 * BESIDE the run's record (./run-store.ts) and never writing it. A single desk keeps them in its own
 * SQLite database next to its runs (adapters/sqlite/recon-close-store.ts); in team mode they live in the
 * team database (adapters/postgres/close-store.ts), so a controller on another desk signs what the
 * clerks worked. Both pass test/contract/close.contract.ts.
 */
import type { AccountKey } from '../../../../shared/domain/account';
import type { ExceptionRecord } from '../../../../shared/recon/exceptions';
import type { ReconItem } from '../../../../shared/recon/match';
import type { RunFacts } from '../../../../shared/recon/run';
import type { SignOff } from '../../../../shared/recon/seal';
import type { ReconSummary } from '../../../../shared/recon/summary';

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
  /** Team database only: the login that wrote it (`session_user`) and the desk it announced. */
  login?: string;
  desk?: string;
}

/** Why a change of exceptions was not written. */
export type ExceptionWriteResult =
  | { ok: true }
  | { ok: false; reason: 'signed' }
  | { ok: false; reason: 'changed'; id: string }
  | { ok: false; reason: 'missing'; id: string };

/**
 * An ended run as other desks see it in the team database: what they need to work and sign it. The
 * figures are the run's own, published once and never rewritten; `recordHash` is the SHA-256 of the
 * run's whole record as sealed (shared/recon/seal.ts recordLines: facts, summary, statement and EVERY
 * item), so a desk that holds the run can prove the published copy is the record it signed.
 */
export interface PublishedRun {
  facts: RunFacts;
  summary: ReconSummary;
  statement: string[];
  /** How many items the whole record has (only the non-matched ones are published). */
  items: number;
  exceptionItems: Array<{ seq: number; item: ReconItem }>;
  recordHash: string;
}

/** A published run's header, as listed for a controller. */
export interface PublishedRunHeader {
  runId: string;
  profileId: string;
  profileName: string;
  /** The account the run compared against (its facts' `account`; absent for runs made before it was kept). */
  account?: AccountKey;
  label: string;
  period?: { from: string; to: string };
  createdAt: string;
  items: number;
  exceptionItems: number;
  recordHash: string;
  /** Who published it (the login), from which desk, on the server's clock. */
  publishedBy: string;
  publishedDesk: string;
  publishedAt: string;
  signOff?: SignOff;
}

export interface CloseStore {
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
  /**
   * Present when the close is shared with other desks (the team database): ended runs are published
   * there, since the other desks do not hold the run's record.
   */
  team?: TeamClose;
}

export interface TeamClose {
  /**
   * Publishes an ended run (once; publishing the same record again changes nothing). Refused when the
   * run id was published with another record: a run's figures are never rewritten.
   */
  publish(run: PublishedRun): Promise<'published' | 'already'>;
  readRun(runId: string): Promise<(PublishedRunHeader & Omit<PublishedRun, 'exceptionItems'>) | undefined>;
  /** Published runs not signed yet, newest first. */
  awaitingSignOff(): Promise<PublishedRunHeader[]>;
}
