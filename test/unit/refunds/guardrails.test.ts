import { describe, expect, it } from 'vitest';
import { missingConfirmations } from '../../../electron/core/services/refunds/guardrails';
import { moneyModeOf } from '../../../shared/domain/profile';

const base = {
  currency: 'USD' as const,
  moneyMode: 'local' as const,
  todayTotalMinor: 0,
  guardrails: { limits: [{ currency: 'USD' as const, maxSingleMinor: 10_000, dailyTotalMinor: 50_000 }] },
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
    expect(
      missingConfirmations({ ...base, currency: 'GBP' as const, amountMinor: 10_000_000 }).missing,
    ).toEqual([]);
  });
  it('needs the amount typed again, exactly, for live money', () => {
    const prod = { ...base, moneyMode: 'live' as const, amountMinor: 1234 };
    expect(missingConfirmations(prod).missing).toEqual(['typed_amount']);
    expect(missingConfirmations({ ...prod, confirmation: { typedAmount: '12.35' } }).missing).toEqual([
      'typed_amount',
    ]);
    expect(missingConfirmations({ ...prod, confirmation: { typedAmount: 'abc' } }).missing).toEqual([
      'typed_amount',
    ]);
    expect(missingConfirmations({ ...prod, confirmation: { typedAmount: '12.34' } }).missing).toEqual([]);
  });

  it('live money follows the address, not only the label', () => {
    expect(moneyModeOf('production', 'https://mapi.yuansfer.com')).toBe('live');
    // A Custom address is any https address, e.g. a partner gateway: live money unless on this machine.
    expect(moneyModeOf('custom', 'https://pay.partner.example.com')).toBe('live');
    // On this computer the address cannot say (a tunnel to production is loopback too): live money
    // unless the person declared otherwise, and the declaration decides only there.
    expect(moneyModeOf('custom', 'http://127.0.0.1:8787')).toBe('live');
    expect(moneyModeOf('custom', 'http://127.0.0.1:8787', 'local')).toBe('local');
    expect(moneyModeOf('custom', 'http://localhost:8787', 'test')).toBe('test');
    expect(moneyModeOf('custom', 'https://pay.partner.example.com', 'local')).toBe('live');
    expect(moneyModeOf('production', 'https://mapi.yuansfer.com', 'local')).toBe('live');
    expect(moneyModeOf('custom', 'https://mapi.yuansferdev.com')).toBe('test');
    expect(moneyModeOf('vendor-sandbox', 'https://mapi.yuansferdev.com')).toBe('test');
    expect(moneyModeOf('demo', 'http://127.0.0.1:4000')).toBe('local');
    expect(moneyModeOf('production', undefined)).toBe('live');
  });
});
