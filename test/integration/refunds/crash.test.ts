import { spawn } from 'node:child_process';
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/main/sandbox/index';
import { buildRefunds, freshPayment, startRefundSandbox } from './harness';

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startRefundSandbox();
});
afterAll(() => sandbox.close());

async function waitFor(check: () => boolean, ms = 45_000): Promise<void> {
  const until = Date.now() + ms;
  while (!check()) {
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
  const journal = join(dir, 'refund-journal.jsonl');
  try {
    await waitFor(() => {
      try {
        return readFileSync(journal, 'utf8').includes('"type":"sent"');
      } catch {
        return false;
      }
    });
    // `sent` is fsynced just before the request is written to the socket: give the child a moment to
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
  const [pending] = restarted.service.list();
  expect(pending!.state).toBe('sent');
  const resumed = await restarted.service.resumeAll();
  expect(resumed[0]).toMatchObject({
    state: expect.stringMatching(/accepted|succeeded/),
    lastCheck: { found: true },
  });
  expect(sandbox.state.snapshot().refunds.filter((r) => r.transactionNo === p.transactionNo)).toHaveLength(1);
}, 90_000);

it('a damaged journal line is reported and skipped; the rest of the journal survives', async () => {
  const { appendFileSync } = await import('node:fs');
  const dir = mkdtempSync(join(tmpdir(), 'rd-damage-'));
  const first = buildRefunds(sandbox, dir);
  const p = freshPayment(sandbox, new Set());
  await first.service.submit({
    transactionNo: p.transactionNo,
    amountMinor: 100,
    currency: p.currency,
    reasonCode: 'x',
    reasonNote: '',
    confirmation: {},
  });
  first.close();
  const file = join(dir, 'refund-journal.jsonl');
  appendFileSync(file, '{"c":"0000000000000000","d":{"type":"sent"}}\ngarbage line\n{"c":"abc');
  const second = buildRefunds(sandbox, dir);
  expect(second.service.list()).toHaveLength(1);
  expect(second.service.journalProblems().map((x) => x.reason)).toEqual([
    'checksum mismatch',
    'not a journal line',
    'not a journal line',
  ]);
  expect(second.log.lines.filter((l) => l.event === 'journal.damaged_line')).toHaveLength(3);
});
