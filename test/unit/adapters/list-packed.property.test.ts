/**
 * A window of the period's list packed (schema v14, electron/core/adapters/sqlite/list-packed.ts): each
 * payment read back exactly as written — its properties, in their order — whatever its strings and
 * times hold; and every field the matching reads from the columns (PaymentColumns) is the one the
 * payment itself gives, in both stored layouts of columns. A time is read as its instant only when its
 * text is exactly toISOString's of that instant, so the day the matching compares is never changed.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  encodeListColumns,
  JsonColumnPayments,
  ListColumnsError,
  parseListColumns,
} from '../../../electron/core/adapters/sqlite/list-columns';
import { encodeListPacked, readListPacked } from '../../../electron/core/adapters/sqlite/list-packed';
import { objectColumns } from '../../../electron/core/services/reconciliation/payment-columns';
import type { PaymentColumns } from '../../../electron/core/services/reconciliation/run-store';
import { isKnownCurrency } from '../../../shared/domain/currencies';
import type { Transaction } from '../../../shared/domain/transaction';
import { transactionArb } from '../recon/arbitraries';

/** Times as the service writes them, and texts that are almost that (or nothing like it). */
const timeArb = fc.oneof(
  fc
    // 0000-01-01 to 9999-12-31: the four-digit years toISOString writes in 24 characters.
    .integer({ min: -62_167_219_200_000, max: 253_402_300_799_999 })
    .map((ms) => new Date(ms).toISOString()),
  fc
    .integer({ min: -8_640_000_000_000_000, max: 8_640_000_000_000_000 })
    .map((ms) => new Date(ms).toISOString()),
  fc.constantFrom(
    '1970-01-01T00:00:00.000Z',
    '0000-01-01T00:00:00.000Z',
    '0099-12-31T23:59:59.999Z',
    '2025-06-01T00:00:00Z',
    '2025-06-01T08:00:00.000+08:00',
    '2025-06-01 00:00:00.000Z',
    '2025-02-30T00:00:00.000Z',
    '2025-06-01T24:00:00.000Z',
    '2025-06-01t00:00:00.000z',
    ' 2025-06-01T00:00:00.000Z',
    '',
    'yesterday',
  ),
  fc.string({ maxLength: 24 }),
);

const opt = <T>(a: fc.Arbitrary<T>) => fc.option(a, { nil: undefined });

/** Strings that have tripped stored layouts: control characters, a lone surrogate, JSON's own, wide ones. */
const awkward = fc.constantFrom('\u001e', '\n', '\ud800', 'x\udfff', '"\\', '€😀', 'ÿ', '', '__proto__');

const ORDER = [
  'transactionNo',
  'reference',
  'amountMinor',
  'currency',
  'settleCurrency',
  'status',
  'vendor',
  'transactionType',
  'createdAt',
  'paidAt',
  'cardLast4',
  'refunds',
] as const;
const REFUND_ORDER = [
  'refundTransactionNo',
  'refundReference',
  'refundAmountMinor',
  'currency',
  'settleCurrency',
  'status',
  'createdAt',
] as const;
const inOrder = <T>(t: Record<string, unknown>, order: readonly string[]): T =>
  Object.fromEntries(order.filter((k) => t[k] !== undefined).map((k) => [k, t[k]])) as T;

/** Payments whose times are the service's form, nearly it, or anything; some strings awkward. */
const paymentArb: fc.Arbitrary<Transaction> = fc
  .tuple(
    transactionArb,
    opt(timeArb),
    opt(timeArb),
    fc.array(opt(timeArb), { maxLength: 3 }),
    awkward,
    fc.nat(4),
  )
  .map(([t, createdAt, paidAt, refundTimes, s, k]) =>
    inOrder<Transaction>(
      {
        ...t,
        createdAt,
        paidAt,
        refunds: t.refunds.map((r, i) => inOrder({ ...r, createdAt: refundTimes[i] }, REFUND_ORDER)),
        ...(k === 0 ? { transactionNo: s } : k === 1 ? { reference: s } : k === 2 ? { vendor: s } : {}),
      },
      ORDER,
    ),
  );

