/**
 * Refund batch execution against the sandbox with injected latency on every endpoint, measured (never
 * asserted), beside one-at-a-time refunds of the same kind in the same run:
 * - `batch 1k execute`: 1,000 rows of 1,000 distinct payments through the app core's own dispatcher
 *   (refunds.batchStart: the dry run again in main, then each row its own decision through the refund
 *   service — fresh query, decision committed to a real SQLite file, request — as many payments side by
 *   side as the profile's adaptive limiter allows), from start to the batch's last row settled;
 * - `one at a time`: what a clerk does per payment through the dialog — refunds.preview, then
 *   refunds.submit — one after another, for a sample of other payments; its per-refund time × 1,000 is
 *   the same work done one at a time;
 * - over-refunds counted at the sandbox: per payment, refunds beyond the one asked for or more money
 *   than the payment (must be 0).
 * Run alone: `npm run bench -- batch-exec`.
 */
import { mkdtempSync } from 'node:fs';
import { cpus, loadavg, tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AppCore } from '../../electron/core/compose';
import { cliAccount, openCliCore } from '../../electron/hosts/cli/core';
import type { CliIo } from '../../electron/hosts/cli/io';
import { DEMO_MERCHANT, type PaymentRecord, startSandbox } from '../../electron/sandbox/index';
import type { BatchStatus } from '../../shared/batch/execution';
import type { Currency } from '../../shared/domain/currencies';
import { formatMinor } from '../../shared/domain/money';
import { type Figure, ms, perSec, time } from './harness';

const ROWS = Number(process.env['BENCH_BATCH_ROWS'] ?? 1_000);
/** One-at-a-time refunds timed (each ≥ 3 round trips at the injected latency); the rate is per refund. */
const SINGLES = Number(process.env['BENCH_BATCH_SINGLES'] ?? 60);
const LATENCY_MS = 100;
const AMOUNT = 100;

async function call<T>(core: AppCore, channel: string, input: unknown): Promise<T> {
  const r = await core.dispatch(channel, input);
  if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
  return r.value as T;
}

export async function batchExecBench(): Promise<Figure[]> {
  const load = loadavg()[0]!.toFixed(1);
  const sandbox = await startSandbox({ seed: 2727, transactions: Math.max(4_000, (ROWS + SINGLES) * 3) });
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-bench-batch-exec-'));
  const io: CliIo = {
    out: () => undefined,
    err: () => undefined,
    env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
  };
  const account = cliAccount(
    { 'base-url': sandbox.baseUrl, merchant: DEMO_MERCHANT.merchantNo, store: DEMO_MERCHANT.storeNo },
    io,
    dataDir,
  );
  account.profile = { ...account.profile, loopbackMoneyMode: 'test', operatorName: 'bench clerk' };
  const profileId = account.profile.id;
  const core = await openCliCore({ dataDir, io, account });
  try {
    const fresh = sandbox.state
      .snapshot()
      .payments.filter(
        (p) =>
          p.merchantNo === DEMO_MERCHANT.merchantNo &&
          p.storeNo === DEMO_MERCHANT.storeNo &&
          p.status === 'success' &&
          p.refunds.length === 0 &&
          p.amountMinor >= 10 * AMOUNT,
      );
    if (fresh.length < ROWS + SINGLES) throw new Error(`only ${fresh.length} fresh payments in the seed`);
    const batchPs = fresh.slice(0, ROWS);
    const singlePs = fresh.slice(ROWS, ROWS + SINGLES);
    const csv = [
      'Transaction No,Refund amount,Currency,Reason,Claim ID',
      ...batchPs.map(
        (p, i) =>
          `${p.transactionNo},${formatMinor(AMOUNT, p.currency as Currency)},${p.currency},recall,C-${i}`,
      ),
    ].join('\r\n');
    const file = { name: 'bench-1k.csv', base64: Buffer.from(csv).toString('base64') };
    sandbox.setFaults({ all: { latencyMs: LATENCY_MS } });

    // One at a time, as the dialog does it: look the payment up, then refund it.
    const singles = await time(async () => {
      for (const p of singlePs) {
        const preview = await call<{ baseUrl: string; merchantNo: string }>(core, 'refunds.preview', {
          profileId,
          transactionNo: p.transactionNo,
        });
        await call(core, 'refunds.submit', {
          profileId,
          transactionNo: p.transactionNo,
          amountMinor: AMOUNT,
          currency: p.currency,
          reasonCode: 'customer_request',
          reasonNote: '',
          confirmation: {},
          account: { baseUrl: preview.baseUrl, merchantNo: preview.merchantNo },
        });
      }
    });

    // This process's CPU during the batch: near the wall time means the batch waits for a core, not the network.
    const cpu0 = process.cpuUsage();
    const batch = await time(async () => {
      const started = await call<BatchStatus>(core, 'refunds.batchStart', { profileId, file });
      for (;;) {
        const s = await call<BatchStatus>(core, 'refunds.batchStatus', {
          profileId,
          batchId: started.batchId,
        });
        if (!s.active) return s;
        await new Promise((r) => setTimeout(r, 100));
      }
    });
    const cpu = process.cpuUsage(cpu0);
    const cpuMs = (cpu.user + cpu.system) / 1000;
    sandbox.resetFaults();

    // Counted at the sandbox: one refund of AMOUNT per payment, never more money than the payment.
    const refunds = sandbox.state.snapshot().refunds;
    const per = new Map<string, { n: number; minor: number }>();
    for (const r of refunds) {
      const t = per.get(r.transactionNo) ?? { n: 0, minor: 0 };
      per.set(r.transactionNo, { n: t.n + 1, minor: t.minor + r.refundAmountMinor });
    }
    const over = (ps: PaymentRecord[]) =>
      ps.filter((p) => {
        const t = per.get(p.transactionNo);
        return t !== undefined && (t.n > 1 || t.minor > AMOUNT || t.minor > p.amountMinor);
      }).length;
    const missing = batchPs.filter((p) => !per.has(p.transactionNo)).length;
    const perSingle = singles.ms / SINGLES;
    const oneAtATime = perSingle * ROWS;
    const s = batch.value;
    return [
      {
        bench: 'batch 1k execute',
        metric: `${ROWS} rows, ${LATENCY_MS} ms latency on every endpoint`,
        value: ms(batch.ms),
        note: `${perSec(ROWS, batch.ms)}; ${s.refunded} refunded, ${s.refused} refused, ${s.unknown} unknown; CPU of this process (app core and sandbox) ${ms(cpuMs)} = ${Math.round((cpuMs / batch.ms) * 100)}% of a core; load ${load} on ${cpus().length} cores`,
      },
      {
        bench: 'batch 1k execute',
        metric: `one at a time (preview + submit), ${SINGLES} timed`,
        value: `${ms(perSingle)} / refund`,
        note: `× ${ROWS} = ${ms(oneAtATime)} (${perSec(SINGLES, singles.ms)})`,
      },
      {
        bench: 'batch 1k execute',
        metric: 'speed-up over one at a time (goal ≥ 10×)',
        value: `${(oneAtATime / batch.ms).toFixed(1)}×`,
      },
      {
        bench: 'batch 1k execute',
        metric: 'over-refunds counted at the sandbox (goal 0)',
        value: String(over(batchPs) + over(singlePs)),
        note: `${batchPs.length - missing} of ${ROWS} batch payments refunded once, ${missing} not; ${SINGLES} single refunds`,
      },
    ];
  } finally {
    await core.close();
    await sandbox.close();
  }
}

if (import.meta.url === `file://${process.argv[1]}`)
  void batchExecBench().then(async (f) => (await import('./harness')).printTable(f));
