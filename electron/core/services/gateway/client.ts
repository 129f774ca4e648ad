import type { Currency } from '../../../../shared/domain/currencies';
import { toWireAmount } from '../../../../shared/domain/money';
import type { Transaction } from '../../../../shared/domain/transaction';
import { toServiceDate } from '../../../../shared/protocol/time';
import {
  toTransaction,
  tranQueryResultSchema,
  type WireTranQueryResult,
} from '../../../../shared/protocol/wire';
import {
  type CaptureResult,
  type CustomerResult,
  type RefundResult,
  type SecurePayResult,
  captureResultSchema,
  customerResultSchema,
  refundResultSchema,
  securePayResultSchema,
  toCaptureResult,
  toCustomerResult,
  toRefundResult,
  toSecurePayResult,
  transListSchema,
} from '../../../../shared/protocol/wire-results';
import type { AttemptReport } from './adaptive-limit';
import { createTransport, type TransportDeps } from './transport';

export type { GatewayConfig, RetryPolicy } from './transport';

/** Exactly one way to find a transaction (the service rejects both or neither). */
export type QueryKey = { transactionNo: string } | { reference: string } | { refundTransactionNo: string };

/** A queried transaction plus the wire extras the lookup needs (the original of a refund). */
export interface QueriedTransaction {
  transaction: Transaction;
  /** When the query was by refundTransactionNo: the payment the refund belongs to, if the service says. */
  originalTransactionNo?: string;
  /**
   * The stored method a vaulting payment created, when the service’s query shows it (the protocol reference says
   * it is delivered by IPN; some servers also return it here). Main only: never sent to the renderer.
   */
  vaultId?: string;
}

export interface CallOptions {
  signal?: AbortSignal;
  /** Told after every attempt (reads retry) what it showed; the adaptive limiter learns from it. */
  onAttempt?: (a: AttemptReport) => void;
}

export interface CreateCustomerInput {
  firstName: string;
  lastName: string;
  email: string;
  countryCode: string;
  state?: string;
  customerCode?: string;
  profileType?: 'INDIVIDUAL' | 'BUSINESS';
  lang?: string;
  city?: string;
  street?: string;
  street2?: string;
  zip?: string;
  company?: string;
  phone?: string;
  mobileNumber?: string;
  dateOfBirth?: string;
}

export interface SecurePayInput {
  amountMinor: number;
  currency: Currency;
  settleCurrency: Currency;
  vendor: string;
  terminal: 'ONLINE' | 'WAP' | 'MWEB' | 'YIP';
  reference: string;
  ipnUrl: string;
  callbackUrl?: string;
  description?: string;
  note?: string;
  osType?: 'IOS' | 'ANDROID';
  timeoutMin?: number;
  /** JSON text, sent and signed verbatim. */
  goodsInfo?: string;
  creditType?: 'normal' | 'recurring' | 'vault';
  paymentCount?: number;
  frequency?: number;
  customerNo?: string;
  vaultId?: string;
}

/** Card data passes straight through to the request: never stored, never logged. */
export interface CardInput {
  number: string;
  expYear: string;
  expMonth: string;
  cvv: string;
}

export interface CaptureInput {
  amountMinor: number;
  currency: Currency;
  settleCurrency: Currency;
  reference: string;
  terminal: 'ONLINE' | 'WAP';
  card?: CardInput;
  vaultId?: string;
  customerNo?: string;
  clientIp?: string;
  note?: string;
  goodsInfo?: string;
  ipnUrl?: string;
  callbackUrl?: string;
  creditType?: 'normal' | 'vault';
}

export type RefundInput = ({ transactionNo: string } | { reference: string }) & {
  refundAmountMinor: number;
  currency: Currency;
  settleCurrency: Currency;
  /** This app's refund-intent id, so an ambiguous refund can be found again in the payment's refundInfo. */
  refundReference?: string;
  ipnUrl?: string;
};