/** Every field the matching reads, from the columns and from the payment itself, side by side. */
function expectSameFacts(cols: PaymentColumns, transactions: readonly Transaction[]): void {
  const own = objectColumns(transactions);
  expect(cols.length).toBe(transactions.length);
  for (let at = 0; at < transactions.length; at += 1) {
    expect(cols.transactionNo(at)).toBe(own.transactionNo(at));
    expect(cols.reference(at)).toBe(own.reference(at));
    expect(cols.isRefund(at)).toBe(own.isRefund(at));
    expect(cols.amountMinor(at)).toBe(own.amountMinor(at));
    expect(cols.currency(at)).toBe(own.currency(at));
    expect(cols.status(at)).toBe(own.status(at));
    expect(cols.refundedMinor(at)).toBe(own.refundedMinor(at));
    const time = cols.paymentTime(at);
    const text = own.paymentTime(at);
    // An instant only for a text that is exactly its toISOString, which reads as that instant.
    if (typeof time === 'number') {
      expect(new Date(time).toISOString()).toBe(text);
      expect(Date.parse(text as string)).toBe(time);
    } else expect(time).toBe(text);
    expect(JSON.stringify(cols.transaction(at))).toBe(JSON.stringify(transactions[at]));
  }
}

describe('the period’s list packed (v14)', () => {
  it('every payment exactly as written: its properties, in their order, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(paymentArb, { maxLength: 30 }), (transactions) => {
        const packed = readListPacked(encodeListPacked(transactions), isKnownCurrency)!;
        const back = Array.from({ length: packed.length }, (_, at) => packed.transaction(at));
        expect(back).toStrictEqual(transactions);
        expect(packed.transactions()).toStrictEqual(transactions);
        // The order of properties too (toStrictEqual does not look at it; JSON does).
        expect(JSON.stringify(back)).toBe(JSON.stringify(transactions));
        back.forEach((t, i) => {
          expect(Object.keys(t)).toEqual(Object.keys(transactions[i]!));
          t.refunds.forEach((r, k) =>
            expect(Object.keys(r)).toEqual(Object.keys(transactions[i]!.refunds[k]!)),
          );
        });
      }),
      { numRuns: 400 },
    );
  });

  it('what the matching reads from the columns is what the payment says, packed and in v10–v13 columns', () => {
    fc.assert(
      fc.property(fc.array(paymentArb, { maxLength: 30 }), (transactions) => {
        expectSameFacts(readListPacked(encodeListPacked(transactions), isKnownCurrency)!, transactions);
        const parsed = parseListColumns(encodeListColumns(transactions), isKnownCurrency)!;
        expectSameFacts(new JsonColumnPayments(parsed), transactions);
      }),
      { numRuns: 400 },
    );
  });

  it('stored bytes read where they lie, aligned or not (a BLOB need not start at a multiple of 8)', () => {
    const transactions = fc.sample(paymentArb, { numRuns: 20, seed: 7 });
    const bytes = encodeListPacked(transactions);
    const shifted = new Uint8Array(bytes.byteLength + 3);
    shifted.set(bytes, 3);
    const packed = readListPacked(shifted.subarray(3), isKnownCurrency)!;
    expect(packed.transactions()).toStrictEqual(transactions);
  });

  it('a window with a currency this app does not handle is left out whole; damaged bytes are refused', () => {
    const ok: Transaction = {
      transactionNo: '1',
      amountMinor: 1,
      currency: 'USD',
      status: 'success',
      transactionType: 'payment',
      refunds: [],
    };
    const zarRefund = {
      ...ok,
      refunds: [{ refundTransactionNo: 'R', refundAmountMinor: 1, currency: 'ZAR', status: 'success' }],
    } as unknown as Transaction;
    expect(readListPacked(encodeListPacked([ok]), isKnownCurrency)!.transactions()).toEqual([ok]);
    expect(readListPacked(encodeListPacked([ok, zarRefund]), isKnownCurrency)).toBeUndefined();
    const bytes = encodeListPacked([ok]);
    expect(() => readListPacked(bytes.subarray(0, bytes.byteLength - 1), isKnownCurrency)).toThrow(
      ListColumnsError,
    );
    expect(() => readListPacked(new TextEncoder().encode('{"n":1}'), isKnownCurrency)).toThrow(
      ListColumnsError,
    );
  });
});
