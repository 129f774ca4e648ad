/**
 * Refund batch dry run at 10,000 rows, measured (never asserted):
 * - `batch 10k read`: the file (CSV bytes) decoded, parsed, mapped to batch rows;
 * - `batch 10k classify`: every row classified against payments and intents already in memory (pure);
 * - `batch 10k dry run`: the app's dry-run service end to end — read, one fresh query per distinct
 *   payment over real loopback HTTP to the embedded sandbox with the adaptive limiter, intents read from
 *   a real SQLite database, classification. First cold, then fresh again with the sandbox, connection
 *   pool and limiter warm, then from a warm cache: opened again within a minute, the answers just
 *   fetched are reused (reuseWithinMs) — intents are still read from the database, every row classified.
 * Run alone: `npm run bench -- batch`.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openAppStorage } from '../../electron/core/adapters/sqlite/app-storage';
import { createFetchHttpClient } from '../../electron/core/adapters/http-fetch';
import { classifyBatch, lookupKeyOf, type PaymentAnswer } from '../../electron/core/services/batch/classify';
import { createBatchDryRun, sha256Hex } from '../../electron/core/services/batch/dry-run';
import { createAdaptiveLimiter } from '../../electron/core/services/gateway/adaptive-limit';
import { createGatewayClient } from '../../electron/core/services/gateway/client';
import { refundStoreOn } from '../../electron/core/services/refunds/store';
import { DEMO_MERCHANT, startSandbox } from '../../electron/sandbox/index';
import { readBatchFile } from '../../shared/batch/read';
import { formatMinor } from '../../shared/domain/money';
import type { Transaction } from '../../shared/domain/transaction';
import { type Figure, ms, perSec, time } from './harness';

const ROWS = 10_000;

export async function batchBench(): Promise<Figure[]> {
  const sandbox = await startSandbox({ seed: 27, transactions: 19_000 });
  const dir = mkdtempSync(join(tmpdir(), 'rd-bench-batch-'));
  const log = { info() {}, warn() {}, error() {} };
  const storage = openAppStorage({ dataDir: dir, now: Date.now, log });
  const refunds = refundStoreOn(storage.intents);
  try {
    const payments = sandbox.state
      .snapshot()
      .payments.filter(
        (p) => p.merchantNo === DEMO_MERCHANT.merchantNo && p.storeNo === DEMO_MERCHANT.storeNo,
      );
    const lines = ['Transaction No,Refund amount,Currency,Reason,Claim ID'];
    for (let i = 0; i < ROWS; i += 1) {
      const p = payments[i % payments.length]!;
      lines.push(`${p.transactionNo},${formatMinor(1 + (i % 50), p.currency)},${p.currency},recall,C-${i}`);
    }
    const bytes = new TextEncoder().encode(`${lines.join('\r\n')}\r\n`);

    const read = await time(() => readBatchFile(bytes, 'batch.csv'));
    const answers = new Map<string, PaymentAnswer>();
    for (const r of read.value.rows) {
      const p = sandbox.state.payment(r.transactionNo!)!;
      const transaction: Transaction = {
        transactionNo: p.transactionNo,
        amountMinor: p.amountMinor,
        currency: p.currency,
        status: p.status,
        transactionType: 'payment',
        refunds: [],
      };
      answers.set(lookupKeyOf(r), { kind: 'found', transaction });
    }
    const account = {
      environment: 'custom',
      baseUrl: sandbox.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
    };
    const classify = await time(() =>
      classifyBatch({
        account,
        rows: read.value.rows,
        unusable: read.value.unusable,
        payments: answers,
        intents: new Map(),
        digest: sha256Hex,
      }),
    );

    const gateway = createGatewayClient({
      http: createFetchHttpClient(),
      clock: { now: Date.now },
      log,
      config: () => ({
        baseUrl: sandbox.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
        token: DEMO_MERCHANT.token,
      }),
    });
    // One limiter for the profile, as the app core shares one per profile between batches.
    const limiter = createAdaptiveLimiter({ clock: { now: Date.now } });
    const service = createBatchDryRun({
      profile: () => ({ ...account, profileId: 'p', profileName: 'Bench', moneyMode: 'local' }),
      gatewayFor: () => gateway,
      limiterFor: () => limiter,
      intentsOf: (a, no) => refunds.forPayment(a.merchantNo, a.storeNo, no),
      clock: { now: Date.now },
    });
    const cold = await time(() => service.dryRun('p', { name: 'batch.csv', bytes }));
    const fresh = await time(() => service.dryRun('p', { name: 'batch.csv', bytes }));
    // Opened again within a minute (the person changed the mapping): the answers just fetched are reused.
    const warm = await time(() =>
      service.dryRun('p', { name: 'batch.csv', bytes }, { reuseWithinMs: 60_000 }),
    );
    const note = (r: typeof warm.value) =>
      `${r.queried.toLocaleString('en-US')} queried, ${r.reused.toLocaleString('en-US')} reused, ${r.counts.will_refund} will refund; limiter peak ${limiter.state().peak}`;
    return [
      {
        bench: 'batch 10k',
        metric: 'read (decode + CSV reader + map)',
        value: ms(read.ms),
        note: perSec(ROWS, read.ms),
      },
      {
        bench: 'batch 10k',
        metric: 'classify (pure, payments in memory)',
        value: ms(classify.ms),
        note: `${classify.value.counts.will_refund} will refund`,
      },
      {
        bench: 'batch 10k',
        metric: 'dry run, first (cold sandbox + pool)',
        value: ms(cold.ms),
        note: note(cold.value),
      },
      {
        bench: 'batch 10k',
        metric: 'dry run, fresh (warm sandbox + pool)',
        value: ms(fresh.ms),
        note: note(fresh.value),
      },
      {
        bench: 'batch 10k',
        metric: 'dry run, warm cache (goal ≤ 2 s)',
        value: ms(warm.ms),
        note: note(warm.value),
      },
    ];
  } finally {
    storage.close();
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  void batchBench().then(async (f) => (await import('./harness')).printTable(f));
