import type { Currency } from '../../../../shared/domain/currencies';
import type { AppErrorShape } from '../../../../shared/domain/errors';
import { limitReasons } from '../../../../shared/domain/guardrails';
import { type MoneyMode, moneyModeOf } from '../../../../shared/domain/profile';
import type { Output } from '../../../../shared/ipc/contract';

type Guardrails = Output<'refunds.preview'>['guardrails'];

/** Extra confirmations a refund needs before it may be sent. */
export interface Requirements {
  /** An "I confirm" checkbox: the refund passes a single or daily limit of the profile. */
  limit: boolean;
  /** Live money: the amount must be typed a second time. */
  typedAmount: boolean;
  /** Which limits, in words ("it is above the single-refund limit of 500.00 USD"). */
  reasons: string[];
}

const STRICTNESS: Readonly<Record<MoneyMode, number>> = { local: 0, test: 1, live: 2 };

/**
 * The money mode the dialog shows and asks confirmations for: the stricter of main's answer and what the
 * address itself says (the same moneyModeOf), so a preview that says "local" for a partner's https
 * address still gets the red banner and the typed amount — never "no real money moves".
 */
export function moneyModeShown(
  p: Pick<Output<'refunds.preview'>, 'moneyMode' | 'environment' | 'baseUrl'>,
): MoneyMode {
  // The address decides, except for a Custom address on this computer: there only the profile's
  // declaration (which main applied) can say, so main's answer stands.
  const fromAddress = moneyModeOf(p.environment, p.baseUrl || undefined, p.moneyMode);
  return STRICTNESS[fromAddress] > STRICTNESS[p.moneyMode] ? fromAddress : p.moneyMode;
}

export const NO_REQUIREMENTS: Requirements = { limit: false, typedAmount: false, reasons: [] };

/**
 * The confirmations the dialog should ask for up front, from the preview's limits. Main decides for
 * real with the same limitReasons() and answers `invalid_input` with `details.requires` if we missed one; this copy
 * only spares the person a round trip.
 */
export function predictRequirements(args: {
  amountMinor: number;
  currency: Currency;
  moneyMode: Output<'refunds.preview'>['moneyMode'];
  todayTotalMinor: number;
  guardrails: Guardrails;
}): Requirements {
  const reasons = limitReasons(args);
  return { limit: reasons.length > 0, typedAmount: args.moneyMode === 'live', reasons };
}

/**
 * Reads main's "needs an extra confirmation" answer (`invalid_input` + `details.requires`), or
 * undefined when the error is something else. Unknown requirement names are ignored rather than trusted.
 */
export function requirementsFromError(
  error: Pick<AppErrorShape, 'code' | 'details'>,
): Requirements | undefined {
  if (error.code !== 'invalid_input') return undefined;
  const requires = error.details?.requires;
  if (!Array.isArray(requires)) return undefined;
  const rawReasons = error.details?.reasons;
  const reasons = Array.isArray(rawReasons)
    ? rawReasons.filter((r): r is string => typeof r === 'string')
    : [];
  return {
    limit: requires.includes('limit_confirmation'),
    typedAmount: requires.includes('typed_amount'),
    reasons,
  };
}

/** Union of what we predicted and what main asked for, so a confirmation once shown never disappears. */
export function mergeRequirements(a: Requirements, b: Requirements): Requirements {
  return {
    limit: a.limit || b.limit,
    typedAmount: a.typedAmount || b.typedAmount,
    reasons: [...new Set([...a.reasons, ...b.reasons])],
  };
}
