import { spawn } from 'node:child_process';
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { buildRefunds, freshPayment, startRefundSandbox } from './harness';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startRefundSandbox();
});
afterAll(() => sandbox.close());

async function waitFor(check: () => boolean | Promise<boolean>, ms = 45_000): Promise<void> {
  const until = Date.now() + ms;
  while (!(await check())) {
    if (Date.now() > until) throw new Error('timed out waiting');
    await new Promise((r) => setTimeout(r, 25));
  }
}

it('a host killed between "sent" and the response loses nothing: the refund is found on restart, not resent', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-crash-'));
  const p = freshPayment(sandbox, new Set());
  // The sandbox takes a while to answer, so the child is killed with the request in flight.
  sandbox.setFaults({ endpoints: { refund: { latencyMs: 2000 } } });
  const child = spawn(
    process.execPath,
    [
      '--import',
      'tsx',
      resolve(import.meta.dirname, 'crash-child.ts'),
      sandbox.baseUrl,
      dir,
      p.transactionNo,
      '700',
      p.currency,
    ],
    {
      stdio: 'ignore',
    },
  );
  const watcher = buildRefunds(sandbox, dir);
  try {
    await waitFor(async () => (await watcher.service.list()).some((i) => i.state === 'sending'));
    // The intent commits just before the request is written to the socket: give the child a moment to
    // actually send it (well inside the sandbox's latency) so the kill lands while it is in flight.
    await new Promise((r) => setTimeout(r, 600));
    child.kill('SIGKILL');
    // The request that already left is applied by the service after its latency.
    await waitFor(() => sandbox.state.snapshot().refunds.some((r) => r.transactionNo === p.transactionNo));
  } finally {
    sandbox.resetFaults();
    child.kill('SIGKILL');
  }
  const restarted = buildRefunds(sandbox, dir);
  const [pending] = await restarted.service.list();
  // Its sender is gone (killed): once its lease has run out, a restart resolves it by query — found, so
  // never resent. Until then it is left to its sender.
  expect(pending!.state).toBe('sending');
  expect(pending!.sender).toMatch(new RegExp(`:${child.pid}$`));
  await waitFor(async () => (await restarted.store.orphans()).some((i) => i.id === pending!.id), 10_000);
  const resumed = await restarted.service.resumeAll();
  expect(resumed[0]).toMatchObject({
    state: expect.stringMatching(/accepted|succeeded/),
    lastCheck: { found: true },
  });
  expect(sandbox.state.snapshot().refunds.filter((r) => r.transactionNo === p.transactionNo)).toHaveLength(1);
}, 90_000);