const isoSeconds = (ms: number) => new Date(ms).toISOString().replace(/\.\d{3}Z$/, 'Z');

/**
 * Typed client of the payment service. Reads (tran-query, trans-list) retry transport failures and 5xx
 * with backoff; writes (customer, secure-pay, capture, refund) are sent once and an ambiguous failure
 * becomes `outcome_unknown`. Every value goes out as a string; empty values are left out.
 */
export function createGatewayClient(deps: TransportDeps) {
  const t = createTransport(deps);

  function toQueried(raw: WireTranQueryResult): QueriedTransaction {
    const extra = raw as Record<string, unknown>;
    const text = (key: string) =>
      typeof extra[key] === 'string' && extra[key] ? (extra[key] as string) : undefined;
    const original = text('originalTransactionNo');
    const vaultId = text('vaultId');
    return {
      transaction: toTransaction(raw),
      ...(original ? { originalTransactionNo: original } : {}),
      ...(vaultId ? { vaultId } : {}),
    };
  }

  return {
    async createCustomer(input: CreateCustomerInput, opts: CallOptions = {}): Promise<CustomerResult> {
      const env = await t.call('createCustomer', { ...input, timestamp: isoSeconds(deps.clock.now()) }, opts);
      return t.parsePayload('createCustomer', () =>
        toCustomerResult(customerResultSchema.parse(env.customer ?? env.result)),
      );
    },

    async securePay(input: SecurePayInput, opts: CallOptions = {}): Promise<SecurePayResult> {
      const { amountMinor, timeoutMin, ...rest } = input;
      const env = await t.call(
        'securePay',
        { ...rest, amount: toWireAmount(amountMinor, input.currency), timeout: timeoutMin },
        opts,
      );
      return t.parsePayload('securePay', () =>
        toSecurePayResult(securePayResultSchema.parse(env.result), input.currency),
      );
    },

    async capture(input: CaptureInput, opts: CallOptions = {}): Promise<CaptureResult> {
      const { amountMinor, card, ...rest } = input;
      const env = await t.call(
        'capture',
        {
          ...rest,
          vendor: 'creditcard',
          amount: toWireAmount(amountMinor, input.currency),
          cardNumber: card?.number,
          cardExpYear: card?.expYear,
          cardExpMonth: card?.expMonth,
          cardCvv: card?.cvv,
        },
        opts,
      );
      return t.parsePayload('capture', () =>
        toCaptureResult(captureResultSchema.parse(env.result), input.currency),
      );
    },

    /** One signed tran-query. `not_found` (000021) when no record matches. */
    async queryTransaction(key: QueryKey, opts: CallOptions = {}): Promise<QueriedTransaction> {
      const env = await t.call('tranQuery', { ...key }, opts);
      return t.parsePayload('tranQuery', () => toQueried(tranQueryResultSchema.parse(env.result)));
    },

    async refund(input: RefundInput, opts: CallOptions = {}): Promise<RefundResult> {
      const { refundAmountMinor, ...rest } = input;
      const env = await t.call(
        'refund',
        { ...rest, refundAmount: toWireAmount(refundAmountMinor, input.currency) },
        opts,
      );
      return t.parsePayload('refund', () => toRefundResult(refundResultSchema.parse(env.result)));
    },

    /**
     * The optional trans-list (possibly retired at the real service): payments created between two
     * instants, as UTC+8 calendar days, at most 15 days apart. Callers degrade gracefully on errors.
     */
    async listTransactions(
      range: { startMs: number; endMs: number },
      opts: CallOptions = {},
    ): Promise<Transaction[]> {
      const env = await t.call(
        'transList',
        { startDate: toServiceDate(range.startMs), endDate: toServiceDate(range.endMs) },
        opts,
      );
      return t.parsePayload('transList', () =>
        transListSchema.parse(env.transactions ?? []).map(toTransaction),
      );
    },
  };
}
export type GatewayClient = ReturnType<typeof createGatewayClient>;
