import { z } from 'zod';
import { minorSchema } from './money';
/**
 * The one error envelope. Every IPC reply, every service result a person may see, uses these codes.
 * Exceptions are bugs; these are the expected failures.
 */
export const ERROR_CODES = [
  'invalid_input',
  'unauthorized',
  'forbidden',
  'not_found',
  'conflict',
  'upstream_rejected',
  'network',
  'timeout',
  'outcome_unknown',
  'unavailable',
  'cancelled',
  'internal',
] as const;
export type ErrorCode = (typeof ERROR_CODES)[number];

/**
 * What an error's `details` may say, one schema for every producer (main) and reader (renderer, CLI):
 * the renderer decides from these fields, never from the wording of `message`. Fields a reader does not
 * know are kept (older or newer mains), but every known one has its type here, and `toErrorEnvelope`
 * checks the details against it before they cross IPC, so what a reader gets is what the type says.
 *
 * One schema for all codes rather than one per code, on purpose: the fields cross codes — `moneyMoved`
 * answers every refund and payment failure whatever its code (`conflict`, `invalid_input`,
 * `unavailable`, `outcome_unknown`…), `ret_code`/`ret_msg` come with `not_found`, `unauthorized`,
 * `upstream_rejected` and `unavailable` alike — and a refusal is one decision reported under whichever
 * code fits. Readers branch on `code` first and then read these typed fields.
 */
export const errorDetailsSchema = z
  .object({
    /** Did money move: the one question every refund or payment error answers. */
    moneyMoved: z.enum(['yes', 'no', 'unknown']).optional(),
    /** What remains refundable, in the payment's minor units, when an amount was too large. */
    remainingMinor: minorSchema.optional(),
    /** Extra confirmations main needs before sending (`limit_confirmation`, `typed_amount`, `typed_confirmation`). */
    requires: z.array(z.string()).optional(),
    /** Why those confirmations are needed, in words ("it is above the single-refund limit of …"). */
    reasons: z.array(z.string()).optional(),
    /** The service's own answer. */
    ret_code: z.string().optional(),
    ret_msg: z.string().optional(),
    /** Which call of the service it was (`tranQuery`, `refund`, `transList`…). */
    endpoint: z.string().optional(),
    httpStatus: z.number().int().optional(),
    /** A currency the service answered with that this app does not handle (the record was refused). */
    unsupportedCurrency: z.string().optional(),
    /** False when the request provably never left (connection refused before any byte). */
    sent: z.boolean().optional(),
    /** The refund or payment intent the error concerns, and what is known of it. */
    intentId: z.string().optional(),
    state: z.string().optional(),
    transactionNo: z.string().optional(),
    refundTransactionNo: z.string().optional(),
    customerNo: z.string().optional(),
    /** The lookup that found nothing, as typed (cut to 64 characters). */
    query: z.string().optional(),
    /** How much checking an unknown refund has had, and needs, before it may be closed as not sent. */
    checks: z.number().int().optional(),
    minutes: z.number().optional(),
    minChecks: z.number().int().optional(),
    minMinutes: z.number().int().optional(),
    /** The profile a refused record belongs to (`conflict`). */
    ownerProfileId: z.string().optional(),
    /** Input problems, by field path. */
    issues: z.array(z.object({ path: z.string(), message: z.string() })).optional(),
    fields: z.record(z.string(), z.string()).optional(),
    /** The intent cannot be followed up from here (its account has no usable profile). */
    cannotCheck: z.boolean().optional(),
    /** The app database cannot be trusted or written (`untrusted`, `read-only`, `full`…), why, and what to do. */
    storage: z.string().optional(),
    cause: z.string().optional(),
    todo: z.string().optional(),
    blocked: z.boolean().optional(),
  })
  .catchall(z.unknown());
export type ErrorDetails = z.infer<typeof errorDetailsSchema>;

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  correlationId: string;
  details?: ErrorDetails;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorShape };

/** A typed, expected failure. Thrown inside services, converted to the envelope at the IPC edge. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { retryable?: boolean; details?: ErrorDetails; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }
  get retryable(): boolean {
    return (
      this.options.retryable ??
      (this.code === 'network' || this.code === 'timeout' || this.code === 'unavailable')
    );
  }
  get details(): ErrorDetails | undefined {
    return this.options.details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/**
 * The details as their schema types them. A field a producer filled with the wrong type is left out
 * (a bug in main, never a reason to lose the error itself), so readers can trust the declared types.
 */
function checkedDetails(details: ErrorDetails): ErrorDetails | undefined {
  if (typeof details !== 'object' || details === null || Array.isArray(details)) return undefined;
  const first = errorDetailsSchema.safeParse(details);
  if (first.success) return first.data;
  const wrong = new Set(first.error.issues.map((i) => String(i.path[0])));
  const second = errorDetailsSchema.safeParse(
    Object.fromEntries(Object.entries(details).filter(([k]) => !wrong.has(k))),
  );
  return second.success ? second.data : undefined;
}

/** Converts anything thrown into the envelope. Unknown exceptions become `internal` without leaking text. */
export function toErrorEnvelope(e: unknown, correlationId: string): { ok: false; error: AppErrorShape } {
  if (isAppError(e)) {
    const details = e.details ? checkedDetails(e.details) : undefined;
    return {
      ok: false,
      error: {
        code: e.code,
        message: e.message,
        retryable: e.retryable,
        correlationId,
        ...(details ? { details } : {}),
      },
    };
  }
  return {
    ok: false,
    error: {
      code: 'internal',
      message: `Something went wrong inside Refund Desk. Nothing was sent. Quote reference ${correlationId} when reporting it.`,
      retryable: false,
      correlationId,
    },
  };
}
