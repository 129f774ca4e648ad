import type { Currency } from '../../../../shared/domain/currencies';
import type { Output } from '../../../../shared/ipc/contract';
import { REFUND_REASONS } from '../../../../shared/ipc/contract/refunds';
import { findUnsafeCharacter, unsafeTextMessage } from '../../../../shared/domain/text';
import { toPlainDecimal, typedAmountMatches } from './amount';
import { PLAIN_NUMBERS, type NumberWords } from './format';
import type { Requirements } from './requirements';

export type Preview = Output<'refunds.preview'>;

/** What the person typed on the amount step. */
export interface Draft {
  amountText: string;
  reasonCode: string;
  reasonNote: string;
}

/** The extra confirmations given on the confirmation step. */
export interface Confirmations {
  overLimit: boolean;
  typedAmount: string;
}

/** Why the reason fields block Continue, or undefined when they are complete (main checks the same). */
export function reasonProblem(
  d: Pick<Draft, 'reasonCode' | 'reasonNote'>,
): { field: 'reason' | 'note'; message: string } | undefined {
  if (!REFUND_REASONS.some((r) => r.code === d.reasonCode))
    return { field: 'reason', message: 'Choose a reason for the refund.' };
  if (d.reasonCode === 'other' && d.reasonNote.trim() === '')
    return { field: 'note', message: 'Explain the reason in the note.' };
  if (d.reasonNote.length > 500) return { field: 'note', message: 'Keep the note under 500 characters.' };
  const unsafe = findUnsafeCharacter(d.reasonNote, { multiline: true });
  if (unsafe) return { field: 'note', message: unsafeTextMessage('note', unsafe) };
  return undefined;
}

/** True when every confirmation the refund needs has been given. */
export function confirmationsComplete(
  req: Requirements,
  c: Confirmations,
  amountMinor: number,
  currency: Currency,
  f: NumberWords = PLAIN_NUMBERS,
): boolean {
  return (
    (!req.limit || c.overLimit) &&
    (!req.typedAmount || typedAmountMatches(c.typedAmount, currency, amountMinor, f))
  );
}

/** The `confirmation` object for refunds.submit: only what was asked for, so main sees no stray claims. */
export function confirmationPayload(
  req: Requirements,
  c: Confirmations,
  currency?: Currency,
  f: NumberWords = PLAIN_NUMBERS,
): { overLimit?: boolean; typedAmount?: string } {
  return {
    ...(req.limit ? { overLimit: c.overLimit } : {}),
    ...(req.typedAmount
      ? { typedAmount: currency ? toPlainDecimal(c.typedAmount.trim(), currency, f) : c.typedAmount.trim() }
      : {}),
  };
}
