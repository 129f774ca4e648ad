import pLimit from 'p-limit';
import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { createGatewayClient } from '../../electron/core/services/gateway/client';
import { DEMO_MERCHANT, startSandbox } from '../../electron/sandbox/index';
import { createLogger } from '../../electron/core/adapters/logger';
import { type Figure, ms, pct, perSec, sample, time } from './harness';

/** Round trips over real loopback HTTP to the sandbox: query latency and batch throughput. */
export async function serviceBench(): Promise<Figure[]> {
  const sandbox = await startSandbox({ seed: 42, transactions: 5_000 });
  const figures: Figure[] = [];
  try {
    const gateway = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log: createLogger({ sink: () => {} }),
      config: () => ({
        baseUrl: sandbox.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        token: DEMO_MERCHANT.token,
      }),
    });
    const ids = sandbox.state
      .snapshot()
      .payments.filter((p) => p.merchantNo === DEMO_MERCHANT.merchantNo)
      .map((p) => p.transactionNo);
    await gateway.queryTransaction({ transactionNo: ids[0]! }); // warm-up
    const lat = await sample(300, (i) => gateway.queryTransaction({ transactionNo: ids[i % ids.length]! }));
    figures.push({
      bench: 'tran-query',
      metric: 'latency p50',
      value: ms(pct(lat, 50)),
      note: 'sequential, loopback',
    });
    figures.push({ bench: 'tran-query', metric: 'latency p95', value: ms(pct(lat, 95)) });
    for (const concurrency of [1, 4, 8]) {
      const limit = pLimit(concurrency);
      const n = 1_000;
      const run = await time(() =>
        Promise.all(
          Array.from({ length: n }, (_, i) =>
            limit(() => gateway.queryTransaction({ transactionNo: ids[i % ids.length]! })),
          ),
        ),
      );
      figures.push({
        bench: 'batch query',
        metric: `concurrency ${concurrency}`,
        value: perSec(n, run.ms),
        note: `${n} queries`,
      });
    }
  } finally {
    await sandbox.close();
  }
  return figures;
}
