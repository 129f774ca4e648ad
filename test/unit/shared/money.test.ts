import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { formatMinor, parseMinor, parseWireAmount, toWireAmount } from '../../../shared/domain/money';
import {
  foreignCurrencyRefunds,
  refundBlocker,
  remainingRefundableMinor,
} from '../../../shared/domain/transaction';

describe('money', () => {
  it('parses strictly into minor units', () => {
    expect(parseMinor('10', 'USD')).toBe(1000);
    expect(parseMinor('10.5', 'USD')).toBe(1050);
    expect(parseMinor('0.01', 'USD')).toBe(1);
    expect(parseMinor('-12.30', 'USD')).toBe(-1230);
    expect(parseMinor('1500', 'KRW')).toBe(1500);
    for (const bad of ['1.005', '1e3', '1,000.00', '', ' . ', '+1', '0x10', '1.2.3', 'NaN']) {
      expect(() => parseMinor(bad, 'USD'), bad).toThrow();
    }
    expect(() => parseMinor('10.5', 'JPY')).toThrow(/no minor unit/);
    expect(() => parseMinor('99999999999999999999', 'USD')).toThrow(/too large/);
  });
  it('reads the service wire form, including zero-exponent currencies with .00 and JSON numbers', () => {
    expect(parseWireAmount('1000.00', 'KRW')).toBe(1000);
    expect(parseWireAmount(10.5, 'USD')).toBe(1050);
    expect(() => parseWireAmount('1000.50', 'KRW')).toThrow();
    // A negative amount from the service would silently raise the remaining amount: refused.
    expect(() => parseWireAmount('-40.00', 'USD')).toThrow(/negative/);
    expect(() => parseWireAmount(-1, 'USD')).toThrow(/negative/);
    expect(toWireAmount(1000, 'KRW')).toBe('1000.00');
    expect(toWireAmount(5, 'USD')).toBe('0.05');
  });
  it('round-trips any safe integer through format and parse', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: -1e12, max: 1e12 }),
        fc.constantFrom('USD', 'KRW', 'IDR', 'GBP'),
        (n, ccy) => {
          expect(parseMinor(formatMinor(n, ccy), ccy)).toBe(n);
        },
      ),
    );
  });
  it('computes the remaining refundable amount without double counting an intent the service already shows', () => {
    const tx = {
      amountMinor: 10_000,
      currency: 'USD' as const,
      refunds: [
        {
          refundTransactionNo: '1',
          refundReference: 'RDA',
          refundAmountMinor: 2000,
          currency: 'USD' as const,
          status: 'success' as const,
        },
        {
          refundTransactionNo: '2',
          refundAmountMinor: 1000,
          currency: 'USD' as const,
          status: 'pending' as const,
        },
        {
          refundTransactionNo: '3',
          refundAmountMinor: 5000,
          currency: 'USD' as const,
          status: 'failed' as const,
        },
      ],
    };
    expect(remainingRefundableMinor(tx)).toBe(7000);
    expect(
      remainingRefundableMinor(tx, [
        { id: 'RDA', amountMinor: 2000 },
        { id: 'RDB', amountMinor: 500 },
      ]),
    ).toBe(6500);
    // A server that drops refundReference: the accepted intent is recognised by its refundTransactionNo.
    expect(remainingRefundableMinor(tx, [{ id: 'RDC', amountMinor: 1000, refundTransactionNo: '2' }])).toBe(
      7000,
    );
  });

  it('never adds a refund in another currency, and says why such a payment cannot be refunded', () => {
    // The measured case: a USD 100.00 payment with a 60.00 JPY refund entry showed 99.40 USD remaining.
    const tx = {
      amountMinor: 10_000,
      currency: 'USD' as const,
      transactionType: 'payment' as const,
      refunds: [
        {
          refundTransactionNo: '9',
          refundAmountMinor: 60,
          currency: 'JPY' as const,
          status: 'success' as const,
        },
      ],
    };
    expect(remainingRefundableMinor(tx)).toBe(10_000);
    expect(foreignCurrencyRefunds(tx)).toHaveLength(1);
    expect(refundBlocker(tx)).toMatch(
      /in another currency \(JPY\), so what remains refundable cannot be computed safely/,
    );
    expect(refundBlocker({ ...tx, refunds: [] })).toBeUndefined();
    expect(refundBlocker({ ...tx, refunds: [], transactionType: 'refund' })).toMatch(
      /only payments can be refunded/,
    );
  });
});
