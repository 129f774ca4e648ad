import { formatMinor, parseMinor } from '../../../../shared/domain/money';

/** Per-profile, per-currency limits beyond which a refund needs an extra, explicit confirmation. */
export interface CurrencyLimit {
  currency: string;
  maxSingleMinor?: number;
  dailyTotalMinor?: number;
}
export interface Guardrails {
  limits: CurrencyLimit[];
}

export interface Confirmation {
  /** The person acknowledged that this refund exceeds a limit. */
  overLimit?: boolean;
  /** Production only: the amount typed a second time, as a decimal string. */
  typedAmount?: string;
}

export type Requirement = 'limit_confirmation' | 'typed_amount';

/**
 * Which extra confirmations this refund needs, and which of them are still missing. Checked in main;
 * the dialog asks for them, but a renderer that skips the dialog cannot skip these.
 */
export function missingConfirmations(args: {
  amountMinor: number;
  currency: string;
  environment: string;
  todayTotalMinor: number;
  guardrails: Guardrails;
  confirmation: Confirmation;
}): { missing: Requirement[]; reasons: string[] } {
  const missing: Requirement[] = [];
  const reasons: string[] = [];
  const limit = args.guardrails.limits.find((l) => l.currency === args.currency);
  if (limit?.maxSingleMinor !== undefined && args.amountMinor > limit.maxSingleMinor) {
    reasons.push(`it is above the single-refund limit of ${formatMinor(limit.maxSingleMinor, args.currency)} ${args.currency}`);
  }
  if (limit?.dailyTotalMinor !== undefined && args.todayTotalMinor + args.amountMinor > limit.dailyTotalMinor) {
    reasons.push(`today's refunds would pass the daily limit of ${formatMinor(limit.dailyTotalMinor, args.currency)} ${args.currency}`);
  }
  if (reasons.length > 0 && !args.confirmation.overLimit) missing.push('limit_confirmation');
  if (args.environment === 'production') {
    let typed: number | undefined;
    try {
      typed = args.confirmation.typedAmount ? parseMinor(args.confirmation.typedAmount, args.currency) : undefined;
    } catch {
      typed = undefined;
    }
    if (typed !== args.amountMinor) missing.push('typed_amount');
  }
  return { missing, reasons };
}
