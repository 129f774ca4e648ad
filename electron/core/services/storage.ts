import type { BatchStore } from './batch/store-port';
import type { IntentStore } from './engine/port';
import type { IpnEvent } from './ipn/events';
import type { CustomerStore } from './payments/store';
import type { JobStore } from './reconciliation/job-store';
import type { CloseStore } from './reconciliation/close-store';
import type { RunStore } from './reconciliation/run-store';
import type { PaymentTimelineStore } from './timeline/port';

/** A problem with main's durable state, for the health indicator: what is wrong and what to do. */
export interface StorageProblem {
  name: string;
  detail: string;
}

/** What team storage says about its database now (Settings, the header, the read-only banner). */
export interface TeamStorageState {
  /** The address as it may be shown (no password). */
  address?: string;
  login?: string;
  /** This desk's id, stamped by the database beside the person on every write. */
  deskId?: string;
  /** That id exactly as the database stamps it (`created_desk`: made safe for the connection's options). */
  deskStamp?: string;
  schema?: { database: number; desk: number };
  /** Since when (ISO) the database could not be reached; gone by itself once it can. */
  unreachableSince?: string;
}

/**
 * Main's durable state, opened by the host and handed to the composition root (compose.ts): the
 * engine's intents and audit (the port every database implements: engine/port.ts), and what the other
 * services keep. SQLite (adapters/sqlite/app-storage.ts) is the implementation a single desk uses; a
 * desk in team mode keeps its journal in the team's PostgreSQL database (adapters/team-storage.ts).
 */
export interface AppStorage {
  intents: IntentStore;
  /** Customers and stored methods registered from this desk. */
  customers: CustomerStore;
  jobs: JobStore;
  /** Reconciliation run records (facts, ledger, the period's list, report items). */
  runs: RunStore;
  /**
   * Month-end close (exceptions, notes, sign-offs): beside the runs in the desk's SQLite, or — team
   * storage — the team database's (adapters/postgres/close-store.ts), so every desk closes the same runs.
   */
  closing: CloseStore;
  /** Notes on payments and what the timeline reads besides the intents (IPNs). */
  timeline: PaymentTimelineStore;
  /** Refund batches and their rows (issue 27); absent: batches can be dry-run but not executed. */
  batches?: BatchStore;
  /** Records a verified IPN under its dedup key; 'duplicate' if that key was ever recorded. */
  recordIpn(event: IpnEvent, key: string): Promise<'recorded' | 'duplicate'>;
  /**
   * Imports what earlier versions kept in files (each content once), then keeps versions before the
   * database from refunding in this data directory. `baseUrlFor`: the service address of a profile
   * that still exists (intents of earlier versions did not record it).
   */
  importEarlierFiles?(baseUrlFor: (profileId: string) => string | undefined): void;
  /** Set when the database cannot be trusted: refunds and payments must be refused with this reason. */
  untrusted(): string | undefined;
  /**
   * Set when the database could not be opened at all (damaged, written by a newer version): what is
   * listed is an empty stand-in, so lists must say "cannot be read" with this reason, never "none".
   */
  unreadable(): string | undefined;
  problems(): StorageProblem[];
  /**
   * Team storage only (absent for a single desk): the team database this desk works with. Why it is
   * read-only, if it is, is `untrusted()`.
   */
  team?(): TeamStorageState;
  /** What health shows as fine about the storage (the team database: address, login, schema version). */
  notes?(): StorageProblem[];
  /** A network store finishes closing its connections asynchronously. */
  close(): void | Promise<void>;
}
