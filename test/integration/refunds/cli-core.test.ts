import { existsSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { CoreOptions, HostAdapters } from '../../../electron/core/compose';
import { secretKey } from '../../../electron/core/services/profiles/service';
import type { CliIo } from '../../../electron/hosts/cli/io';
import { runCli } from '../../../electron/hosts/cli/main';
import { DEMO_MERCHANT, type RunningSandbox } from '../../../electron/sandbox/index';
import { freshPayment, startRefundSandbox } from './harness';

/**
 * The CLI composes through the same `createAppCore` as the desktop app and the browser host: watched
 * here, every refund, check and export builds it with the CLI's adapters, and the answers come from it.
 */
const built: { adapters: HostAdapters; options: CoreOptions }[] = [];
vi.mock('../../../electron/core/compose', async (importActual) => {
  const actual = await importActual<typeof import('../../../electron/core/compose')>();
  return {
    ...actual,
    createAppCore: vi.fn(async (adapters: HostAdapters, options: CoreOptions = {}) => {
      built.push({ adapters, options });
      return actual.createAppCore(adapters, options);
    }),
  };
});

let sb: RunningSandbox;
const used = new Set<string>();
beforeAll(async () => {
  sb = await startRefundSandbox();
});
afterAll(() => sb.close());

const io = (): CliIo & { stdout: string[]; stderr: string[] } => {
  const stdout: string[] = [];
  const stderr: string[] = [];
  return {
    stdout,
    stderr,
    out: (l) => void stdout.push(l),
    err: (l) => void stderr.push(l),
    env: { REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token },
  };
};
const refund = (who: string[], txNo: string, dataDir: string) => [
  'refund',
  ...who,
  '--transaction-no',
  txNo,
  '--amount',
  '1.00',
  '--currency',
  'USD',
  '--reason',
  'through the core',
  '--yes',
  '--json',
  '--data-dir',
  dataDir,
];

describe('cli: one core with the app', () => {
  it('refund, check-refund and export each build the app core: host cli, no Demo, nothing in the background', async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-cli-core-'));
    const flags = [
      '--base-url',
      sb.baseUrl,
      '--merchant',
      DEMO_MERCHANT.merchantNo,
      '--store',
      DEMO_MERCHANT.storeNo,
    ];
    const p = freshPayment(sb, used);
    built.length = 0;
    const o = io();
    expect(await runCli(refund(flags, p.transactionNo, dataDir), o)).toBe(0);
    const { intentId } = JSON.parse(o.stdout.join('\n')) as { intentId: string };
    expect(built).toHaveLength(1);
    const [first] = built;
    expect(first!.adapters.host).toBe('cli');
    expect(first!.adapters.dataDir).toBe(dataDir);
    expect(first!.options).toMatchObject({ demo: false, background: false });
    const account = `cli:${DEMO_MERCHANT.merchantNo}:${DEMO_MERCHANT.storeNo}`;
    expect(first!.options.singleAccount?.profileId).toBe(account);
    // The run's account is a profile of that core, active, at the address the flags gave.
    expect(first!.adapters.settings.read()).toMatchObject({
      activeProfileId: account,
      profiles: [{ id: account, environment: 'custom', baseUrl: sb.baseUrl, ipnEnabled: false }],
    });

    expect(await runCli(['check-refund', intentId, ...flags, '--data-dir', dataDir], io())).toBe(0);
    expect(built).toHaveLength(2);
    expect(built[1]!.options.singleAccount?.profileId).toBe(account);

    const out = join(dataDir, 'refunds.csv');
    expect(await runCli(['export', 'refunds', '--data-dir', dataDir, '--out', out], io())).toBe(0);
    expect(built).toHaveLength(3);
    // No account: an export signs nothing and can reach no one.
    expect(built[2]!.options.singleAccount).toBeUndefined();
    expect(await built[2]!.adapters.secrets.has(secretKey(account))).toBe(false);
    expect(readFileSync(out, 'utf8')).toContain(p.transactionNo);
    // No Demo sandbox was started and no settings file was created for the app.
    expect(existsSync(join(dataDir, 'demo-sandbox.json'))).toBe(false);
    expect(existsSync(join(dataDir, 'settings.json'))).toBe(false);
  });

  it("--profile reads the app's settings.json and never writes it; the token signs for that profile only", async () => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-cli-core-profile-'));
    const now = new Date().toISOString();
    const profile = (id: string, name: string, baseUrl: string) => ({
      id,
      name,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      environment: 'custom',
      baseUrl,
      ipnEnabled: true,
      operatorName: 'Desk operator',
      createdAt: now,
      updatedAt: now,
    });
    const settings = `${JSON.stringify({
      version: 1,
      activeProfileId: 'P-other',
      profiles: [
        profile('P-local', 'Local gateway', sb.baseUrl),
        profile('P-other', 'Elsewhere', 'http://127.0.0.1:9'),
      ],
    })}\n`;
    writeFileSync(join(dataDir, 'settings.json'), settings);
    const before = readdirSync(dataDir);

    const p = freshPayment(sb, used);
    built.length = 0;
    const o = io();
    expect(
      await runCli(
        [...refund(['--profile', 'Local gateway'], p.transactionNo, dataDir), '--operator', 'Ana'],
        o,
      ),
    ).toBe(0);
    expect(JSON.parse(o.stdout.join('\n'))).toMatchObject({ outcome: 'accepted' });
    const [{ adapters, options }] = built as [(typeof built)[number]];
    expect(options.singleAccount?.profileId).toBe('P-local');
    // Every profile is there (the database's import needs their addresses), the named one active, none
    // listening for IPNs; the operator of this run is recorded.
    expect(adapters.settings.read()).toMatchObject({
      activeProfileId: 'P-local',
      profiles: [
        { id: 'P-other', ipnEnabled: false },
        { id: 'P-local', ipnEnabled: false, operatorName: 'Ana' },
      ],
    });
    expect(await adapters.secrets.get(secretKey('P-local'))).toBe(DEMO_MERCHANT.token);
    expect(await adapters.secrets.get(secretKey('P-other'))).toBeUndefined();
    expect(await adapters.secrets.has(secretKey('P-other'))).toBe(false);
    // The app's file is untouched, and nothing but the database (and its journal files) and the guard
    // against versions before the database was added.
    expect(readFileSync(join(dataDir, 'settings.json'), 'utf8')).toBe(settings);
    const added = readdirSync(dataDir).filter((f) => !before.includes(f));
    expect(
      added.every((f) => f.startsWith('refund-desk.db') || f === 'refund-journal.jsonl'),
      added.join(', '),
    ).toBe(true);
  });
});
