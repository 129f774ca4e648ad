import { describe, expect, it } from 'vitest';
import {
  describeLimits,
  draftsToLimits,
  limitsToDrafts,
} from '../../../renderer/src/features/settings/limits';

describe('refund limits editor', () => {
  it('parses each row strictly in its currency and round-trips', () => {
    const r = draftsToLimits([
      { currency: 'usd', maxSingle: '500', dailyTotal: '2000.50' },
      { currency: 'KRW', maxSingle: '', dailyTotal: '1000000' },
      { currency: '', maxSingle: '', dailyTotal: '' },
    ]);
    expect(r).toEqual({
      guardrails: {
        limits: [
          { currency: 'USD', maxSingleMinor: 50_000, dailyTotalMinor: 200_050 },
          { currency: 'KRW', dailyTotalMinor: 1_000_000 },
        ],
      },
    });
    if ('guardrails' in r) {
      expect(limitsToDrafts(r.guardrails)).toEqual([
        { currency: 'USD', maxSingle: '500.00', dailyTotal: '2000.50' },
        { currency: 'KRW', maxSingle: '', dailyTotal: '1000000' },
      ]);
      expect(describeLimits(r.guardrails)).toBe('USD: 500.00 each, 2000.50 a day · KRW: 1000000 a day');
    }
  });

  it('says what to fix, per row', () => {
    const r = draftsToLimits([
      { currency: 'US', maxSingle: '1', dailyTotal: '' },
      { currency: 'JPY', maxSingle: '10.5', dailyTotal: '' },
      { currency: 'GBP', maxSingle: '', dailyTotal: '' },
      { currency: 'EUR', maxSingle: '0', dailyTotal: '' },
      { currency: 'USD', maxSingle: '1', dailyTotal: '' },
      { currency: 'USD', maxSingle: '2', dailyTotal: '' },
      { currency: 'ZAR', maxSingle: '5', dailyTotal: '' },
    ]);
    expect('errors' in r && r.errors).toEqual({
      'limits.0': 'Use a three-letter currency code such as USD.',
      'limits.1': expect.stringMatching(/JPY has no minor unit/),
      'limits.2': 'Give GBP a single-refund limit, a daily limit, or remove the row.',
      'limits.3': expect.stringMatching(/above zero/),
      'limits.5': 'USD already has a row; keep one row per currency.',
      'limits.6': expect.stringMatching(/^Refund Desk does not handle ZAR; use one of USD, /),
    });
  });
});
