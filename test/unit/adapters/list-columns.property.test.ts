/**
 * A window of the period's list read back (electron/core/adapters/sqlite/list-columns.ts): each payment
 * is made as one object literal of the fields it has (a literal per combination met), and must be
 * exactly the payment written — the same properties, in the same order (what JSON of it gives: exports,
 * stored items), whatever its strings hold and whichever of its optional fields it has.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  decodeListColumns,
  encodeListColumns,
  listPaymentAt,
  parseListColumns,
} from '../../../electron/core/adapters/sqlite/list-columns';
import { isKnownCurrency } from '../../../shared/domain/currencies';
import type { Transaction } from '../../../shared/domain/transaction';
import { transactionArb } from '../recon/arbitraries';

/** Strings that have tripped stored layouts: control characters, a lone surrogate, JSON's own. */
const awkward = fc.constantFrom('\u001e', '\u001f', '\n', '\ud800', 'x\udfff', '"\\', '€😀', '', '__proto__');

/** The schema's order of a payment's properties (shared/domain/transaction.ts), as zod gives them. */
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
const inOrder = (t: Record<string, unknown>): Transaction =>
  Object.fromEntries(ORDER.filter((k) => k in t).map((k) => [k, t[k]])) as unknown as Transaction;

/** Payments whose strings are sometimes awkward ones. */
const paymentArb: fc.Arbitrary<Transaction> = fc
  .tuple(transactionArb, awkward, fc.integer({ min: 0, max: 3 }))
  .map(([t, s, k]) => {
    if (k === 0) return inOrder({ ...t, transactionNo: s });
    if (k === 1) return inOrder({ ...t, reference: s });
    if (k === 2) return inOrder({ ...t, vendor: s, createdAt: s });
    return t;
  });

describe('the period’s list read back, payment by payment', () => {
  it('every payment exactly as written: its properties, in their order, and nothing else', () => {
    fc.assert(
      fc.property(fc.array(paymentArb, { maxLength: 30 }), (transactions) => {
        const text = encodeListColumns(transactions);
        const back = decodeListColumns(text, isKnownCurrency)!;
        expect(back).toStrictEqual(transactions);
        // The order of properties too (toStrictEqual does not look at it; JSON does).
        expect(JSON.stringify(back)).toBe(JSON.stringify(transactions));
        back.forEach((t, i) => {
          expect(Object.keys(t)).toEqual(Object.keys(transactions[i]!));
          t.refunds.forEach((r, k) =>
            expect(Object.keys(r)).toEqual(Object.keys(transactions[i]!.refunds[k]!)),
          );
          expect(Object.getPrototypeOf(t)).toBe(Object.prototype);
        });
        // One payment at a time (a report item that refers to it) gives the same.
        const parsed = parseListColumns(text, isKnownCurrency)!;
        transactions.forEach((t, at) =>
          expect(JSON.stringify(listPaymentAt(parsed, at))).toBe(JSON.stringify(t)),
        );
      }),
      { numRuns: 500 },
    );
  });

  it('payments of every combination of optional fields, side by side, each keep their own', () => {
    const full: Transaction = {
      transactionNo: 'T',
      reference: 'R',
      amountMinor: 5,
      currency: 'USD',
      settleCurrency: 'CNY',
      status: 'success',
      vendor: 'alipay',
      transactionType: 'payment',
      createdAt: '2025-06-01T00:00:00.000Z',
      paidAt: '2025-06-01T00:00:01.000Z',
      cardLast4: '4242',
      refunds: [
        {
          refundTransactionNo: 'RT',
          refundReference: 'RR',
          refundAmountMinor: 1,
          currency: 'USD',
          settleCurrency: 'CNY',
          status: 'success',
          createdAt: '2025-06-02T00:00:00.000Z',
        },
      ],
    };
    const optional = ['reference', 'settleCurrency', 'vendor', 'createdAt', 'paidAt', 'cardLast4'] as const;
    const refundOptional = ['refundReference', 'settleCurrency', 'createdAt'] as const;
    const transactions = Array.from({ length: 64 }, (_, mask): Transaction => {
      const t: Record<string, unknown> = { ...full, transactionNo: `T${mask}` };
      optional.forEach((key, bit) => {
        if (!(mask & (1 << bit))) delete t[key];
      });
      const r: Record<string, unknown> = { ...full.refunds[0]! };
      refundOptional.forEach((key, bit) => {
        if (!(mask & (1 << bit))) delete r[key];
      });
      return { ...(t as unknown as Transaction), refunds: mask % 3 === 0 ? [] : [r as never] };
    });
    const back = decodeListColumns(encodeListColumns(transactions), isKnownCurrency)!;
    expect(back).toStrictEqual(transactions);
    expect(JSON.stringify(back)).toBe(JSON.stringify(transactions));
  });
});
