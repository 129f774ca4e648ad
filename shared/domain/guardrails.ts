import { formatMinor } from './money';

/** Per-currency refund limits of a profile; beyond them a refund needs an extra, explicit confirmation. */
export interface CurrencyLimit {
  currency: string;
  maxSingleMinor?: number;
  dailyTotalMinor?: number;
}
export interface Guardrails {
  limits: CurrencyLimit[];
}

/**
 * Which limits a refund passes, in words ("it is above the single-refund limit of 500.00 USD").
 * Main decides with this (refunds/guardrails.ts) and the dialog predicts with the same function, so
 * the two can never disagree about a limit.
 */
export function limitReasons(args: {
  amountMinor: number;
  currency: string;
  todayTotalMinor: number;
  guardrails: Guardrails;
}): string[] {
  const reasons: string[] = [];
  const limit = args.guardrails.limits.find((l) => l.currency === args.currency);
  if (limit?.maxSingleMinor !== undefined && args.amountMinor > limit.maxSingleMinor) {
    reasons.push(
      `it is above the single-refund limit of ${formatMinor(limit.maxSingleMinor, args.currency)} ${args.currency}`,
    );
  }
  if (
    limit?.dailyTotalMinor !== undefined &&
    args.todayTotalMinor + args.amountMinor > limit.dailyTotalMinor
  ) {
    reasons.push(
      `today's refunds would pass the daily limit of ${formatMinor(limit.dailyTotalMinor, args.currency)} ${args.currency}`,
    );
  }
  return reasons;
}
