/**
 * In-memory state with the indexes the endpoints need. Every mutation goes through a method here and
 * calls `onChange`, which the persistence layer debounces into an atomic file write.
 */
import type { CustomerRecord, PaymentRecord, RefundRecord, SandboxData, VaultRecord } from './types';

export class Store {
  readonly seed: number;
  private readonly payments = new Map<string, PaymentRecord>();
  private readonly byReference = new Map<string, PaymentRecord>();
  private readonly byPageToken = new Map<string, PaymentRecord>();
  private readonly refunds = new Map<string, RefundRecord>();
  private readonly customers = new Map<string, CustomerRecord>();
  private readonly vaults = new Map<string, VaultRecord>();
  /** Payments that may still auto-close (init/pending with a timeout): avoids scanning 100k rows. */
  private readonly open = new Set<PaymentRecord>();

  constructor(
    data: SandboxData,
    private readonly onChange: () => void = () => undefined,
  ) {
    this.seed = data.seed;
    for (const p of data.payments) this.indexPayment(p);
    for (const r of data.refunds) this.refunds.set(r.refundTransactionNo, r);
    for (const c of data.customers) this.customers.set(c.customerNo, c);
    for (const v of data.vaults) this.vaults.set(v.vaultId, v);
  }

  private static refKey(merchantNo: string, reference: string): string {
    return `${merchantNo}\u0000${reference}`;
  }

  private indexPayment(p: PaymentRecord): void {
    this.payments.set(p.transactionNo, p);
    this.byReference.set(Store.refKey(p.merchantNo, p.reference), p);
    if (p.pageToken) this.byPageToken.set(p.pageToken, p);
    if ((p.status === 'init' || p.status === 'pending') && p.timeoutMin !== undefined) this.open.add(p);
  }

  /** True when any payment, refund, customer or vault already uses `id`. */
  isTaken(id: string): boolean {
    return this.payments.has(id) || this.refunds.has(id) || this.customers.has(id) || this.vaults.has(id);
  }

  payment(transactionNo: string): PaymentRecord | undefined {
    return this.payments.get(transactionNo);
  }

  paymentByReference(merchantNo: string, reference: string): PaymentRecord | undefined {
    return this.byReference.get(Store.refKey(merchantNo, reference));
  }

  paymentByPageToken(token: string): PaymentRecord | undefined {
    return this.byPageToken.get(token);
  }

  refund(refundTransactionNo: string): RefundRecord | undefined {
    return this.refunds.get(refundTransactionNo);
  }

  refundsOf(p: PaymentRecord): RefundRecord[] {
    return p.refunds.map((no) => this.refunds.get(no)).filter((r): r is RefundRecord => r !== undefined);
  }

  customer(customerNo: string): CustomerRecord | undefined {
    return this.customers.get(customerNo);
  }

  vault(vaultId: string): VaultRecord | undefined {
    return this.vaults.get(vaultId);
  }

  allPayments(): IterableIterator<PaymentRecord> {
    return this.payments.values();
  }

  allRefunds(): IterableIterator<RefundRecord> {
    return this.refunds.values();
  }

  openPayments(): PaymentRecord[] {
    return [...this.open];
  }

  addPayment(p: PaymentRecord): void {
    this.indexPayment(p);
    this.onChange();
  }

  /** Applies a change to a payment (status, vault…) and keeps the indexes right. */
  updatePayment(
    p: PaymentRecord,
    patch: Partial<Pick<PaymentRecord, 'status' | 'paidAt' | 'vaultId'>>,
  ): void {
    Object.assign(p, patch);
    if (p.status !== 'init' && p.status !== 'pending') this.open.delete(p);
    this.onChange();
  }

  addRefund(p: PaymentRecord, r: RefundRecord): void {
    this.refunds.set(r.refundTransactionNo, r);
    p.refunds.push(r.refundTransactionNo);
    this.onChange();
  }

  updateRefund(r: RefundRecord, patch: Partial<Pick<RefundRecord, 'status' | 'settledAt'>>): void {
    Object.assign(r, patch);
    this.onChange();
  }

  addCustomer(c: CustomerRecord): void {
    this.customers.set(c.customerNo, c);
    this.onChange();
  }

  addVault(v: VaultRecord): void {
    this.vaults.set(v.vaultId, v);
    this.onChange();
  }

  counts(): { payments: number; refunds: number; customers: number; vaults: number } {
    return {
      payments: this.payments.size,
      refunds: this.refunds.size,
      customers: this.customers.size,
      vaults: this.vaults.size,
    };
  }

  /** Plain data for persistence. */
  snapshot(): SandboxData {
    return {
      version: 1,
      seed: this.seed,
      payments: [...this.payments.values()],
      refunds: [...this.refunds.values()],
      customers: [...this.customers.values()],
      vaults: [...this.vaults.values()],
    };
  }
}
