import { describe, expect, it } from 'vitest';
import { missingConfirmations } from '../../../electron/main/services/refunds/guardrails';

const base = {
  currency: 'USD',
  environment: 'demo',
  todayTotalMinor: 0,
  guardrails: { limits: [{ currency: 'USD', maxSingleMinor: 10_000, dailyTotalMinor: 50_000 }] },
  confirmation: {},
};

describe('refund guardrails', () => {
  it('needs nothing under the limits outside production', () => {
    expect(missingConfirmations({ ...base, amountMinor: 10_000 }).missing).toEqual([]);
  });
  it('needs a limit confirmation above the single or daily limit', () => {
    expect(missingConfirmations({ ...base, amountMinor: 10_001 }).missing).toEqual(['limit_confirmation']);
    expect(missingConfirmations({ ...base, amountMinor: 100, todayTotalMinor: 49_950 }).reasons[0]).toMatch(
      /daily limit of 500.00 USD/,
    );
    expect(
      missingConfirmations({ ...base, amountMinor: 10_001, confirmation: { overLimit: true } }).missing,
    ).toEqual([]);
  });
  it('limits apply per currency', () => {
    expect(missingConfirmations({ ...base, currency: 'GBP', amountMinor: 10_000_000 }).missing).toEqual([]);
  });
  it('needs the amount typed again, exactly, in production', () => {
    const prod = { ...base, environment: 'production', amountMinor: 1234 };
    expect(missingConfirmations(prod).missing).toEqual(['typed_amount']);
    expect(missingConfirmations({ ...prod, confirmation: { typedAmount: '12.35' } }).missing).toEqual([
      'typed_amount',
    ]);
    expect(missingConfirmations({ ...prod, confirmation: { typedAmount: 'abc' } }).missing).toEqual([
      'typed_amount',
    ]);
    expect(missingConfirmations({ ...prod, confirmation: { typedAmount: '12.34' } }).missing).toEqual([]);
  });
});
