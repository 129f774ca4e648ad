import type { Currency } from '../../../../shared/domain/currencies';
import { type Guardrails, limitReasons } from '../../../../shared/domain/guardrails';
import { parseMinor } from '../../../../shared/domain/money';
import type { MoneyMode } from '../../../../shared/domain/profile';

export type { CurrencyLimit, Guardrails } from '../../../../shared/domain/guardrails';

export interface Confirmation {
  /** The person acknowledged that this refund exceeds a limit. */
  overLimit?: boolean;
  /** Live money only: the amount typed a second time, as a decimal string. */
  typedAmount?: string;
}

export type Requirement = 'limit_confirmation' | 'typed_amount';

/**
 * Which extra confirmations this refund needs, and which of them are still missing. Checked in main;
 * the dialog asks for them, but a renderer that skips the dialog cannot skip these.
 */
export function missingConfirmations(args: {
  amountMinor: number;
  currency: Currency;
  /** `live` (real money) needs the amount typed a second time. */
  moneyMode: MoneyMode;
  todayTotalMinor: number;
  guardrails: Guardrails;
  confirmation: Confirmation;
}): { missing: Requirement[]; reasons: string[] } {
  const missing: Requirement[] = [];
  const reasons = limitReasons(args);
  if (reasons.length > 0 && !args.confirmation.overLimit) missing.push('limit_confirmation');
  if (args.moneyMode === 'live') {
    let typed: number | undefined;
    try {
      typed = args.confirmation.typedAmount
        ? parseMinor(args.confirmation.typedAmount, args.currency)
        : undefined;
    } catch {
      typed = undefined;
    }
    if (typed !== args.amountMinor) missing.push('typed_amount');
  }
  return { missing, reasons };
}
