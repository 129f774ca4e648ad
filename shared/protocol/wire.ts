import { z } from 'zod';
import { toCurrency } from '../domain/currencies';
import { parseWireAmount } from '../domain/money';
import type { RefundRecord, Transaction } from '../domain/transaction';
import { normaliseRefundStatus, normaliseTransactionStatus } from './statuses';
import { serviceTimeToIso } from './time';

/**
 * Wire schemas of the payment service's responses, lenient where older servers differ (./README.md)
 * (id spellings, amounts as JSON numbers), strict where money is concerned.
 */
const amount = z.union([z.string(), z.number()]);
const optStr = z.string().optional().nullable();

export const envelopeSchema = z.object({
  ret_code: z.string(),
  ret_msg: z.string().optional().nullable(),
  result: z.unknown().optional(),
  customer: z.unknown().optional(),
  transactions: z.unknown().optional(),
  size: z.union([z.string(), z.number()]).optional(),
});
export type WireEnvelope = z.infer<typeof envelopeSchema>;

export const refundInfoSchema = z
  .object({
    refundTransactionId: optStr,
    refundTransactionNo: optStr,
    refundReference: optStr,
    refundAmount: amount,
    currency: optStr,
    settleCurrency: optStr,
    status: optStr,
    createTime: optStr,
  })
  .passthrough();

export const tranQueryResultSchema = z
  .object({
    transactionNo: optStr,
    oldTransactionId: optStr,
    yuansferId: optStr,
    reference: optStr,
    amount,
    status: z.string(),
    currency: z.string(),
    settleCurrency: optStr,
    transactionType: optStr,
    vendor: optStr,
    createTime: optStr,
    paymentTime: optStr,
    // Informational only, so any shape is accepted here and anything odd is dropped below, rather
    // than failing a lookup over a display field.
    cardLast4: z.unknown().optional(),
    cardNumber: z.unknown().optional(),
    refundInfo: z.array(refundInfoSchema).optional().nullable(),
  })
  .passthrough();
export type WireTranQueryResult = z.infer<typeof tranQueryResultSchema>;

/**
 * The card's last four digits from whichever field the service sends: `cardLast4`, or a masked
 * `cardNumber` ("411111******1111"). Anything that is not exactly four digits at the end is dropped, and
 * nothing more of a number is ever kept.
 */
function cardLast4Of(r: Pick<WireTranQueryResult, 'cardLast4' | 'cardNumber'>): string | undefined {
  const last4 = typeof r.cardLast4 === 'number' ? String(r.cardLast4).padStart(4, '0') : r.cardLast4;
  if (typeof last4 === 'string' && /^\d{4}$/.test(last4)) return last4;
  if (typeof r.cardNumber !== 'string') return undefined;
  return r.cardNumber.match(/[*xX•]+[\s-]*(\d{4})$/)?.[1];
}

/**
 * `payment` or `refund` as the service says; anything else — missing, empty, a type this app does not
 * know — is `unknown`, which is never refundable (a record is not taken for a payment by default).
 */
function transactionTypeOf(raw: string | null | undefined): Transaction['transactionType'] {
  const t = raw?.trim().toLowerCase();
  return t === 'payment' || t === 'refund' ? t : 'unknown';
}

/**
 * Maps a validated tran-query (or trans-list) result to the domain Transaction. Throws on bad money:
 * UnsupportedCurrencyError (shared/domain/currencies.ts) when the payment or one of its refunds is in a
 * currency this app does not handle, whose minor unit it would otherwise have to guess.
 */
export function toTransaction(r: WireTranQueryResult): Transaction {
  const transactionNo = r.transactionNo ?? r.oldTransactionId ?? r.yuansferId;
  if (!transactionNo) throw new Error('transaction without transactionNo');
  const refunds: RefundRecord[] = (r.refundInfo ?? []).map((ri) => {
    const currency = toCurrency(ri.currency ?? r.currency);
    const id = ri.refundTransactionNo ?? ri.refundTransactionId;
    if (!id) throw new Error('refundInfo entry without refundTransactionNo');
    const refundCreatedAt = serviceTimeToIso(ri.createTime);
    return {
      refundTransactionNo: id,
      ...(ri.refundReference ? { refundReference: ri.refundReference } : {}),
      refundAmountMinor: parseWireAmount(ri.refundAmount, currency),
      currency,
      ...(ri.settleCurrency ? { settleCurrency: toCurrency(ri.settleCurrency) } : {}),
      status: normaliseRefundStatus(ri.status ?? undefined),
      ...(refundCreatedAt ? { createdAt: refundCreatedAt } : {}),
    };
  });
  const currency = toCurrency(r.currency);
  const createdAt = serviceTimeToIso(r.createTime);
  const paidAt = serviceTimeToIso(r.paymentTime);
  const last4 = cardLast4Of(r);
  return {
    transactionNo,
    ...(r.reference ? { reference: r.reference } : {}),
    amountMinor: parseWireAmount(r.amount, currency),
    currency,
    ...(r.settleCurrency ? { settleCurrency: toCurrency(r.settleCurrency) } : {}),
    status: normaliseTransactionStatus(r.status),
    ...(r.vendor ? { vendor: r.vendor } : {}),
    transactionType: transactionTypeOf(r.transactionType),
    ...(createdAt ? { createdAt } : {}),
    ...(paidAt ? { paidAt } : {}),
    ...(last4 ? { cardLast4: last4 } : {}),
    refunds,
  };
}
