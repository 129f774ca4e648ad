/**
 * Refund rules (shared/protocol/README.md, "Refund"): only `success` payments; pending + succeeded
 * refunds never exceed the amount; currency and settleCurrency as the original; each refund its own
 * refundTransactionNo, `pending` until it settles (after refundSettleMs) to `success` or `failed`. No
 * refundReference dedup.
 */
import { findMerchant } from './catalog';
import type { FaultInjector } from './faults';
import type { IdFactory } from './ids';
import type { IpnDispatcher } from './ipn';
import { KeyedMutex } from './mutex';
import { ApiError } from './params';
import { RET } from '../../shared/protocol/ret-codes';
import { toWireAmount } from '../../shared/domain/money';
import { toIpnTime } from '../../shared/protocol/time';
import type { Store } from './store';
import type { Merchant, PaymentRecord, RefundRecord } from './types';

/** A refund refused because it asks for more than the payment has left (counted by refund-requests.ts). */
export class OverRemainderError extends ApiError {}

export interface RefundRequest {
  refundAmountMinor: number;
  currency: string;
  settleCurrency: string;
  refundReference?: string;
  ipnUrl?: string;
}

export interface RefundEngine {
  /** Checks and records one refund, serialized per transaction. Throws ApiError on a rule. */
  apply(p: PaymentRecord, req: RefundRequest): Promise<RefundRecord>;
  /** Sum of pending + succeeded refunds of a payment (minor units). */
  committedMinor(p: PaymentRecord): number;
  /** Schedules settlement of every pending refund (at start, e.g. after a restart). */
  resumePending(): void;
  close(): void;
}

export function createRefundEngine(deps: {
  store: Store;
  ids: IdFactory;
  faults: FaultInjector;
  ipn: IpnDispatcher;
  merchants: readonly Merchant[];
  now: () => number;
  settleMs: number;
}): RefundEngine {
  const mutex = new KeyedMutex();
  const timers = new Set<NodeJS.Timeout>();
  let closed = false;

  const committedMinor = (p: PaymentRecord): number =>
    deps.store
      .refundsOf(p)
      .filter((r) => r.status === 'pending' || r.status === 'success')
      .reduce((sum, r) => sum + r.refundAmountMinor, 0);

  const settle = (r: RefundRecord): void => {
    if (closed || r.status !== 'pending') return;
    const failed = deps.faults.roll(deps.faults.config().refundFailRate);
    deps.store.updateRefund(r, { status: failed ? 'failed' : 'success', settledAt: deps.now() });
    const p = deps.store.payment(r.transactionNo);
    const merchant = p && findMerchant(deps.merchants, p.merchantNo);
    const url = r.ipnUrl ?? p?.ipnUrl;
    if (!p || !merchant || !url) return;
    // Refund IPN fields are a sandbox choice (shared/protocol/README.md, "IPN").
    deps.ipn.send(
      'refund',
      url,
      {
        transactionType: 'refund',
        refundTransactionNo: r.refundTransactionNo,
        refundReference: r.refundReference,
        refundAmount: toWireAmount(r.refundAmountMinor, r.currency),
        transactionNo: p.transactionNo,
        reference: p.reference,
        currency: r.currency,
        settleCurrency: r.settleCurrency,
        status: r.status,
        time: toIpnTime(r.settledAt ?? deps.now()),
      },
      merchant.token,
    );
  };

  const scheduleSettle = (r: RefundRecord): void => {
    const t = setTimeout(() => {
      timers.delete(t);
      settle(r);
    }, deps.settleMs);
    t.unref();
    timers.add(t);
  };

  return {
    committedMinor,
    apply(p, req) {
      return mutex.run(p.transactionNo, async () => {
        if (p.status !== 'success')
          throw new ApiError(
            RET.STATUS_ERROR,
            `transaction status is ${p.status}, only success can be refunded`,
          );
        if (req.currency !== p.currency)
          throw new ApiError(RET.BAD_VALUE, `currency must be ${p.currency}, as the original`);
        if (req.settleCurrency !== p.settleCurrency)
          throw new ApiError(RET.BAD_VALUE, `settleCurrency must be ${p.settleCurrency}, as the original`);
        const remaining = p.amountMinor - committedMinor(p);
        if (remaining <= 0)
          throw new OverRemainderError(RET.STATUS_ERROR, 'transaction is already fully refunded');
        if (req.refundAmountMinor > remaining) {
          throw new OverRemainderError(
            RET.BAD_VALUE,
            `refundAmount exceeds the refundable remainder ${toWireAmount(remaining, p.currency)}`,
          );
        }
        // The acquirer round trip sits between the check and the write, as in a real service: without
        // the mutex, concurrent refunds would all pass the check above (the concurrency test fails without it).
        await new Promise<void>((resolve) => setTimeout(resolve, 1));
        const refund: RefundRecord = {
          refundTransactionNo: deps.ids.transactionNo(),
          transactionNo: p.transactionNo,
          ...(req.refundReference !== undefined ? { refundReference: req.refundReference } : {}),
          refundAmountMinor: req.refundAmountMinor,
          currency: p.currency,
          settleCurrency: p.settleCurrency,
          status: 'pending',
          createdAt: deps.now(),
          ...(req.ipnUrl !== undefined ? { ipnUrl: req.ipnUrl } : {}),
        };
        deps.store.addRefund(p, refund);
        scheduleSettle(refund);
        return refund;
      });
    },
    resumePending() {
      for (const r of deps.store.allRefunds()) if (r.status === 'pending') scheduleSettle(r);
    },
    close() {
      closed = true;
      for (const t of timers) clearTimeout(t);
      timers.clear();
    },
  };
}
