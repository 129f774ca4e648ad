import { z } from 'zod';
import { type Currency, currencySchema } from './currencies';
import { formatMinor } from './money';

const minor = z.number().int().nonnegative().refine(Number.isSafeInteger, 'Too large.');

/** Per-currency refund limits of a profile; beyond them a refund needs an extra, explicit confirmation. */
const currencyLimitSchema = z.object({
  currency: currencySchema,
  maxSingleMinor: minor.optional(),
  dailyTotalMinor: minor.optional(),
});
export type CurrencyLimit = z.infer<typeof currencyLimitSchema>;

/**
 * A profile's money-safety settings: per-currency refund limits (beyond them a refund needs an extra
 * confirmation), and how much checking an unknown refund needs before it may be closed as not sent.
 */
export const guardrailsSchema = z.object({
  limits: z.array(currencyLimitSchema).max(20),
  unknownClose: z
    .object({
      minChecks: z.number().int().min(1, 'At least one check.').max(50),
      minMinutes: z
        .number()
        .int()
        .min(0)
        .max(7 * 24 * 60),
    })
    .optional(),
});
export type Guardrails = z.infer<typeof guardrailsSchema>;

/**
 * Which limits a refund passes, in words ("it is above the single-refund limit of 500.00 USD").
 * Main decides with this (refunds/guardrails.ts) and the dialog predicts with the same function, so
 * the two can never disagree about a limit.
 */
export function limitReasons(args: {
  amountMinor: number;
  currency: Currency;
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
