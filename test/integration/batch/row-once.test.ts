import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { RunningSandbox } from '../../../electron/sandbox/index';
import { buildRefunds, freshPayment, reason, startRefundSandbox } from '../refunds/harness';

/**
 * The refund service's own guard for batch rows (issue 27): a row key already carried by a refund of
 * the payment that may have moved money is refused inside the deciding transaction — so two batches,
 * or two desks on one database, with the same row never both send it — while another row of the same
 * payment (another key) is refunded as usual.
 */

let sandbox: RunningSandbox;
beforeAll(async () => {
  sandbox = await startRefundSandbox();
});
afterAll(() => sandbox.close());

it('a batch row already refunded is refused in the transaction (nothing sent); another row of the payment is not', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'rd-row-once-'));
  const deskA = buildRefunds(sandbox, dir);
  const deskB = buildRefunds(sandbox, dir);
  try {
    const p = freshPayment(sandbox, new Set());
    const submit = (desk: typeof deskA, batchId: string, rowKey: string) =>
      desk.service.submit({
        ...reason,
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: p.currency,
        batch: { id: batchId, line: 2, rowKey },
      });
    const first = await submit(deskA, 'RB1', 'k1');
    expect(first).toMatchObject({ state: expect.stringMatching(/accepted|succeeded/) });
    expect(first.batch).toEqual({ id: 'RB1', line: 2, rowKey: 'k1' });
    // Another batch (another desk on the same database) with the same row: refused, nothing sent.
    await expect(submit(deskB, 'RB2', 'k1')).rejects.toMatchObject({
      code: 'conflict',
      details: { moneyMoved: 'no', alreadyDone: true, intentId: first.id },
    });
    const refunds = () => sandbox.state.snapshot().refunds.filter((r) => r.transactionNo === p.transactionNo);
    expect(refunds()).toHaveLength(1);
    // Another row of the same payment is its own decision.
    expect(await submit(deskB, 'RB2', 'k2')).toMatchObject({
      state: expect.stringMatching(/accepted|succeeded/),
    });
    expect(refunds()).toHaveLength(2);
    // Without a batch mark, refunds of the payment are decided as ever.
    expect(
      await deskA.service.submit({
        ...reason,
        transactionNo: p.transactionNo,
        amountMinor: 100,
        currency: p.currency,
      }),
    ).toMatchObject({ state: expect.stringMatching(/accepted|succeeded/) });
    expect(refunds()).toHaveLength(3);
  } finally {
    deskA.close();
    deskB.close();
  }
});
