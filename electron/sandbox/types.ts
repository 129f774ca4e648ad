/**
 * Records the sandbox keeps. Amounts are integer minor units; instants are epoch milliseconds (UTC),
 * converted to the service's UTC+8 strings only at the wire.
 */
import type { Currency } from '../../shared/domain/currencies';
import type { RefundStatus, TransactionStatus } from '../../shared/protocol/statuses';

/** A merchant account with its stores and API token (the token only ever signs, it is never sent). */
export interface Merchant {
  merchantNo: string;
  storeNos: string[];
  token: string;
}

/** One payment transaction. */
export interface PaymentRecord {
  transactionNo: string;
  merchantNo: string;
  storeNo: string;
  reference: string;
  amountMinor: number;
  currency: Currency;
  settleCurrency: Currency;
  vendor: string;
  terminal: string;
  status: TransactionStatus;
  /** Creation instant (ms). */
  createdAt: number;
  /** When it reached a final payment status (ms). */
  paidAt?: number;
  /** Minutes an unpaid payment stays open; absent for seeded snapshots, which never auto-close. */
  timeoutMin?: number;
  ipnUrl?: string;
  callbackUrl?: string;
  description?: string;
  note?: string;
  goodsInfo?: string;
  creditType?: string;
  customerNo?: string;
  /** Vault created by this payment, or the vault it charged. */
  vaultId?: string;
  /** Only the last four digits of a card ever exist here (PCI: never the full number). */
  cardLast4?: string;
  /** `capture` payments send v4-style IPNs (completedAt instead of time). */
  channel: 'seed' | 'secure-pay' | 'capture';
  /** Opaque token of the hosted checkout or 3-D Secure page for this payment. */
  pageToken?: string;
  /** Refund numbers of this payment, oldest first. */
  refunds: string[];
}

/** One refund of a payment. */
export interface RefundRecord {
  refundTransactionNo: string;
  transactionNo: string;
  refundReference?: string;
  refundAmountMinor: number;
  currency: Currency;
  settleCurrency: Currency;
  status: RefundStatus;
  createdAt: number;
  settledAt?: number;
  ipnUrl?: string;
}

/** A registered customer (customers/create). */
export interface CustomerRecord {
  customerNo: string;
  merchantNo: string;
  customerCode?: string;
  firstName: string;
  lastName: string;
  email: string;
  countryCode: string;
  createdAt: number;
}

/** A stored payment method (vaulting). Card vaults keep last4 and expiry only. */
export interface VaultRecord {
  vaultId: string;
  merchantNo: string;
  vendor: string;
  customerNo?: string;
  cardLast4?: string;
  expYear?: string;
  expMonth?: string;
  createdAt: number;
}

/** Everything that persists. */
export interface SandboxData {
  version: 1;
  seed: number;
  payments: PaymentRecord[];
  refunds: RefundRecord[];
  customers: CustomerRecord[];
  vaults: VaultRecord[];
}
