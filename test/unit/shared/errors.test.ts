import { describe, expect, it } from 'vitest';
import { AppError, errorDetailsSchema, toErrorEnvelope } from '../../../shared/domain/errors';

describe('the error envelope', () => {
  it('carries details as their schema types them: a mistyped field is left out, the rest kept', () => {
    const e = new AppError('invalid_input', 'The amount is more than what remains.', {
      details: {
        moneyMoved: 'no',
        // A producer's bug: the renderer reads this as a number and must never get anything else.
        remainingMinor: '12.50' as unknown as number,
        requires: ['typed_amount'],
        issues: [{ path: 'amountMinor', message: 'too large' }],
        endpoint: 'refund',
      },
    });
    const { error } = toErrorEnvelope(e, 'c-1');
    expect(error.details).toEqual({
      moneyMoved: 'no',
      requires: ['typed_amount'],
      issues: [{ path: 'amountMinor', message: 'too large' }],
      endpoint: 'refund',
    });
    expect(errorDetailsSchema.safeParse(error.details).error).toBeUndefined();
  });

  it('keeps fields it does not know (another version of main may add some)', () => {
    const { error } = toErrorEnvelope(
      new AppError('timeout', 'No answer in time.', { details: { timeoutMs: 1000, ret_code: '000100' } }),
      'c-2',
    );
    expect(error.details).toEqual({ timeoutMs: 1000, ret_code: '000100' });
  });

  it('never loses the error over details that are not an object at all', () => {
    const e = new AppError('internal', 'Broken.', { details: 'oops' as never });
    expect(toErrorEnvelope(e, 'c-3').error).toEqual({
      code: 'internal',
      message: 'Broken.',
      retryable: false,
      correlationId: 'c-3',
    });
  });
});
