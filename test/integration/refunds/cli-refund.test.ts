import { execFile } from 'node:child_process';
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCli } from '../../../electron/hosts/cli/main';
import { openAppStorage } from '../../../electron/core/adapters/sqlite/app-storage';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox/index';
import { freshPayment, startRefundSandbox } from './harness';

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

function io(): CliIo & { stdout: string[]; stderr: string[] } {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (l) => void stdout.push(l),
    err: (l) => void stderr.push(l),
    env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
  };
}
const dataDir = mkdtempSync(join(tmpdir(), 'rd-cli-refund-'));
const args = (txNo: string, amount: string, extra: string[] = []) => [
  'refund',
  '--base-url',
  sb.baseUrl,
  '--merchant',
  DEMO_MERCHANT.merchantNo,
  '--store',
  DEMO_MERCHANT.storeNo,
  '--transaction-no',
  txNo,
  '--amount',
  amount,
  '--currency',
  'USD',
  '--reason',
  'customer asked',
  '--data-dir',
  dataDir,
  ...extra,
];
const refundsAt = (txNo: string) => sb.state.snapshot().refunds.filter((r) => r.transactionNo === txNo);

describe('cli refund', () => {
  it('refuses without --yes and sends nothing (exit 2)', async () => {
    const p = freshPayment(sb, used);
    const o = io();
    expect(await runCli(args(p.transactionNo, '1.00'), o)).toBe(2);
    expect(o.stderr.join('\n')).toMatch(/Nothing was sent/);
    expect(refundsAt(p.transactionNo)).toHaveLength(0);
  });

  it("accepted → exit 0 with the intent id and refundTransactionNo; recorded in --data-dir's database", async () => {
    const p = freshPayment(sb, used);
    const o = io();
    expect(await runCli([...args(p.transactionNo, '1.00', ['--yes', '--json'])], o)).toBe(0);
    const out = JSON.parse(o.stdout.join('\n')) as {
      intentId: string;
      outcome: string;
      refundTransactionNo: string;
      moneyMode: string;
    };
    expect(out.outcome).toBe('accepted');
    // The sandbox is on this machine: by the app's rule, no real money moved.
    expect(out.moneyMode).toBe('local');
    expect(out.refundTransactionNo).toMatch(/^\d{18}$/);
    expect(refundsAt(p.transactionNo)[0]!.refundReference).toBe(out.intentId);
    const storage = openAppStorage({ dataDir, now: Date.now, log: { info() {}, warn() {}, error() {} } });
    try {
      // The exact account it went to is on the intent: follow-ups go there and nowhere else.
      expect(storage.refunds.get(out.intentId)).toMatchObject({
        profileId: `cli:${DEMO_MERCHANT.merchantNo}:${DEMO_MERCHANT.storeNo}`,
        baseUrl: sb.baseUrl,
        merchantNo: DEMO_MERCHANT.merchantNo,
        storeNo: DEMO_MERCHANT.storeNo,
      });
      expect(storage.refunds.audit.list().some((e) => e.reasonNote === 'customer asked')).toBe(true);
    } finally {
      storage.close();
    }
  });

  it('a reason with a bidirectional override is refused before anything is sent (exit 2)', async () => {
    const p = freshPayment(sb, used);
    const o = io();
    const a = args(p.transactionNo, '1.00', ['--yes']);
    a[a.indexOf('customer asked')] = 'refund \u202Ednuf';
    expect(await runCli(a, o)).toBe(2);
    expect(o.stderr.join('\n')).toMatch(/--reason contains U\+202E/);
    expect(refundsAt(p.transactionNo)).toHaveLength(0);
  });

  it('over the remaining amount → refused, exit 4, nothing sent', async () => {
    const p = freshPayment(sb, used);
    const o = io();
    const tooMuch = ((p.amountMinor + 1) / 100).toFixed(2);
    expect(await runCli([...args(p.transactionNo, tooMuch, ['--yes'])], o)).toBe(4);
    expect(refundsAt(p.transactionNo)).toHaveLength(0);
  });

  it('an ambiguous failure → exit 6 and a warning not to refund again', async () => {
    const p = freshPayment(sb, used);
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    const o = io();
    try {
      expect(await runCli([...args(p.transactionNo, '1.00', ['--yes'])], o)).toBe(6);
    } finally {
      sb.resetFaults();
    }
    expect(o.stderr.join('\n')).toMatch(/do NOT refund again/);
    const intentId = /intentId\s+(RD[0-9A-Z]+)/.exec(o.stdout.join('\n'))![1]!;
    // check-refund asks the service and never resends: nothing exists there, so it stays unknown (6).
    const c = io();
    expect(
      await runCli(
        [
          'check-refund',
          intentId,
          '--base-url',
          sb.baseUrl,
          '--merchant',
          DEMO_MERCHANT.merchantNo,
          '--store',
          DEMO_MERCHANT.storeNo,
          '--data-dir',
          dataDir,
        ],
        c,
      ),
    ).toBe(6);
    expect(c.stdout.join('\n')).toMatch(/evidence\s+The service lists 0 refund/);
    // The unresolved intent now blocks a second CLI refund of the same payment.
    expect(await runCli([...args(p.transactionNo, '1.00', ['--yes'])], io())).toBe(4);
    expect(refundsAt(p.transactionNo)).toHaveLength(0);
  });

  it('an unreachable service → exit 5', async () => {
    const o = io();
    const a = args('297553638300708562', '1.00', ['--yes', '--timeout-ms', '500']);
    a[2] = 'http://127.0.0.1:9';
    expect(await runCli(a, o)).toBe(5);
  });

  it('runs as `npm run --silent cli -- refund …` and prints the intent id and outcome', async () => {
    const p = freshPayment(sb, used);
    const { stdout } = await promisify(execFile)(
      'npm',
      ['run', '--silent', 'cli', '--', ...args(p.transactionNo, '2.50', ['--yes'])],
      {
        cwd: resolve(import.meta.dirname, '../../..'),
        env: { ...process.env, REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
      },
    );
    expect(stdout).toMatch(/intentId\s+RD[0-9A-Z]+/);
    expect(stdout).toMatch(/outcome\s+accepted/);
    expect(stdout).not.toContain(DEMO_MERCHANT.token);
  }, 60_000);
});

describe("cli --profile: the app's named profiles", () => {
  const profileDir = mkdtempSync(join(tmpdir(), 'rd-cli-profile-'));
  const now = new Date().toISOString();
  const profile = (id: string, name: string, baseUrl: string) => ({
    id,
    name,
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    environment: 'custom',
    baseUrl,
    ipnEnabled: false,
    createdAt: now,
    updatedAt: now,
  });
  const refundWith = (who: string[], txNo: string) => [
    'refund',
    ...who,
    '--transaction-no',
    txNo,
    '--amount',
    '1.00',
    '--currency',
    'USD',
    '--reason',
    'by profile',
    '--yes',
    '--json',
    '--data-dir',
    profileDir,
  ];

  it('refunds as a saved profile (token from the environment) and records that profile on the intent', async () => {
    writeFileSync(
      join(profileDir, 'settings.json'),
      JSON.stringify({
        version: 1,
        activeProfileId: 'P-local',
        profiles: [
          profile('P-local', 'Local gateway', sb.baseUrl),
          profile('P-other', 'Elsewhere', 'http://127.0.0.1:9'),
        ],
      }),
    );
    const p = freshPayment(sb, used);
    const o = io();
    // The service fails with a 5xx: whether the refund exists is unknown to the CLI.
    sb.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
    try {
      expect(await runCli(refundWith(['--profile', 'local gateway'], p.transactionNo), o)).toBe(6);
    } finally {
      sb.resetFaults();
    }
    const out = JSON.parse(o.stdout.join('\n')) as { intentId: string };
    const storage = openAppStorage({
      dataDir: profileDir,
      now: Date.now,
      log: { info() {}, warn() {}, error() {} },
    });
    try {
      expect(storage.refunds.get(out.intentId)).toMatchObject({
        profileId: 'P-local',
        profileName: 'Local gateway',
        baseUrl: sb.baseUrl,
      });
    } finally {
      storage.close();
    }
    // Never checked against another service with the same merchant numbers: it stays unknown, and says why.
    const other = io();
    expect(
      await runCli(['check-refund', out.intentId, '--profile', 'Elsewhere', '--data-dir', profileDir], other),
    ).toBe(6);
    expect(other.stdout.join('\n')).toMatch(/evidence\s+Cannot be checked: .*the refund went to merchant/);
    // The same account, given as flags, is asked (and has no such refund).
    const same = io();
    const flags = [
      '--base-url',
      sb.baseUrl,
      '--merchant',
      DEMO_MERCHANT.merchantNo,
      '--store',
      DEMO_MERCHANT.storeNo,
    ];
    expect(await runCli(['check-refund', out.intentId, ...flags, '--data-dir', profileDir], same)).toBe(6);
    expect(same.stdout.join('\n')).toMatch(/evidence\s+The service lists 0 refund/);
  });

  it('unknown profile names, Demo and mixing --profile with flags are usage errors (exit 2)', async () => {
    const o = io();
    expect(await runCli(refundWith(['--profile', 'Nope'], '297553638300708562'), o)).toBe(2);
    expect(o.stderr.join('\n')).toMatch(/No profile called “Nope”/);
    expect(
      await runCli(refundWith(['--profile', 'Elsewhere', '--merchant', '1'], '297553638300708562'), io()),
    ).toBe(2);
  });
});

describe('cli refund and the profile’s refund limits', () => {
  // A profile with a single-refund limit of 1.00 USD and a daily limit of 3.00 USD, at the sandbox.
  const limitDir = mkdtempSync(join(tmpdir(), 'rd-cli-limits-'));
  const refund = (txNo: string, amount: string, extra: string[] = []) => [
    'refund',
    '--profile',
    'Limited',
    '--transaction-no',
    txNo,
    '--amount',
    amount,
    '--currency',
    'USD',
    '--reason',
    'scripted',
    '--yes',
    '--json',
    '--data-dir',
    limitDir,
    ...extra,
  ];

  it('--yes alone never passes a limit: refused before anything is sent, told to add --over-limit (exit 2); with --over-limit it is sent', async () => {
    const now = new Date().toISOString();
    writeFileSync(
      join(limitDir, 'settings.json'),
      JSON.stringify({
        version: 1,
        activeProfileId: 'P-limits',
        profiles: [
          {
            id: 'P-limits',
            name: 'Limited',
            merchantNo: DEMO_MERCHANT.merchantNo,
            storeNo: DEMO_MERCHANT.storeNo,
            environment: 'custom',
            baseUrl: sb.baseUrl,
            ipnEnabled: false,
            guardrails: { limits: [{ currency: 'USD', maxSingleMinor: 100, dailyTotalMinor: 300 }] },
            createdAt: now,
            updatedAt: now,
          },
        ],
      }),
    );
    const p = freshPayment(sb, used);

    // Above the single-refund limit.
    const over = io();
    expect(await runCli(refund(p.transactionNo, '2.00'), over)).toBe(2);
    expect(JSON.parse(over.stdout.join('\n'))).toMatchObject({ outcome: 'refused', code: 'invalid_input' });
    expect(over.stdout.join('\n')).toContain('single-refund limit of 1.00 USD');
    expect(over.stderr.join('\n')).toMatch(/Nothing was sent.*--over-limit/);
    expect(refundsAt(p.transactionNo)).toHaveLength(0);

    // Within the limits, --yes is all it takes.
    expect(await runCli(refund(p.transactionNo, '1.00'), io())).toBe(0);
    expect(refundsAt(p.transactionNo)).toHaveLength(1);

    // The script says so: the refund beyond the limit is sent.
    const confirmed = io();
    expect(await runCli(refund(p.transactionNo, '2.00', ['--over-limit']), confirmed)).toBe(0);
    expect(JSON.parse(confirmed.stdout.join('\n'))).toMatchObject({ outcome: 'accepted' });
    expect(
      refundsAt(p.transactionNo)
        .map((r) => r.refundAmountMinor)
        .sort(),
    ).toEqual([100, 200]);

    // The daily total (3.00 already today) is a limit too.
    const q = freshPayment(sb, used);
    const daily = io();
    expect(await runCli(refund(q.transactionNo, '0.50'), daily)).toBe(2);
    expect(daily.stdout.join('\n')).toContain('daily limit of 3.00 USD');
    expect(refundsAt(q.transactionNo)).toHaveLength(0);
  });
});

describe('cli export', () => {
  it('writes the audit log and the refunds journal as CSV through the shared writer', async () => {
    const p = freshPayment(sb, used);
    expect(await runCli([...args(p.transactionNo, '3.00', ['--yes'])], io())).toBe(0);
    const auditOut = join(dataDir, 'audit.csv');
    const refundsOut = join(dataDir, 'refunds.csv');
    expect(await runCli(['export', 'audit', '--data-dir', dataDir, '--out', auditOut], io())).toBe(0);
    expect(await runCli(['export', 'refunds', '--data-dir', dataDir, '--out', refundsOut], io())).toBe(0);
    const audit = readFileSync(auditOut, 'utf8');
    expect(audit.startsWith('\uFEFFat,timezone,operator')).toBe(true);
    expect(audit).toContain(`"=""${p.transactionNo}"""`);
    const refunds = readFileSync(refundsOut, 'utf8');
    expect(refunds).toMatch(/,accepted,/);
    expect(refunds).toContain('3.00,USD');
  });

  it('bad usage exits 2', async () => {
    expect(await runCli(['export', 'everything', '--out', '/tmp/x.csv'], io())).toBe(2);
    expect(await runCli(['export', 'audit'], io())).toBe(2);
  });
});
