/** fast-check arbitraries of the service's records, every optional field sometimes absent. */
import fc from 'fast-check';
import { CURRENCIES } from '../../../shared/domain/currencies';
import type { RefundRecord, Transaction } from '../../../shared/domain/transaction';
import { REFUND_STATUSES, TRANSACTION_STATUSES } from '../../../shared/protocol/statuses';

export const text = fc.oneof(
  fc.constantFrom('', ' ', 'null', '"', '\\', 'é€😀'),
  fc.string({ maxLength: 12 }),
);
const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });
const currency = fc.constantFrom(...CURRENCIES);
const minor = fc.integer({ min: -Number.MAX_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER });

/** Builds the object with only the properties that have a value (absent stays absent, as zod gives). */
const defined = <T extends object>(o: T): T =>
  Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)) as T;

const refundArb: fc.Arbitrary<RefundRecord> = fc
  .record({
    refundTransactionNo: text,
    refundReference: opt(text),
    refundAmountMinor: minor,
    currency,
    settleCurrency: opt(currency),
    status: fc.constantFrom(...REFUND_STATUSES),
    createdAt: opt(text),
  })
  .map(defined);

export const transactionArb: fc.Arbitrary<Transaction> = fc
  .record({
    transactionNo: text,
    reference: opt(text),
    amountMinor: minor,
    currency,
    settleCurrency: opt(currency),
    status: fc.constantFrom(...TRANSACTION_STATUSES, 'unknown' as const),
    vendor: opt(text),
    transactionType: fc.constantFrom('payment' as const, 'refund' as const, 'unknown' as const),
    createdAt: opt(text),
    paidAt: opt(text),
    cardLast4: opt(fc.stringMatching(/^\d{4}$/)),
    refunds: fc.array(refundArb, { maxLength: 3 }),
  })
  .map(defined);
