import { isAppError } from '../../../../shared/domain/errors';
import type { GatewayClient } from '../gateway/client';
import type { Clock } from '../ports';

export type ConnectionVerdict = 'ok' | 'credentials' | 'network' | 'service';

export interface ConnectionResult {
  verdict: ConnectionVerdict;
  message: string;
  elapsedMs: number;
  retCode?: string;
  retMsg?: string;
}

/** 18 random digits (first non-zero): a transaction number that almost surely does not exist. */
export function probeTransactionNo(random: () => number): string {
  let s = String(1 + Math.floor(random() * 9));
  while (s.length < 18) s += String(Math.floor(random() * 10));
  return s;
}

/**
 * "Test connection": one signed tran-query for a number that should not exist. `000021` (no record)
 * proves the service checked our signature and found the merchant, so the credentials work; `000030`
 * is a credential problem; no answer is a network problem. Nothing is created or changed.
 */
export async function testConnection(
  gateway: () => Promise<Pick<GatewayClient, 'queryTransaction'>>,
  clock: Clock,
  random: () => number = Math.random,
): Promise<ConnectionResult> {
  const started = clock.now();
  const done = (r: Omit<ConnectionResult, 'elapsedMs'>): ConnectionResult => ({
    ...r,
    elapsedMs: Math.max(0, clock.now() - started),
  });
  try {
    await (await gateway()).queryTransaction({ transactionNo: probeTransactionNo(random) });
    return done({
      verdict: 'ok',
      message: 'Connected: the payment service accepted this profile’s credentials.',
    });
  } catch (e) {
    if (!isAppError(e)) throw e;
    const ret = e.details?.ret_code;
    const retFields =
      typeof ret === 'string' ? { retCode: ret, retMsg: String(e.details?.ret_msg ?? '') } : {};
    switch (e.code) {
      case 'not_found':
        return done({
          verdict: 'ok',
          message: 'Connected: the payment service accepted this profile’s credentials.',
          ...retFields,
        });
      case 'unauthorized':
        // Without a ret_code nothing was sent (no token yet): say that, not "refused".
        return done({
          verdict: 'credentials',
          message:
            typeof ret === 'string'
              ? `The service is reachable but refused the credentials. ${e.message}`
              : e.message,
          ...retFields,
        });
      case 'network':
      case 'timeout':
      case 'unavailable':
        return done({ verdict: 'network', message: e.message, ...retFields });
      default:
        return done({ verdict: 'service', message: e.message, ...retFields });
    }
  }
}
