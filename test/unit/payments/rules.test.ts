import { describe, expect, it } from 'vitest';
import { cardLabel, cardProblems, cardSchema, maskVaultId, passesLuhn } from '../../../shared/domain/card';
import { chargeConfirmation } from '../../../shared/domain/charge';
import {
  checkoutProblem,
  goodsInfoText,
  newPaymentReference,
  REFERENCE_PATTERN,
  settleCurrenciesFor,
} from '../../../shared/domain/checkout';
import { customerInputSchema } from '../../../shared/domain/customer';
import { cardScrubber, isAllowedPaymentPage } from '../../../electron/core/services/payments/checks';

const NOW = Date.UTC(2026, 10, 22);

describe('card checks', () => {
  it('Luhn, expiry and security code, with messages that never repeat what was typed', () => {
    expect(passesLuhn('4242424242424242')).toBe(true);
    expect(passesLuhn('4242424242424241')).toBe(false);
    expect(passesLuhn('42424242')).toBe(false);
    const bad = cardProblems({ number: '4000 0000 0000 3221', expMonth: '13', expYear: '3', cvv: '12' }, NOW);
    expect(Object.keys(bad).sort()).toEqual(['cvv', 'expMonth', 'expYear', 'number']);
    expect(JSON.stringify(bad)).not.toMatch(/3221|4000/);
    expect(
      cardProblems({ number: '4000-0000-0000-3220', expMonth: '10', expYear: '2026', cvv: '123' }, NOW),
    ).toEqual({
      expYear: 'This card has expired.',
    });
    expect(
      cardProblems({ number: '4000000000003220', expMonth: '11', expYear: '2026', cvv: '1234' }, NOW),
    ).toEqual({});
    // As cards print it (MM/YY): "29" is 2029, and an expired two-digit year is still expired.
    expect(
      cardProblems({ number: '4000000000003220', expMonth: '11', expYear: '29', cvv: '123' }, NOW),
    ).toEqual({});
    expect(
      cardSchema.parse({ number: '4242424242424242', expMonth: '11', expYear: '29', cvv: '123' }).expYear,
    ).toBe('2029');
    expect(
      cardProblems({ number: '4000000000003220', expMonth: '10', expYear: '26', cvv: '123' }, NOW),
    ).toEqual({ expYear: 'This card has expired.' });
  });

  it('shows a stored method masked and a card by its last four only', () => {
    expect(maskVaultId('pp_0123456789abcdef0123456789abcdef')).toBe('pp_…cdef');
    expect(maskVaultId('abcdef123456')).toBe('…3456');
    expect(cardLabel('3220')).toBe('Card •••• 3220');
  });

  it('masks the exact card number and code in text, and nothing else', () => {
    const scrub = cardScrubber({ number: '4242424242424242', cvv: '739', expMonth: '12', expYear: '2031' });
    expect(scrub.text('no 4242424242424242, cvv 739, tx 297553638300708562, amount 7390')).toBe(
      'no •••• 4242, cvv •••, tx 297553638300708562, amount 7390',
    );
    expect(scrub.text('')).toBe('');
  });
});

describe('checkout rules', () => {
  it('vendor currencies, settlement currencies and whitelabel vendors as the service documents them', () => {
    expect(settleCurrenciesFor('alipay', 'CNY')).toEqual(['USD', 'GBP']);
    expect(settleCurrenciesFor('alipay', 'GBP')).toEqual(['GBP']);
    expect(settleCurrenciesFor('truemoney', 'THB')).toEqual(['USD']);
    const ok = {
      vendor: 'alipay',
      currency: 'CNY' as const,
      settleCurrency: 'GBP' as const,
      whitelabel: false,
    };
    expect(checkoutProblem(ok)).toBeUndefined();
    expect(
      checkoutProblem({
        ...ok,
        vendor: 'wechatpay',
        currency: 'GBP' as const,
        settleCurrency: 'GBP' as const,
      }),
    ).toMatchObject({
      field: 'currency',
    });
    expect(checkoutProblem({ ...ok, settleCurrency: 'EUR' as const })).toMatchObject({
      field: 'settleCurrency',
    });
    expect(checkoutProblem({ ...ok, whitelabel: true })).toMatchObject({ field: 'vendor' });
    expect(
      checkoutProblem({
        vendor: 'venmo',
        currency: 'USD' as const,
        settleCurrency: 'USD' as const,
        whitelabel: true,
      }),
    ).toBeUndefined();
    expect(checkoutProblem({ ...ok, vendor: 'bitcoin' })).toMatchObject({ field: 'vendor' });
  });

  it('goods lines become the service’s goodsInfo text; references are generated valid', () => {
    expect(
      goodsInfoText([
        { name: ' Mug ', quantity: 2 },
        { name: '', quantity: 1 },
      ]),
    ).toBe('[{"goods_name":"Mug","quantity":"2"}]');
    expect(goodsInfoText([])).toBeUndefined();
    const a = newPaymentReference(NOW);
    expect(REFERENCE_PATTERN.test(a)).toBe(true);
    expect(newPaymentReference(NOW)).not.toBe(a);
  });
});

