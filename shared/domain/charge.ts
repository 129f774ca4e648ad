import type { Currency } from './currencies';
import type { Guardrails } from './guardrails';
import type { MoneyMode } from './profile';
import { formatMinor, parseMinor } from './money';

/**
 * Extra confirmation a stored-method charge needs, as for refunds: with live money (moneyModeOf), or above the
 * profile's single-amount limit for that currency, the amount must be typed again. Main decides with
 * this; the charge dialog predicts with the same function, so the two never disagree.
 */
export function chargeConfirmation(args: {
  amountMinor: number;
  currency: Currency;
  moneyMode: MoneyMode;
  guardrails: Guardrails;
  typedAmount?: string | undefined;
}): { missing: string[]; reasons: string[] } {
  const limit = args.guardrails.limits.find((l) => l.currency === args.currency)?.maxSingleMinor;
  const reasons = [
    ...(args.moneyMode === 'live' ? ['this charges a real card'] : []),
    ...(limit !== undefined && args.amountMinor > limit
      ? [
          `it is above this profile’s single-amount limit of ${formatMinor(limit, args.currency)} ${args.currency}`,
        ]
      : []),
  ];
  let typedOk = false;
  try {
    typedOk =
      args.typedAmount !== undefined &&
      parseMinor(args.typedAmount.trim(), args.currency) === args.amountMinor;
  } catch {
    typedOk = false;
  }
  return { missing: reasons.length > 0 && !typedOk ? ['typed_amount'] : [], reasons };
}
