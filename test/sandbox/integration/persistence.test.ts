import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { startSandbox } from '../../../electron/sandbox/index';
import { PATHS, call, paidPayment, startTestSandbox, waitFor } from './helpers';

const dir = mkdtempSync(join(tmpdir(), 'sandbox-persist-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('persistence (--data)', () => {
  it('state survives close + start with the same data file; pending refunds settle after restart', async () => {
    const dataFile = join(dir, 'state.json');
    const first = await startTestSandbox({ dataFile, refundSettleMs: 60_000 });
    const no = await paidPayment(first);
    const refund = await call(first, PATHS.refund, {
      transactionNo: no,
      refundAmount: '40.00',
      currency: 'USD',
      settleCurrency: 'USD',
      refundReference: 'RD-P',
    });
    const refundNo = String(refund.result?.refundTransactionNo);
    const counts = first.state.counts();
    await first.close();
    expect(readdirSync(dir)).toEqual(['state.json']); // no temp file left behind

    // Different seed and count: the file wins over seeding.
    const second = await startTestSandbox({ dataFile, seed: 99, transactions: 5, refundSettleMs: 20 });
    try {
      expect(second.state.counts()).toEqual(counts);
      const q = await call(second, PATHS.tranQuery, { transactionNo: no });
      expect(q.result).toMatchObject({ status: 'success', amount: '100.00' });
      expect(q.result?.refundInfo?.[0]).toMatchObject({
        refundTransactionNo: refundNo,
        refundReference: 'RD-P',
      });
      const settled = await waitFor(async () => {
        const r = await call(second, PATHS.tranQuery, { refundTransactionNo: refundNo });
        return r.result?.status === 'pending' ? undefined : r.result?.status;
      });
      expect(settled).toBe('success');
      // The remaining amount is enforced across the restart.
      expect(
        (
          await call(second, PATHS.refund, {
            transactionNo: no,
            refundAmount: '60.01',
            currency: 'USD',
            settleCurrency: 'USD',
          })
        ).ret_code,
      ).toBe('000023');
      // New ids never collide with restored ones.
      const again = await paidPayment(second);
      expect(again).not.toBe(no);
    } finally {
      await second.close();
    }
  });
  it('writes are debounced but reach the file without close (flush)', async () => {
    const dataFile = join(dir, 'flush.json');
    const sb = await startTestSandbox({ dataFile, transactions: 10 });
    try {
      const no = await paidPayment(sb);
      await sb.flush();
      const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { payments: { transactionNo: string }[] };
      expect(saved.payments.some((p) => p.transactionNo === no)).toBe(true);
      expect(readFileSync(dataFile, 'utf8')).not.toContain('4242424242424242');
    } finally {
      await sb.close();
    }
  });
  it('refuses a file that is not a sandbox state file', async () => {
    const dataFile = join(dir, 'bad.json');
    writeFileSync(dataFile, '{"hello":1}');
    await expect(startSandbox({ dataFile })).rejects.toThrow(/not a sandbox state file/);
  });
});
