import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { createLogger } from '../../electron/core/adapters/logger';
import { createGatewayClient } from '../../electron/core/services/gateway/client';
import { isAppError } from '../../shared/domain/errors';

/**
 * The caller of hostile-body.bench.ts, in a process of its own: the gateway exactly as main runs it makes
 * one call to the hostile service and prints one JSON line with this process's own peak resident memory
 * (process.resourceUsage().maxRSS, which the kernel keeps per process) before and after the call, how the
 * answer was refused and how long refusing took.
 *
 * Usage: node --expose-gc --import tsx test/bench/hostile-caller.ts <baseUrl> <tranQuery|transList>
 */
const [baseUrl, endpoint] = process.argv.slice(2);
if (!baseUrl || (endpoint !== 'tranQuery' && endpoint !== 'transList'))
  throw new Error('usage: hostile-caller.ts <baseUrl> <tranQuery|transList>');

const gateway = createGatewayClient({
  http: createFetchHttpClient(),
  clock: { now: Date.now },
  log: createLogger({ sink: () => {} }),
  config: () => ({ baseUrl, merchantNo: '1', storeNo: '2', token: 'bench-token-123' }),
  retry: { retries: 0 },
});

const mb = (kib: number) => Math.round(kib / 1024);
global.gc?.();
const peakBeforeKiB = process.resourceUsage().maxRSS;
const rssBefore = process.memoryUsage().rss;
const started = performance.now();
let refusedAs = 'not refused';
let message = '';
try {
  if (endpoint === 'tranQuery') await gateway.queryTransaction({ transactionNo: '297553638300708562' });
  else await gateway.listTransactions({ startMs: Date.UTC(2026, 10, 1), endMs: Date.UTC(2026, 10, 2) });
} catch (e) {
  refusedAs = isAppError(e)
    ? `${e.code}${e.details?.['tooLarge'] ? ` (too large: over ${Number(e.details['maxBytes']) / 2 ** 20} MB)` : ''}`
    : 'exception';
  message = e instanceof Error ? e.message : String(e);
}
const elapsedMs = Math.round(performance.now() - started);
process.stdout.write(
  `${JSON.stringify({
    peakBeforeMB: mb(peakBeforeKiB),
    peakAfterMB: mb(process.resourceUsage().maxRSS),
    rssBeforeMB: Math.round(rssBefore / 2 ** 20),
    refusedAs,
    message,
    elapsedMs,
  })}\n`,
);
