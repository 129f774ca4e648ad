import type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
import type { PaymentAccount, PaymentDraft, PaymentIntent, PaymentPatch, PaymentState } from './intent';

/** A customer registered from this desk, as kept locally (the service has no customer lookup). */
export interface CustomerRecord extends Omit<PaymentAccount, 'profileName'> {
  id: string;
  customerNo: string;
  customerCode?: string;
  firstName: string;
  lastName: string;
  email: string;
  countryCode: string;
  state?: string;
  operator: string;
  createdAt: string;
}

/** A stored payment method: the service's vaultId (main only) and what a person recognises it by. */
export interface StoredMethod {
  id: string;
  customerId: string;
  vendor: string;
  vaultId: string;
  cardLast4?: string;
  /** The payment that stored it. */
  paymentId?: string;
  createdAt: string;
}

export type InsertResult =
  | { ok: true; intent: PaymentIntent }
  /** This desk already used the reference for this merchant (the service would refuse it too). */
  | { ok: false; reason: 'reference_in_use'; existing: PaymentIntent };

/**
 * The payments service's port to durable storage (adapters/sqlite/payment-store.ts). The service owns
 * the rules; the store owns atomicity across every process sharing the data directory.
 */
export interface PaymentStore {
  /**
   * Inserts the intent as `sending` for `sender`, committed (fsync) before this returns — unless the
   * merchant reference is already taken by an intent the service did not reject.
   */
  insertSending(draft: PaymentDraft, sender: string, at: string): InsertResult;
  get(id: string): PaymentIntent | undefined;
  /** Newest first. */
  /** One profile's payment intents, or every profile's when none is named. */
  list(profileId?: string): PaymentIntent[];
  /** Every intent whose creation or payment is not final yet (resume, follower). */
  unfinished(): PaymentIntent[];
  byTransaction(merchantNo: string, transactionNo: string): PaymentIntent | undefined;
  /**
   * Guarded: applies only while the intent is in one of `from`; undefined when something else won.
   * Throws `conflict` (details.transactionNoTakenBy) when the patch's transactionNo is already recorded
   * for another intent of the merchant: one payment, one intent.
   */
  transition(
    id: string,
    from: readonly PaymentState[],
    to: PaymentState,
    patch: PaymentPatch,
    event: { at: string; type: string; data?: Record<string, unknown> },
  ): PaymentIntent | undefined;
  /** Records the evidence of one query about an intent (its state is unchanged). */
  noteCheck(id: string, check: { at: string; found: boolean; note: string }): PaymentIntent | undefined;
  /**
   * Keeps a stored method on its customer and links it to the payment that created it, in one
   * transaction. Saving the same vaultId for the same customer again returns the method already kept.
   */
  saveMethod(paymentId: string, method: StoredMethod, at: string): StoredMethod;
  customers: {
    insert(c: CustomerRecord): CustomerRecord;
    get(id: string): CustomerRecord | undefined;
    /** Newest first. */
    list(profileId?: string): CustomerRecord[];
  };
  methods: {
    get(id: string): StoredMethod | undefined;
    forCustomer(customerId: string): StoredMethod[];
  };
  audit: {
    record(entry: PaymentAuditEntry): void;
    /** Newest first. */
    list(): PaymentAuditEntry[];
  };
}
