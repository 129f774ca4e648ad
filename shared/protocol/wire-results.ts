import { z } from 'zod';
import { type Currency, toCurrency } from '../domain/currencies';
import { parseWireAmount } from '../domain/money';
import { normaliseRefundStatus } from './statuses';
import { tranQueryResultSchema } from './wire';

/**
 * Wire schemas of the write endpoints' results (customer create, secure-pay, capture, refund) and of
 * the optional trans-list. Lenient about extra fields and legacy spellings (./README.md), strict about
 * the ids and amounts the app acts on.
 */
const optStr = z.string().optional().nullable();
const amount = z.union([z.string(), z.number()]);

export const customerResultSchema = z
  .object({
    customerNo: z.union([z.string(), z.number()]).transform(String),
    customerCode: optStr,
    firstName: optStr,
    lastName: optStr,
    email: optStr,
    createdTime: optStr,
  })
  .passthrough();

/** Fields every payment-creating answer (secure-pay, capture) carries. */
const paymentResultFields = {
  transactionNo: z.string().min(1),
  reference: optStr,
  amount: amount.optional().nullable(),
  currency: optStr,
  settleCurrency: optStr,
  status: optStr,
  paymentTime: optStr,
  vaultId: optStr,
};

export const securePayResultSchema = z
  .object({ ...paymentResultFields, cashierUrl: optStr, authorization: optStr })
  .passthrough();

export const captureResultSchema = z
  .object({
    ...paymentResultFields,
    customerNo: optStr,
    // Vendor docs name the 3-D Secure page either way; accept both.
    authUrl: optStr,
    authenticationUrl: optStr,
  })
  .passthrough();

export const refundResultSchema = z
  .object({
    refundTransactionNo: optStr,
    refundTransactionId: optStr,
    transactionNo: optStr,
    reference: optStr,
    refundReference: optStr,
    amount: amount.optional().nullable(),
    refundAmount: amount,
    currency: z.string(),
    settleCurrency: optStr,
    status: optStr,
  })
  .passthrough()
  .refine((r) => Boolean(r.refundTransactionNo ?? r.refundTransactionId), {
    message: 'refund result without refundTransactionNo',
  });

export const transListSchema = z.array(tranQueryResultSchema);

/** A created customer. */
export interface CustomerResult {
  customerNo: string;
  customerCode?: string;
  createdTime?: string;
}

/**
 * What a payment create's answer says it is about, when it says so: checked against the request before
 * the answer is believed (services/payments/answers.ts). The amount is in minor units of the answered
 * currency, or of the request's when the answer names none.
 */
export interface PaymentEcho {
  reference?: string;
  amountMinor?: number;
  currency?: Currency;
}

/** What secure-pay answered: a checkout URL, a whitelabel authorization, or an immediate vault charge. */
export interface SecurePayResult extends PaymentEcho {
  transactionNo: string;
  cashierUrl?: string;
  authorization?: string;
  status?: string;
  vaultId?: string;
}

/** What capture answered: pending with a 3-D Secure page, or a final status. */
export interface CaptureResult extends PaymentEcho {
  transactionNo: string;
  status?: string;
  customerNo?: string;
  authUrl?: string;
  paymentTime?: string;
  vaultId?: string;
}

/** A refund the service accepted, in minor units. */
export interface RefundResult {
  refundTransactionNo: string;
  transactionNo?: string;
  reference?: string;
  refundReference?: string;
  refundAmountMinor: number;
  currency: Currency;
  settleCurrency?: Currency;
  status: ReturnType<typeof normaliseRefundStatus>;
}

const strip = <T extends Record<string, unknown>>(
  o: T,
): { [K in keyof T]: Exclude<T[K], null | undefined | ''> } => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(o)) if (v !== null && v !== undefined && v !== '') out[k] = v;
  return out as { [K in keyof T]: Exclude<T[K], null | undefined | ''> };
};

export function toCustomerResult(r: z.infer<typeof customerResultSchema>): CustomerResult {
  return strip({ customerNo: r.customerNo, customerCode: r.customerCode, createdTime: r.createdTime });
}

/**
 * The echoed amount and currency, strictly: an amount that is not an exact decimal, or a currency this
 * app does not handle, throws (a malformed answer). `requestCurrency` reads an amount sent without one.
 */
function echoOf(
  r: { amount?: string | number | null | undefined; currency?: string | null | undefined },
  requestCurrency: Currency,
): { amountMinor?: number; currency?: Currency } {
  const currency = r.currency ? toCurrency(r.currency) : undefined;
  const amount = r.amount === '' ? undefined : (r.amount ?? undefined);
  return {
    ...(currency ? { currency } : {}),
    ...(amount !== undefined ? { amountMinor: parseWireAmount(amount, currency ?? requestCurrency) } : {}),
  };
}

export function toSecurePayResult(
  r: z.infer<typeof securePayResultSchema>,
  requestCurrency: Currency,
): SecurePayResult {
  return strip({
    transactionNo: r.transactionNo,
    ...echoOf(r, requestCurrency),
    reference: r.reference,
    cashierUrl: r.cashierUrl,
    authorization: r.authorization,
    status: r.status,
    vaultId: r.vaultId,
  });
}

export function toCaptureResult(
  r: z.infer<typeof captureResultSchema>,
  requestCurrency: Currency,
): CaptureResult {
  return strip({
    transactionNo: r.transactionNo,
    ...echoOf(r, requestCurrency),
    reference: r.reference,
    status: r.status,
    customerNo: r.customerNo,
    authUrl: r.authUrl ?? r.authenticationUrl,
    paymentTime: r.paymentTime,
    vaultId: r.vaultId,
  });
}

/** Maps a validated refund result to minor units. Throws on a malformed amount. */
export function toRefundResult(r: z.infer<typeof refundResultSchema>): RefundResult {
  const id = r.refundTransactionNo ?? r.refundTransactionId;
  if (!id) throw new Error('refund result without refundTransactionNo');
  const currency = toCurrency(r.currency);
  return {
    ...strip({
      transactionNo: r.transactionNo,
      reference: r.reference,
      refundReference: r.refundReference,
    }),
    ...(r.settleCurrency ? { settleCurrency: toCurrency(r.settleCurrency) } : {}),
    refundTransactionNo: id,
    refundAmountMinor: parseWireAmount(r.refundAmount, currency),
    currency,
    // A refund result without status is an accepted refund whose settlement we have not seen yet.
    status: normaliseRefundStatus(r.status ?? 'pending'),
  };
}
