import { describe, expect, it } from 'vitest';
import {
  describeLimits,
  draftsToGuardrails,
  draftsToLimits,
  draftToUnknownClose,
  limitsToDrafts,
  unknownCloseToDraft,
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

describe('close-as-not-sent policy in the profile form', () => {
  it('shows the profile’s policy, or the defaults main applies without one', () => {
    expect(unknownCloseToDraft(undefined)).toEqual({ minChecks: '3', minMinutes: '120' });
    expect(unknownCloseToDraft({ limits: [], unknownClose: { minChecks: 5, minMinutes: 150 } })).toEqual({
      minChecks: '5',
      minMinutes: '150',
    });
  });

  it('parses whole numbers in the range main accepts, and says what to fix', () => {
    expect(draftToUnknownClose({ minChecks: ' 4 ', minMinutes: '120' })).toEqual({
      unknownClose: { minChecks: 4, minMinutes: 120 },
    });
    expect(draftToUnknownClose({ minChecks: '51', minMinutes: '10081' })).toEqual({
      errors: {
        'unknownClose.minChecks': 'Checks: a whole number from 3 to 50.',
        'unknownClose.minMinutes': 'Minutes: a whole number from 120 to 10080.',
      },
    });
    for (const bad of ['', '2.5', '-1', '1e1', 'three', '51', '0', '2'])
      expect(draftToUnknownClose({ minChecks: bad, minMinutes: '120' })).toHaveProperty('errors');
  });

  it('refuses less than the floor (3 checks over 120 minutes) and says why', () => {
    expect(draftToUnknownClose({ minChecks: '1', minMinutes: '0' })).toEqual({
      errors: {
        'unknownClose.minChecks':
          'At least 3 checks: fewer could close a refund the payment service is still working on.',
        'unknownClose.minMinutes':
          'At least 120 minutes (2 hours): the payment service keeps working on a request for up to 2 hours, so a refund closed sooner may still arrive and be paid twice.',
      },
    });
    expect(draftToUnknownClose({ minChecks: '3', minMinutes: '119' })).toEqual({
      errors: { 'unknownClose.minMinutes': expect.stringMatching(/^At least 120 minutes \(2 hours\)/) },
    });
    expect(draftToUnknownClose({ minChecks: '3', minMinutes: '120' })).toEqual({
      unknownClose: { minChecks: 3, minMinutes: 120 },
    });
  });

  it('saves limits and policy together, so saving the limits never drops the policy', () => {
    const rows = [{ currency: 'USD', maxSingle: '250', dailyTotal: '' }];
    expect(draftsToGuardrails(rows, { minChecks: '5', minMinutes: '150' })).toEqual({
      guardrails: {
        limits: [{ currency: 'USD', maxSingleMinor: 25_000 }],
        unknownClose: { minChecks: 5, minMinutes: 150 },
      },
    });
    expect(
      draftsToGuardrails([{ currency: 'US', maxSingle: '1', dailyTotal: '' }], {
        minChecks: '0',
        minMinutes: '120',
      }),
    ).toEqual({
      errors: {
        'limits.0': 'Use a three-letter currency code such as USD.',
        'unknownClose.minChecks': expect.stringMatching(/^At least 3 checks/),
      },
    });
  });
});
