import { describe, expect, it } from 'vitest';
import {
  confirmationPayload,
  confirmationsComplete,
  reasonProblem,
} from '../../../../renderer/src/features/refunds/draft';
import {
  mergeRequirements,
  NO_REQUIREMENTS,
  predictRequirements,
  requirementsFromError,
} from '../../../../renderer/src/features/refunds/requirements';

const limits = { limits: [{ currency: 'USD' as const, maxSingleMinor: 10_000, dailyTotalMinor: 20_000 }] };

describe('predictRequirements', () => {
  it('asks nothing extra for a small demo refund', () => {
    expect(
      predictRequirements({
        amountMinor: 500,
        currency: 'USD' as const,
        moneyMode: 'local' as const,
        todayTotalMinor: 0,
        guardrails: limits,
      }),
    ).toEqual(NO_REQUIREMENTS);
  });
  it('asks for the limit confirmation above the single or daily limit, naming them', () => {
    const single = predictRequirements({
      amountMinor: 10_001,
      currency: 'USD' as const,
      moneyMode: 'local' as const,
      todayTotalMinor: 0,
      guardrails: limits,
    });
    expect(single.limit).toBe(true);
    expect(single.reasons.join()).toContain('single-refund limit of 100.00 USD');
    const daily = predictRequirements({
      amountMinor: 5000,
      currency: 'USD' as const,
      moneyMode: 'test' as const,
      todayTotalMinor: 16_000,
      guardrails: limits,
    });
    expect(daily.limit).toBe(true);
    expect(daily.reasons.join()).toContain('daily limit of 200.00 USD');
  });
  it('ignores limits of other currencies', () => {
    expect(
      predictRequirements({
        amountMinor: 99_999,
        currency: 'JPY' as const,
        moneyMode: 'local' as const,
        todayTotalMinor: 0,
        guardrails: limits,
      }).limit,
    ).toBe(false);
  });
  it('asks for the typed amount in production', () => {
    expect(
      predictRequirements({
        amountMinor: 1,
        currency: 'USD' as const,
        moneyMode: 'live' as const,
        todayTotalMinor: 0,
        guardrails: { limits: [] },
      }),
    ).toEqual({ limit: false, typedAmount: true, reasons: [] });
  });
});

describe('requirementsFromError', () => {
  it('maps main’s details.requires to the confirmations to show', () => {
    const r = requirementsFromError({
      code: 'invalid_input',
      details: {
        requires: ['limit_confirmation', 'typed_amount'],
        // A main of another version could send anything: non-strings are dropped.
        reasons: ['it is above x', 3] as unknown as string[],
        moneyMoved: 'no',
      },
    });
    expect(r).toEqual({ limit: true, typedAmount: true, reasons: ['it is above x'] });
    expect(requirementsFromError({ code: 'invalid_input', details: { requires: ['typed_amount'] } })).toEqual(
      { limit: false, typedAmount: true, reasons: [] },
    );
  });
  it('is undefined for every other error', () => {
    expect(
      requirementsFromError({ code: 'conflict', details: { requires: ['typed_amount'] } }),
    ).toBeUndefined();
    expect(requirementsFromError({ code: 'invalid_input', details: { remainingMinor: 5 } })).toBeUndefined();
    expect(requirementsFromError({ code: 'invalid_input' })).toBeUndefined();
  });
  it('merges so a confirmation once asked for stays asked for', () => {
    expect(
      mergeRequirements(
        { limit: true, typedAmount: false, reasons: ['a'] },
        { limit: false, typedAmount: true, reasons: ['a', 'b'] },
      ),
    ).toEqual({ limit: true, typedAmount: true, reasons: ['a', 'b'] });
  });
});

describe('confirmations and reason', () => {
  const both = { limit: true, typedAmount: true, reasons: [] };
  it('is complete only when every required confirmation is given', () => {
    expect(confirmationsComplete(NO_REQUIREMENTS, { overLimit: false, typedAmount: '' }, 100, 'USD')).toBe(
      true,
    );
    expect(confirmationsComplete(both, { overLimit: true, typedAmount: '1.00' }, 100, 'USD')).toBe(true);
    expect(confirmationsComplete(both, { overLimit: false, typedAmount: '1.00' }, 100, 'USD')).toBe(false);
    expect(confirmationsComplete(both, { overLimit: true, typedAmount: '1.01' }, 100, 'USD')).toBe(false);
  });
  it('sends only the confirmations that were asked for', () => {
    expect(confirmationPayload(NO_REQUIREMENTS, { overLimit: true, typedAmount: '5' })).toEqual({});
    expect(confirmationPayload(both, { overLimit: true, typedAmount: ' 1.00 ' })).toEqual({
      overLimit: true,
      typedAmount: '1.00',
    });
  });
  it('requires a reason, and a note for “other”', () => {
    expect(reasonProblem({ reasonCode: '', reasonNote: '' })?.field).toBe('reason');
    expect(reasonProblem({ reasonCode: 'made_up', reasonNote: '' })?.field).toBe('reason');
    expect(reasonProblem({ reasonCode: 'other', reasonNote: '  ' })?.field).toBe('note');
    expect(reasonProblem({ reasonCode: 'other', reasonNote: 'chargeback avoided' })).toBeUndefined();
    expect(reasonProblem({ reasonCode: 'duplicate', reasonNote: '' })).toBeUndefined();
  });
});
