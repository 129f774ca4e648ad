import type { Currency } from '../../../../shared/domain/currencies';
import type { z } from 'zod';
import type { goodsLineSchema, PaymentKind, PaymentState } from '../../../../shared/ipc/contract/payments';
import type { IntentAccount } from '../engine/account';

/**
 * Payment-creation intents. A create is journaled (one row, committed) as `sending` BEFORE its request
 * leaves, carrying the reference the service will know it by; every later change is a guarded
 * transition recorded with an event:
 *
 *   (one transaction) ─▶ sending ──HTTP──▶ open(transactionNo) ──IPN/poll──▶ succeeded | failed | closed
 *                          ├──▶ rejected(ret_code, ret_msg)            nothing was created
 *                          └──▶ outcome_unknown ──tran-query by reference──▶ open | succeeded | …
 *                                                  └─ still not found 10 minutes after sending ──▶ not_created
 *
 * A create whose outcome is unknown is never sent again: the reference is unique per merchant at the
 * service, so querying it tells whether the payment exists.
 */
export type { PaymentKind, PaymentState };
export type PaymentAccount = IntentAccount;

export const FINAL_PAYMENT_STATES: ReadonlySet<PaymentState> = new Set([
  'succeeded',
  'failed',
  'closed',
  'rejected',
  'not_created',
]);

/** The service's payment statuses that end a payment's life (shared/protocol/README.md "Statuses"). */
export function finalStateFor(status: string): PaymentState | undefined {
  if (status === 'success') return 'succeeded';
  if (status === 'failed' || status === 'reversed') return 'failed';
  if (status === 'closed') return 'closed';
  return undefined;
}

export type GoodsLine = z.infer<typeof goodsLineSchema>;

export interface PaymentDraft extends PaymentAccount {
  id: string;
  kind: PaymentKind;
  operator: string;
  reference: string;
  amountMinor: number;
  currency: Currency;
  settleCurrency: Currency;
  vendor: string;
  terminal: string;
  description?: string;
  note?: string;
  goods: GoodsLine[];
  timeoutMin?: number;
  customerId?: string;
  customerNo?: string;
  methodId?: string;
  saveCard: boolean;
  /** The only part of a card number ever kept. */
  cardLast4?: string;
  createdAt: string;
}

export interface PaymentIntent extends PaymentDraft {
  state: PaymentState;
  updatedAt: string;
  /** `host:pid` of the process that sends (or sent) the request. */
  sender?: string;
  transactionNo?: string;
  paymentStatus?: string;
  cashierUrl?: string;
  authUrl?: string;
  /** The stored method this payment created (Save card), once the service has vaulted it. */
  savedMethodId?: string;
  retCode?: string;
  retMsg?: string;
  detail?: string;
  lastCheck?: { at: string; found: boolean; note: string };
  checks: number;
  paidAt?: string;
}

/** What a transition may change besides the state; null clears a field. */
export type PaymentPatch = {
  [
    K in
      | 'transactionNo'
      | 'paymentStatus'
      | 'cashierUrl'
      | 'authUrl'
      | 'retCode'
      | 'retMsg'
      | 'detail'
      | 'paidAt'
  ]?: string | null;
};

/** One entry of the payments audit log: who, what, when and the service's answer — never card data or tokens. */
export type { PaymentAuditEntry } from '../../../../shared/ipc/contract/payments';
