/**
 * Payment lifecycle shared by secure-pay, capture, the hosted pages and the admin endpoint: final
 * results (with IPN and vaulting), timeout closing, and the wire form of a transaction.
 */
import { toWireAmount } from '../../shared/domain/money';
import { toIpnTime, toServiceDateTime } from '../../shared/protocol/time';
import { findMerchant } from './catalog';
import type { SandboxContext } from './context';
import type { PaymentRecord, RefundRecord } from './types';

/** Final outcome a payer (or the admin) can give an open payment. */
export type PaymentOutcome = 'success' | 'failed';

/** True while a payment can still be paid, failed or closed. */
export function isOpen(p: PaymentRecord): boolean {
  return p.status === 'init' || p.status === 'pending';
}

/** Closes unpaid payments whose `timeout` has passed (secure-pay's `timeout`: unpaid → closed). No IPN. */
export function closeExpired(ctx: SandboxContext): void {
  const now = ctx.now();
  for (const p of ctx.store.openPayments()) {
    if (p.timeoutMin !== undefined && isOpen(p) && now >= p.createdAt + p.timeoutMin * 60_000) {
      ctx.store.updatePayment(p, { status: 'closed' });
    }
  }
}

/** Fields of the payment IPN: v3 payments carry `time` (UTC+8), capture (v4) `completedAt` (ISO UTC). */
export function paymentIpnParams(p: PaymentRecord, atMs: number): Record<string, string | undefined> {
  const common = {
    amount: toWireAmount(p.amountMinor, p.currency),
    currency: p.currency,
    settleCurrency: p.settleCurrency,
    reference: p.reference,
    status: p.status,
    transactionNo: p.transactionNo,
    note: p.note,
  };
  if (p.channel === 'capture') {
    return {
      ...common,
      completedAt: new Date(atMs).toISOString(),
      customerNo: p.customerNo,
      vaultId: p.vaultId,
    };
  }
  return { ...common, time: toIpnTime(atMs), vaultId: p.vaultId };
}

/** Sends the payment-result IPN when the payment has an ipnUrl. */
export function notifyPayment(ctx: SandboxContext, p: PaymentRecord): void {
  const merchant = findMerchant(ctx.merchants, p.merchantNo);
  if (!p.ipnUrl || !merchant) return;
  ctx.ipn.send('payment', p.ipnUrl, paymentIpnParams(p, p.paidAt ?? ctx.now()), merchant.token);
}

/**
 * Gives an open payment its final result. A successful `creditType=vault` payment stores the method
 * and the new vaultId travels in the IPN. Returns false when the payment was no longer open.
 */
export function completePayment(ctx: SandboxContext, p: PaymentRecord, outcome: PaymentOutcome): boolean {
  closeExpired(ctx);
  if (!isOpen(p)) return false;
  const now = ctx.now();
  let vaultId = p.vaultId;
  if (outcome === 'success' && p.creditType === 'vault' && !vaultId) {
    vaultId = ctx.ids.vaultId();
    ctx.store.addVault({
      vaultId,
      merchantNo: p.merchantNo,
      vendor: p.vendor,
      ...(p.customerNo ? { customerNo: p.customerNo } : {}),
      ...(p.cardLast4 ? { cardLast4: p.cardLast4 } : {}),
      createdAt: now,
    });
  }
  ctx.store.updatePayment(p, { status: outcome, paidAt: now, ...(vaultId ? { vaultId } : {}) });
  notifyPayment(ctx, p);
  return true;
}

/** One refundInfo entry (both id spellings, so old and new clients parse it). */
export function wireRefund(r: RefundRecord): Record<string, string> {
  return {
    refundTransactionId: r.refundTransactionNo,
    refundTransactionNo: r.refundTransactionNo,
    refundReference: r.refundReference ?? '',
    refundAmount: toWireAmount(r.refundAmountMinor, r.currency),
    currency: r.currency,
    settleCurrency: r.settleCurrency,
    status: r.status,
    createTime: toServiceDateTime(r.createdAt),
    ...(r.settledAt !== undefined ? { refundTime: toServiceDateTime(r.settledAt) } : {}),
  };
}

/** A payment as tran-query and trans-list return it. */
export function wirePayment(ctx: SandboxContext, p: PaymentRecord): Record<string, unknown> {
  return {
    transactionNo: p.transactionNo,
    reference: p.reference,
    amount: toWireAmount(p.amountMinor, p.currency),
    status: p.status,
    currency: p.currency,
    settleCurrency: p.settleCurrency,
    transactionType: 'payment',
    vendor: p.vendor,
    terminal: p.terminal,
    storeNo: p.storeNo,
    createTime: toServiceDateTime(p.createdAt),
    ...(p.paidAt !== undefined ? { paymentTime: toServiceDateTime(p.paidAt) } : {}),
    ...(p.note ? { note: p.note } : {}),
    ...(p.customerNo ? { customerNo: p.customerNo } : {}),
    ...(p.vaultId ? { vaultId: p.vaultId } : {}),
    ...(p.cardLast4 ? { cardLast4: p.cardLast4 } : {}),
    refundInfo: ctx.store.refundsOf(p).map(wireRefund),
  };
}

/**
 * A single refund queried by refundTransactionNo: reported as its own transaction of type `refund`
 * (sandbox choice, modelled on the vendor's Transaction Object), with the original's numbers beside it.
 */
export function wireRefundTransaction(p: PaymentRecord, r: RefundRecord): Record<string, unknown> {
  return {
    transactionNo: r.refundTransactionNo,
    refundTransactionNo: r.refundTransactionNo,
    originalTransactionNo: p.transactionNo,
    reference: p.reference,
    refundReference: r.refundReference ?? '',
    amount: toWireAmount(r.refundAmountMinor, r.currency),
    refundAmount: toWireAmount(r.refundAmountMinor, r.currency),
    originalAmount: toWireAmount(p.amountMinor, p.currency),
    status: r.status,
    currency: r.currency,
    settleCurrency: r.settleCurrency,
    transactionType: 'refund',
    vendor: p.vendor,
    createTime: toServiceDateTime(r.createdAt),
    ...(r.settledAt !== undefined ? { paymentTime: toServiceDateTime(r.settledAt) } : {}),
    refundInfo: [],
  };
}
