import { execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/hosts/cli/main';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../../electron/sandbox';
import { refundablePayment } from './helpers';

const TOKEN = DEMO_MERCHANT.token;
const md5 = (s: string) => createHash('md5').update(s).digest('hex');

function io(
  env: Record<string, string | undefined> = { REFUND_DESK_API_TOKEN: TOKEN },
): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return { stdout, stderr, out: (l) => void stdout.push(l), err: (l) => void stderr.push(l), env };
}

let sb: RunningSandbox;
beforeAll(async () => {
  sb = await startSandbox({ seed: 5, transactions: 40 });
});
afterAll(() => sb.close());

const base = () => [
  'query',
  '--base-url',
  sb.baseUrl,
  '--merchant',
  DEMO_MERCHANT.merchantNo,
  '--store',
  DEMO_MERCHANT.storeNo,
];

describe('cli sign', () => {
  it('prints the published vector’s verifySign on the last line and no secret anywhere', async () => {
    const o = io();
    const code = await runCli(
      ['sign', 'merchantNo=200043', 'storeNo=300014', 'transactionNo=297553638300708562', 'reference='],
      o,
    );
    expect(code).toBe(0);
    expect(o.stdout.at(-1)).toBe('0df745088d7202a6d186596acdc82c6a');
    const all = [...o.stdout, ...o.stderr].join('\n');
    expect(all).not.toContain(TOKEN);
    expect(all).not.toContain(md5(TOKEN));
    expect(all).not.toContain('297553638300708562&');
  });

  it('bad usage exits 2', async () => {
    expect(await runCli(['sign'], io())).toBe(2);
    expect(await runCli(['sign', 'novalue'], io())).toBe(2);
    expect(await runCli(['sign', 'a=1'], io({}))).toBe(2);
    expect(await runCli(['nope'], io())).toBe(2);
  });

  it('works through npm run --silent cli (last line)', async () => {
    const { stdout } = await promisify(execFile)(
      'npm',
      [
        'run',
        '--silent',
        'cli',
        '--',
        'sign',
        'merchantNo=200043',
        'storeNo=300014',
        'transactionNo=297553638300708562',
      ],
      {
        cwd: resolve(import.meta.dirname, '../../..'),
        env: { ...process.env, REFUND_DESK_API_TOKEN: TOKEN },
      },
    );
    expect(stdout.trim().split('\n').at(-1)).toBe('0df745088d7202a6d186596acdc82c6a');
  });
});

describe('cli query', () => {
  it('found → 0, human and --json', async () => {
    const p = refundablePayment(sb);
    const human = io();
    expect(await runCli([...base(), '--transaction-no', p.transactionNo], human)).toBe(0);
    expect(human.stdout.join('\n')).toContain(p.transactionNo);
    const json = io();
    expect(await runCli([...base(), '--reference', p.reference, '--json'], json)).toBe(0);
    expect(JSON.parse(json.stdout.join('\n'))).toMatchObject({
      transactionNo: p.transactionNo,
      amountMinor: p.amountMinor,
    });
  });

  it('not found → 3, rejected → 4, network → 5, bad usage → 2', async () => {
    expect(await runCli([...base(), '--refund-transaction-no', '100000000000000009'], io())).toBe(3);
    expect(
      await runCli([...base(), '--transaction-no', '1'], io({ REFUND_DESK_API_TOKEN: 'wrong-token-value' })),
    ).toBe(4);
    expect(
      await runCli(
        [
          'query',
          '--base-url',
          'http://127.0.0.1:1',
          '--merchant',
          '1',
          '--store',
          '2',
          '--reference',
          'x',
          '--timeout-ms',
          '200',
        ],
        io(),
      ),
    ).toBe(5);
    expect(await runCli([...base(), '--transaction-no', '1', '--reference', 'x'], io())).toBe(2);
    expect(
      await runCli(
        ['query', '--base-url', 'http://example.com', '--merchant', '1', '--store', '2', '--reference', 'x'],
        io(),
      ),
    ).toBe(2);
  });
});
