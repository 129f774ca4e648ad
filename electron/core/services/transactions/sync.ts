import { AppError, isAppError } from '../../../../shared/domain/errors';
import type { Transaction } from '../../../../shared/domain/transaction';
import { SYNC_MAX_SPAN_DAYS } from '../../../../shared/ipc/contract/transactions-batch';
import { RET } from '../../../../shared/protocol/ret-codes';
import { serviceDateToMs } from '../../../../shared/protocol/time';
import { type AdaptiveLimiter, createLimiters, outcomeOf } from '../gateway/adaptive-limit';
import type { GatewayClient } from '../gateway/client';
import type { Clock } from '../ports';

const DAY_MS = 86_400_000;

export type SyncResult =
  | { supported: true; profileId: string; fetchedAt: string; transactions: Transaction[] }
  | { supported: false; profileId: string; message: string; retCode?: string };

/**
 * The answers that mean "this service does not offer trans-list" rather than "could not ask": an API
 * version/path rejection, or an HTTP 404/405/501 for the path. Network failures stay errors, so the
 * screen shows offline, not "unsupported".
 */
export function notOffered(e: AppError): { message: string; retCode?: string } | undefined {
  const ret = e.details?.ret_code;
  const http = e.details?.httpStatus;
  if (e.code === 'upstream_rejected' && (ret === RET.API_VERSION || ret === RET.SYSTEM_ERROR)) {
    return {
      message:
        'This payment service does not offer the transaction list, so sync by date is not available. Look payments up one by one instead.',
      retCode: String(ret),
    };
  }
  if (e.code === 'unavailable' && (http === 404 || http === 405 || http === 501)) {
    return {
      message:
        'This payment service does not offer the transaction list (it answered “not found”), so sync by date is not available. Look payments up one by one instead.',
    };
  }
  return undefined;
}

/** Parses and checks one window; the contract already checked the shape. */
function windowOf(startDate: string, endDate: string): { startMs: number; endMs: number } {
  const startMs = serviceDateToMs(startDate);
  const endMs = serviceDateToMs(endDate);
  if (startMs === undefined || endMs === undefined)
    throw new AppError('invalid_input', 'Choose valid start and end dates.');
  if (endMs < startMs) throw new AppError('invalid_input', 'The end date is before the start date.');
  if (endMs - startMs > SYNC_MAX_SPAN_DAYS * DAY_MS) {
    throw new AppError(
      'invalid_input',
      `One sync window may span at most ${SYNC_MAX_SPAN_DAYS} days; the app splits longer ranges.`,
    );
  }
  return { startMs, endMs };
}

/** Sync by date range through the optional trans-list endpoint, one ≤ 15-day window per call. */
export function createTransactionSync(deps: {
  /** The named profile's gateway (`not_found` when the profile no longer exists). */
  gateway: (
    profileId: string,
  ) => Promise<{ profileId: string; client: Pick<GatewayClient, 'listTransactions'> }>;
  clock: Clock;
  /** The profile's shared limiter: a window waits out the pause that overload answers started. */
  limiterFor?: (profileId: string) => AdaptiveLimiter;
}) {
  const limiterFor = deps.limiterFor ?? createLimiters(deps.clock);
  return {
    async syncWindow(forProfile: string, startDate: string, endDate: string): Promise<SyncResult> {
      const range = windowOf(startDate, endDate);
      const { profileId, client } = await deps.gateway(forProfile);
      const slot = await limiterFor(profileId).acquire();
      try {
        const transactions = await client.listTransactions(range, { onAttempt: (a) => slot?.report(a) });
        slot?.release('answered');
        return {
          supported: true,
          profileId,
          fetchedAt: new Date(deps.clock.now()).toISOString(),
          transactions,
        };
      } catch (e) {
        slot?.release(outcomeOf(e));
        const degraded = isAppError(e) ? notOffered(e) : undefined;
        if (degraded) return { supported: false, profileId, ...degraded };
        throw e;
      }
    },
  };
}
export type TransactionSync = ReturnType<typeof createTransactionSync>;
