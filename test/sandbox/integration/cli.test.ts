import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { toServiceDate } from '../../../shared/protocol/time';
import { PATHS, call, startTestSandbox } from './helpers';

const ROOT = resolve(__dirname, '../../..');

describe('determinism over HTTP', () => {
  it('same seed and clock → same data; another seed → different data', async () => {
    const now = () => Date.UTC(2025, 0, 20, 4, 0, 0);
    const [a, b, c] = await Promise.all([
      startTestSandbox({ seed: 5, now }),
      startTestSandbox({ seed: 5, now }),
      startTestSandbox({ seed: 6, now }),
    ]);
    try {
      const window = { startDate: toServiceDate(now() - 14 * 86_400_000), endDate: toServiceDate(now()) };
      const [la, lb, lc] = await Promise.all([a, b, c].map((s) => call(s, PATHS.transList, window)));
      expect(la!.size).toBeGreaterThan(0);
      expect(lb!.transactions).toEqual(la!.transactions);
      expect(lc!.transactions).not.toEqual(la!.transactions);
    } finally {
      await Promise.all([a.close(), b.close(), c.close()]);
    }
  });
});

describe('CLI', () => {
  it('prints the base URL, serves requests, and closes cleanly on SIGTERM (state flushed)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'sandbox-cli-'));
    const dataFile = join(dir, 'cli.json');
    const child = spawn(
      process.execPath,
      [
        '--import',
        'tsx',
        'electron/sandbox/cli.ts',
        '--port',
        '0',
        '--seed',
        '3',
        '--transactions',
        '50',
        '--data',
        dataFile,
        '--quiet',
      ],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] },
    );
    try {
      let out = '';
      const baseUrl = await new Promise<string>((res, rej) => {
        const timer = setTimeout(() => rej(new Error(`no URL printed: ${out}`)), 15_000);
        child.stdout.on('data', (d: Buffer) => {
          out += d.toString();
          const m = /Sandbox listening on (http:\/\/127\.0\.0\.1:\d+)/.exec(out);
          if (m) {
            clearTimeout(timer);
            res(m[1]!);
          }
        });
      });
      // The secret is printed on the next line; on a loaded machine it may come a moment later.
      const until = Date.now() + 10_000;
      while (!/Admin secret/.test(out) && Date.now() < until) await new Promise((r) => setTimeout(r, 20));
      expect(out).toMatch(/Admin secret \(header x-sandbox-admin\): [0-9a-f]{32}/);
      expect((await call({ baseUrl }, PATHS.tranQuery, { transactionNo: '1' })).ret_code).toBe('000021');
      const code = await new Promise<number | null>((r) => {
        child.on('exit', (c) => r(c));
        child.kill('SIGTERM');
      });
      expect(code).toBe(0);
      const { loadData } = await import('../../../electron/sandbox/persistence');
      expect((await loadData(dataFile))?.payments.length).toBe(50);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
