import type { RecordedEnvironment } from '../../../../shared/domain/profile';
import type { AuditRecord, IntentKind } from '../engine/port';

/** The payment a timeline is about, at its account (intents and notes are keyed by the account). */
export interface TimelineKey {
  profileId: string;
  environment: RecordedEnvironment;
  merchantNo: string;
  storeNo: string;
  transactionNo: string;
}

export interface PaymentNote extends TimelineKey {
  id: string;
  at: string;
  operator: string;
  text: string;
}

/** What main keeps about one payment, one row per thing that happened (unordered). */
export type TimelineRow =
  | ({ source: 'audit'; kind: IntentKind } & Pick<
      AuditRecord,
      'at' | 'outcome' | 'operator' | 'amountMinor' | 'currency' | 'retMsg' | 'detail' | 'data'
    >)
  | { source: 'check'; kind: IntentKind; at: string; note: string; found: boolean }
  | { source: 'ipn'; at: string; kind: 'payment' | 'refund'; status: string; refundTransactionNo?: string }
  | { source: 'note'; at: string; operator: string; text: string }
  | { source: 'lookup'; at: string; operator: string; matchedBy: string };

/** A look-up that found the payment: who asked, when, and by which number it was found. */
export interface PaymentLookup extends TimelineKey {
  at: string;
  operator: string;
  matchedBy: string;
}

/**
 * The timeline's port to durable storage (SQLite: adapters/sqlite/timeline-store.ts). `addNote` keeps
 * the note and its audit entry in one unit of work: a note is never kept without its audit row.
 */
export interface PaymentTimelineStore {
  addNote(note: PaymentNote, audit: AuditRecord): Promise<void>;
  recordLookup(lookup: PaymentLookup): Promise<void>;
  rows(key: TimelineKey): Promise<TimelineRow[]>;
}
