import { describe, expect, it } from 'vitest';
import {
  checkRefundAmount,
  defaultAmountText,
  refundBreakdown,
  remainingAfter,
  typedAmountMatches,
} from '../../../../renderer/src/features/refunds/amount';

describe('checkRefundAmount', () => {
  it('accepts a plain decimal within what remains, in minor units', () => {
    expect(checkRefundAmount('12.34', 'USD', 5000)).toEqual({ ok: true, amountMinor: 1234 });
    expect(checkRefundAmount(' 50 ', 'USD', 5000)).toEqual({ ok: true, amountMinor: 5000 });
    expect(checkRefundAmount('1000', 'JPY', 1000)).toEqual({ ok: true, amountMinor: 1000 });
  });

  it('refuses decimals a currency does not have, saying why', () => {
    const jpy = checkRefundAmount('10.5', 'JPY', 1000);
    expect(jpy).toMatchObject({ ok: false, reason: 'decimals' });
    expect(!jpy.ok && jpy.message).toContain('JPY has no decimals');
    const krw = checkRefundAmount('100.0', 'KRW', 1000);
    expect(!krw.ok && krw.message).toContain('KRW has no decimals');
    const usd = checkRefundAmount('1.0055', 'USD', 1000);
    expect(usd).toMatchObject({ ok: false, reason: 'decimals' });
    expect(!usd.ok && usd.message).toContain('at most 2 decimals');
  });

  it('refuses anything that is not an amount (no floats, signs, currency signs or exponents)', () => {
    for (const bad of ['1e3', '$10', '10.', '.5', 'abc', '0x10', '1 000']) {
      expect(checkRefundAmount(bad, 'USD', 10_000_000), bad).toMatchObject({ ok: false, reason: 'format' });
    }
  });

  it('reads the person’s number format, and asks rather than guesses', () => {
    const de = { locale: 'de-DE', amount: (m: number) => String(m), amountCode: (m: number) => String(m) };
    expect(checkRefundAmount('12,50', 'USD', 10_000, de)).toEqual({ ok: true, amountMinor: 1250 });
    expect(checkRefundAmount('1.000', 'USD', 1_000_000, de)).toEqual({ ok: true, amountMinor: 100_000 });
    expect(checkRefundAmount('1,000.00', 'USD', 10_000_000)).toEqual({ ok: true, amountMinor: 100_000 });
    const ambiguous = checkRefundAmount('12,50', 'USD', 10_000);
    expect(ambiguous).toMatchObject({ ok: false, reason: 'ambiguous' });
    expect(!ambiguous.ok && ambiguous.message).toContain('Did you mean 12.50?');
    expect(checkRefundAmount('12.50', 'USD', 10_000, de)).toMatchObject({ ok: false, reason: 'ambiguous' });
  });

  it('refuses empty, zero and negative amounts', () => {
    expect(checkRefundAmount('', 'USD', 100)).toMatchObject({ ok: false, reason: 'empty' });
    expect(checkRefundAmount('0.00', 'USD', 100)).toMatchObject({ ok: false, reason: 'zero' });
    expect(checkRefundAmount('-1', 'USD', 100)).toMatchObject({ ok: false, reason: 'zero' });
  });

  it('blocks an amount over what remains and names the remaining amount', () => {
    const r = checkRefundAmount('50.01', 'USD', 5000);
    expect(r).toMatchObject({ ok: false, reason: 'over_remaining', amountMinor: 5001 });
    expect(!r.ok && r.message).toContain('50.00 USD');
  });

  it('refuses values beyond the safe-integer range instead of rounding them', () => {
    expect(checkRefundAmount('99999999999999999', 'USD', Number.MAX_SAFE_INTEGER)).toMatchObject({
      ok: false,
    });
  });
});

describe('remainingAfter', () => {
  it('is remaining − typed, updated for partial amounts', () => {
    expect(remainingAfter(5000, checkRefundAmount('12.34', 'USD', 5000))).toBe(3766);
    expect(remainingAfter(5000, checkRefundAmount('50', 'USD', 5000))).toBe(0);
  });
  it('never goes below zero, even when the typed amount is over', () => {
    expect(remainingAfter(5000, checkRefundAmount('80', 'USD', 5000))).toBe(0);
    expect(remainingAfter(-10, checkRefundAmount('1', 'USD', -10))).toBe(0);
  });
  it('stays at the full remaining amount while the field is empty or unreadable', () => {
    expect(remainingAfter(5000, checkRefundAmount('', 'USD', 5000))).toBe(5000);
    expect(remainingAfter(5000, checkRefundAmount('1.2.3', 'USD', 5000))).toBe(5000);
  });
});

describe('defaults and breakdown', () => {
  it('starts with the full remaining amount in the currency’s own units', () => {
    expect(defaultAmountText(5000, 'USD')).toBe('50.00');
    expect(defaultAmountText(1200, 'JPY')).toBe('1200');
    expect(defaultAmountText(0, 'USD')).toBe('');
  });
  it('splits the payment into refunded, pending and remaining that add up', () => {
    const tx = {
      amountMinor: 10_000,
      currency: 'USD' as const,
      refunds: [
        { refundAmountMinor: 2000, status: 'success', currency: 'USD' as const },
        { refundAmountMinor: 1000, status: 'pending', currency: 'USD' as const },
        { refundAmountMinor: 500, status: 'failed', currency: 'USD' as const },
        // Another currency is shown apart, never added.
        { refundAmountMinor: 700, status: 'success', currency: 'JPY' as const },
      ],
    };
    // main's remaining also subtracts one of this app's own unsettled intents of 1500
    expect(refundBreakdown(tx, 5500)).toEqual({
      refundedMinor: 2000,
      pendingMinor: 2500,
      remainingMinor: 5500,
    });
  });
  it('compares the production re-typed amount in minor units', () => {
    expect(typedAmountMatches('12.3', 'USD', 1230)).toBe(true);
    expect(typedAmountMatches('12.30', 'USD', 1230)).toBe(true);
    expect(typedAmountMatches('12.31', 'USD', 1230)).toBe(false);
    expect(typedAmountMatches('', 'USD', 1230)).toBe(false);
    expect(typedAmountMatches('1,230', 'JPY', 1230)).toBe(true);
    expect(typedAmountMatches('1.230', 'JPY', 1230)).toBe(false);
    const de = { locale: 'de-DE', amount: (m: number) => String(m), amountCode: (m: number) => String(m) };
    expect(typedAmountMatches('12,30', 'USD', 1230, de)).toBe(true);
  });
});
