import { mkdtempSync, existsSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { DEMO_MERCHANT } from '../../../electron/sandbox/index';
import * as seedModule from '../../../electron/sandbox/seed';
import { PATHS, call, startTestSandbox } from './helpers';

// The real generator, counted: the sandbox is to call it once, on the data's first use.
vi.mock('../../../electron/sandbox/seed', async (original) => {
  const real = await original<typeof seedModule>();
  return { ...real, generateSeed: vi.fn(real.generateSeed) };
});
const generated = vi.mocked(seedModule.generateSeed);

const dir = mkdtempSync(join(tmpdir(), 'sandbox-lazy-seed-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

describe('a fresh sandbox seeds its data on first use', () => {
  it('listens before generating; the first request already sees all the seeded data, generated once, as of the start', async () => {
    generated.mockClear();
    const startedAt = Date.now();
    const dataFile = join(dir, 'fresh.json');
    const sb = await startTestSandbox({ dataFile, transactions: 200 });
    try {
      expect(generated).not.toHaveBeenCalled();
      expect(existsSync(dataFile)).toBe(false);
      // What the same seed gives as of the start: the request that comes first must find all of it.
      const expected = seedModule.generateSeed(7, 200, startedAt);
      generated.mockClear();
      const last = expected.payments.filter((p) => p.merchantNo === DEMO_MERCHANT.merchantNo).at(-1)!;
      const q = await call(sb, PATHS.tranQuery, { transactionNo: last.transactionNo });
      expect(q.ret_code).toBe('000100');
      expect(q.result).toMatchObject({ transactionNo: last.transactionNo, reference: last.reference });
      expect(generated).toHaveBeenCalledTimes(1);
      expect(sb.state.counts()).toMatchObject({
        payments: expected.payments.length,
        refunds: expected.refunds.length,
      });
      await call(sb, PATHS.tranQuery, { transactionNo: expected.payments[0]!.transactionNo });
      expect(generated).toHaveBeenCalledTimes(1);
      await sb.flush();
      const saved = JSON.parse(readFileSync(dataFile, 'utf8')) as { payments: unknown[] };
      expect(saved.payments).toHaveLength(expected.payments.length);
    } finally {
      await sb.close();
    }
  });

  it('an accessor read before any request gets the complete data too', async () => {
    generated.mockClear();
    const sb = await startTestSandbox({ transactions: 50 });
    try {
      expect(generated).not.toHaveBeenCalled();
      expect(sb.state.counts().payments).toBe(50);
      expect(generated).toHaveBeenCalledTimes(1);
    } finally {
      await sb.close();
    }
  });
});
