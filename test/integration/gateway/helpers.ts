import { createFetchHttpClient } from '../../../electron/core/adapters/http-fetch';
import { createGatewayClient, type GatewayConfig } from '../../../electron/core/services/gateway/client';
import type { HttpClient } from '../../../electron/core/services/gateway/http-port';
import type { Logger } from '../../../electron/core/services/ports';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox';
import { createFakeLogger } from '../../fakes/logger';

/** The real fetch adapter, counting attempts per path (retry counts are asserted on this). */
export function countingHttp(): HttpClient & { count(pathEnd: string): number; reset(): void } {
  const inner = createFetchHttpClient();
  const seen: string[] = [];
  const fn: HttpClient = (req) => {
    seen.push(new URL(req.url).pathname);
    return inner(req);
  };
  return Object.assign(fn, {
    count: (pathEnd: string) => seen.filter((p) => p.endsWith(pathEnd)).length,
    reset: () => void seen.splice(0),
  });
}

export function demoConfig(
  sb: Pick<RunningSandbox, 'baseUrl'>,
  over: Partial<GatewayConfig> = {},
): GatewayConfig {
  return {
    baseUrl: sb.baseUrl,
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    token: DEMO_MERCHANT.token,
    ...over,
  };
}

export function gatewayFor(
  sb: Pick<RunningSandbox, 'baseUrl'>,
  opts: { http?: HttpClient; log?: Logger; over?: Partial<GatewayConfig>; timeoutMs?: number } = {},
) {
  return createGatewayClient({
    http: opts.http ?? createFetchHttpClient(),
    clock: { now: Date.now },
    log: opts.log ?? createFakeLogger(),
    config: () => demoConfig(sb, opts.over),
    timeoutMs: opts.timeoutMs ?? 1_000,
    retry: { retries: 2, baseDelayMs: 5, maxDelayMs: 20 },
  });
}

/** A seeded, refundable USD payment with no refunds yet. */
export function refundablePayment(sb: RunningSandbox, skip = 0) {
  const p = sb.state
    .snapshot()
    .payments.filter(
      (x) =>
        x.status === 'success' &&
        x.currency === 'USD' &&
        x.refunds.length === 0 &&
        x.amountMinor >= 500 &&
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.storeNo === DEMO_MERCHANT.storeNo,
    )[skip];
  if (!p) throw new Error('no refundable seeded payment');
  return p;
}
