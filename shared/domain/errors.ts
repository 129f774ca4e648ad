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

export interface AppErrorShape {
  code: ErrorCode;
  message: string;
  retryable: boolean;
  correlationId: string;
  details?: Record<string, unknown>;
}

export type Result<T> = { ok: true; value: T } | { ok: false; error: AppErrorShape };

/** A typed, expected failure. Thrown inside services, converted to the envelope at the IPC edge. */
export class AppError extends Error {
  override name = 'AppError';
  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly options: { retryable?: boolean; details?: Record<string, unknown>; cause?: unknown } = {},
  ) {
    super(message, { cause: options.cause });
  }
  get retryable(): boolean {
    return (
      this.options.retryable ??
      (this.code === 'network' || this.code === 'timeout' || this.code === 'unavailable')
    );
  }
  get details(): Record<string, unknown> | undefined {
    return this.options.details;
  }
}

export function isAppError(e: unknown): e is AppError {
  return e instanceof AppError;
}

export function ok<T>(value: T): Result<T> {
  return { ok: true, value };
}

/** Converts anything thrown into the envelope. Unknown exceptions become `internal` without leaking text. */
export function toErrorEnvelope(e: unknown, correlationId: string): { ok: false; error: AppErrorShape } {
  if (isAppError(e)) {
    return {
      ok: false,
      error: {
        code: e.code,
        message: e.message,
        retryable: e.retryable,
        correlationId,
        ...(e.details ? { details: e.details } : {}),
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
