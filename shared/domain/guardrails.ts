import { z } from 'zod';
import { type Currency, currencySchema } from './currencies';
import { formatMinor, minorSchema } from './money';

const minor = minorSchema.nonnegative();

/** Per-currency refund limits of a profile; beyond them a refund needs an extra, explicit confirmation. */
const currencyLimitSchema = z.object({
  currency: currencySchema,
  maxSingleMinor: minor.optional(),
  dailyTotalMinor: minor.optional(),
});
export type CurrencyLimit = z.infer<typeof currencyLimitSchema>;

/**
 * The least checking any "close as not sent" policy may ask for. The service has no idempotency and
 * documents no retry window for a refund request; the only window it documents is for its own work on a
 * request it received — a notification is resent "up to 8 times within 2 hours" (shared/protocol/README.md,
 * IPNs), and an unpaid payment waits 120 minutes before it is closed. A refund request can be held on
 * the way (a proxy, the service's queue, the acquirer) and still be applied after the desk gave up on
 * it, so closing it sooner than that window lets the clerk send it again while the first is still on its
 * way: both are paid. Three checks that reach the service, spread over that window (the first comes
 * right after the unknown answer, and one more is made when closing), so one early, transient "not
 * listed" is never the whole evidence. Only a floor: after closing, the refund is still watched (see
 * electron/core/services/refunds/resolver.ts, CLOSED_WATCH_MS).
 */
export const UNKNOWN_CLOSE_FLOOR = { minChecks: 3, minMinutes: 120 } as const;
const MAX_CLOSE_MINUTES = 7 * 24 * 60;

export const CLOSE_FLOOR_WORDS = {
  minChecks: `At least ${UNKNOWN_CLOSE_FLOOR.minChecks} checks: fewer could close a refund the payment service is still working on.`,
  minMinutes: `At least ${UNKNOWN_CLOSE_FLOOR.minMinutes} minutes (2 hours): the payment service keeps working on a request for up to 2 hours, so a refund closed sooner may still arrive and be paid twice.`,
} as const;

/** A stored "close as not sent" policy: read as stored (older versions allowed less; see closePolicyAtFloor). */
const unknownCloseSchema = z.object({
  minChecks: z.number().int().min(1, 'At least one check.').max(50),
  minMinutes: z.number().int().min(0).max(MAX_CLOSE_MINUTES),
});
export type UnknownClosePolicy = z.infer<typeof unknownCloseSchema>;

/**
 * A profile's money-safety settings: per-currency refund limits (beyond them a refund needs an extra
 * confirmation), and how much checking an unknown refund needs before it may be closed as not sent.
 * This is the stored shape: a file written by an earlier version, whose policy may be below the floor,
 * still reads (main raises it, never trusts it). What a person saves is guardrailsInputSchema.
 */
export const guardrailsSchema = z.object({
  limits: z.array(currencyLimitSchema).max(20),
  unknownClose: unknownCloseSchema.optional(),
});
export type Guardrails = z.infer<typeof guardrailsSchema>;

/** What a person may save: a close policy below UNKNOWN_CLOSE_FLOOR is refused with the reason. */
export const guardrailsInputSchema = guardrailsSchema.extend({
  unknownClose: z
    .object({
      minChecks: z
        .number()
        .int()
        .min(UNKNOWN_CLOSE_FLOOR.minChecks, CLOSE_FLOOR_WORDS.minChecks)
        .max(50, 'At most 50 checks.'),
      minMinutes: z
        .number()
        .int()
        .min(UNKNOWN_CLOSE_FLOOR.minMinutes, CLOSE_FLOOR_WORDS.minMinutes)
        .max(MAX_CLOSE_MINUTES, 'At most a week (10080 minutes).'),
    })
    .optional(),
});

/** A policy raised to the floor where it asks for less: what main applies, whatever was stored. */
export function closePolicyAtFloor(p: UnknownClosePolicy | undefined): UnknownClosePolicy {
  return {
    minChecks: Math.max(p?.minChecks ?? UNKNOWN_CLOSE_FLOOR.minChecks, UNKNOWN_CLOSE_FLOOR.minChecks),
    minMinutes: Math.max(p?.minMinutes ?? UNKNOWN_CLOSE_FLOOR.minMinutes, UNKNOWN_CLOSE_FLOOR.minMinutes),
  };
}

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