describe('customer fields', () => {
  const base = { firstName: 'Ana', lastName: 'Lima', email: 'ana@example.com', countryCode: 'gb' };
  it('a US customer needs a state; dates must be real past dates; empties become absent', () => {
    const us = customerInputSchema.safeParse({ ...base, countryCode: 'US' });
    expect(us.success ? [] : us.error.issues.map((i) => i.path.join('.'))).toEqual(['state']);
    expect(customerInputSchema.safeParse({ ...base, countryCode: 'US', state: 'XX' }).success).toBe(false);
    expect(customerInputSchema.safeParse({ ...base, dateOfBirth: '1990-02-30' }).success).toBe(false);
    expect(customerInputSchema.safeParse({ ...base, dateOfBirth: '2999-01-01' }).success).toBe(false);
    const ok = customerInputSchema.parse({ ...base, phone: '', city: '  ', dateOfBirth: '1990-02-28' });
    expect(ok).toEqual({ ...base, countryCode: 'GB', dateOfBirth: '1990-02-28' });
  });
});

describe('stored-method charge confirmation', () => {
  const limits = { limits: [{ currency: 'USD' as const, maxSingleMinor: 1000 }] };
  it('asks for the amount typed again with live money or above the single-amount limit', () => {
    const at = (amountMinor: number, moneyMode: 'live' | 'test' | 'local' = 'local', typedAmount?: string) =>
      chargeConfirmation({
        amountMinor,
        currency: 'USD' as const,
        moneyMode,
        guardrails: limits,
        typedAmount,
      });
    expect(at(1000)).toEqual({ missing: [], reasons: [] });
    expect(at(1001).missing).toEqual(['typed_amount']);
    expect(at(1001, 'local', '10.01').missing).toEqual([]);
    expect(at(1010, 'local', '10.1').missing).toEqual([]);
    expect(at(1001, 'local', '10.02').missing).toEqual(['typed_amount']);
    expect(at(5, 'live')).toMatchObject({
      missing: ['typed_amount'],
      reasons: ['this charges a real card'],
    });
  });
});

describe('which payment pages may be opened', () => {
  it('the service’s own origin (the Demo sandbox included), allow-listed sites and the provider’s https domains', () => {
    const demo = 'http://127.0.0.1:41234';
    expect(isAllowedPaymentPage('http://127.0.0.1:41234/3ds/abc', demo)).toBe(true);
    expect(isAllowedPaymentPage('http://127.0.0.1:9999/3ds/abc', demo)).toBe(false);
    expect(isAllowedPaymentPage('https://cashier.yuansfer.com/pay/1', 'https://mapi.yuansfer.com')).toBe(
      true,
    );
    expect(isAllowedPaymentPage('https://3ds.pockyt.io/x', undefined)).toBe(true);
    expect(isAllowedPaymentPage('http://cashier.yuansfer.com/pay/1', undefined)).toBe(false);
    expect(isAllowedPaymentPage('https://yuansfer.com.evil.example/pay', undefined)).toBe(false);
    expect(isAllowedPaymentPage('https://user:pw@cashier.yuansfer.com/pay', undefined)).toBe(false);
    expect(isAllowedPaymentPage('javascript:alert(1)', demo)).toBe(false);
    expect(isAllowedPaymentPage('file:///etc/passwd', demo)).toBe(false);
  });
});
