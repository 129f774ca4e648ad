import { type ChildProcess, execFile, spawn } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { promisify } from 'node:util';
import { expect, type Page, test } from '@playwright/test';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { DESK_SCHEMA_VERSION } from '../../electron/core/adapters/postgres/migrations';
import { addPerson } from '../../electron/core/adapters/postgres/team-admin';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../electron/sandbox';
import { startPostgres, type TestCluster } from '../support/postgres';

/**
 * Team mode in real Chromium: the browser host started as a person starts it, with --database-url (a
 * real throw-away PostgreSQL), the built renderer, and a payment service (the sandbox over real HTTP).
 * - Settings → Team database tests a login and saves the settings; the password never comes back.
 * - A refund made by another desk (the CLI, another data directory, another login) appears on this
 *   page by itself: PostgreSQL NOTIFY → the host's change feed → refunds.updated → the list re-reads.
 * - The team database stopped: a banner says since when and Refund… is disabled with the reason; the
 *   server back, both clear by themselves (no reload).
 */
const ROOT = resolve(import.meta.dirname, '../..');
const run = promisify(execFile);
const PW = { alice: 'Al1ce-e2e-team-pw', bob: 'B0b-e2e-team-pw' } as const;

let cluster: TestCluster;
let db: string;
let sb: RunningSandbox;
let host: ChildProcess | undefined;
let hostUrl: string;
let hostData: string;
const dirs: string[] = [];
const used = new Set<string>();
const dir = () => {
  const d = mkdtempSync(join(tmpdir(), 'rd-e2e-team-'));
  dirs.push(d);
  return d;
};
const url = (who: keyof typeof PW) => cluster.loginUrl(who, PW[who], db);

/** A paid payment of the sandbox's merchant nobody refunded yet. */
function freshPayment() {
  const p = sb.state
    .snapshot()
    .payments.find(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.status === 'success' &&
        x.refunds.length === 0 &&
        x.currency === 'USD' &&
        !used.has(x.transactionNo) &&
        x.amountMinor >= 1000,
    );
  if (!p) throw new Error('no fresh payment in the seed');
  used.add(p.transactionNo);
  return p;
}

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(180_000);
  cluster = await startPostgres();
  db = `e2e_team_${process.pid}`;
  const owner = await cluster.createDatabase(db);
  await migratePostgres({ connectionString: owner });
  for (const [login, pw] of Object.entries(PW)) {
    await cluster.createLogin(login, pw);
    await addPerson({ connectionString: owner }, { login, role: 'maker', limits: [] });
  }
  sb = await startSandbox({ port: 0, seed: 20_260_101, transactions: 300 });
  hostData = dir();
  // The browser host as a person starts it (electron/hosts/web/cli.ts), Bob's desk.
  const proc = spawn(
    process.execPath,
    ['--import', 'tsx', 'electron/hosts/web/cli.ts', '--port', '0', '--data-dir', hostData],
    {
      cwd: ROOT,
      stdio: ['ignore', 'pipe', 'pipe'],
      env: { ...process.env, REFUND_DESK_DATABASE_URL: url('bob') },
    },
  );
  host = proc;
  let stderr = '';
  proc.stderr!.on('data', (d: Buffer) => (stderr += d.toString()));
  const started = await new Promise<string>((done, fail) => {
    let out = '';
    proc.stdout!.on('data', (d: Buffer) => {
      out += d.toString();
      if (/#secret=\S+\n[\s\S]*\n/.test(out)) done(out);
    });
    proc.on('exit', (code) => fail(new Error(`the browser host exited with ${code}: ${stderr}`)));
  });
  expect(started).toMatch(/team database: postgres:\/\/bob@127\.0\.0\.1/);
  expect(started).not.toContain(PW.bob);
  hostUrl = /(http:\/\/127\.0\.0\.1:\d+\/#secret=\S+)/.exec(started)![1]!;
});

test.afterAll(async () => {
  if (host && host.exitCode === null) {
    const exited = new Promise((r) => host!.once('exit', r));
    host.kill('SIGTERM');
    await exited;
  }
  await sb?.close();
  cluster?.stop();
  for (const d of dirs) rmSync(d, { recursive: true, force: true });
});

type BridgeFn = (input?: unknown) => Promise<{ ok: boolean; value?: unknown; error?: { message: string } }>;

/** This desk's profile for the sandbox's merchant (the account the other desk refunds in), active. */
async function useSandboxProfile(page: Page): Promise<void> {
  await page.evaluate(
    async ({ baseUrl, merchantNo, storeNo, token }) => {
      const b = (window as unknown as { refundDesk: Record<string, BridgeFn> }).refundDesk;
      const list = (await b['profiles.list']!()).value as { profiles: { id: string; name: string }[] };
      let id = list.profiles.find((p) => p.name === 'Team shop')?.id;
      if (!id) {
        const saved = await b['profiles.save']!({
          name: 'Team shop',
          merchantNo,
          storeNo,
          environment: 'custom',
          baseUrl,
          loopbackMoneyMode: 'local',
          ipnEnabled: false,
        });
        if (!saved.ok) throw new Error(saved.error!.message);
        id = (saved.value as { id: string }).id;
        const t = await b['profiles.setToken']!({ id, token });
        if (!t.ok) throw new Error(t.error!.message);
      }
      const a = await b['profiles.activate']!({ id });
      if (!a.ok) throw new Error(a.error!.message);
    },
    {
      baseUrl: sb.baseUrl,
      merchantNo: DEMO_MERCHANT.merchantNo,
      storeNo: DEMO_MERCHANT.storeNo,
      token: DEMO_MERCHANT.token,
    },
  );
  await page.reload();
}

test('Settings → Team database: who am I in the header, Test team connection answers for the login typed, the password never comes back', async ({
  page,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(hostUrl);
  await expect(page.getByTestId('team-identity')).toHaveText(/^Team bob at browser@/);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const team = page.getByTestId('team-settings');
  await expect(team.getByTestId('team-current')).toContainText(
    `This desk works with the team database postgres://bob@127.0.0.1:${cluster.port}/${db} as bob`,
  );
  await expect(team.getByTestId('team-password-state')).toContainText('Password: not set');

  await team.getByLabel('Address').fill(`postgres://127.0.0.1:${cluster.port}/${db}`);
  await team.getByLabel('Login').fill('alice');
  await team.getByLabel('Password').fill('not-her-password');
  await team.getByRole('button', { name: 'Test team connection' }).click();
  await expect(team.getByTestId('team-test-error')).toContainText(
    'refused this login: check the login and password',
  );
  await team.getByLabel('Password').fill(PW.alice);
  await team.getByRole('button', { name: 'Test team connection' }).click();
  const who = team.getByTestId('team-whoami');
  await expect(who).toContainText('Connected as alice');
  await expect(who.getByTestId('team-groups')).toHaveText('maker (refunds)');
  await expect(who.getByTestId('team-limits')).toHaveText('nothing');
  await expect(who.getByTestId('team-schema')).toHaveText(
    `database ${DESK_SCHEMA_VERSION}, this Refund Desk ${DESK_SCHEMA_VERSION}`,
  );

  await team.getByRole('button', { name: 'Save team settings' }).click();
  await expect(team.getByTestId('team-password-state')).toContainText('Password: set');
  await expect(team.getByTestId('team-restart')).toContainText(
    'This host takes its team database from --database-url only',
  );
  await expect(team.getByLabel('Password')).toHaveValue('');
  await expect(team.getByLabel('Address')).toHaveValue(`postgres://127.0.0.1:${cluster.port}/${db}`);
  expect(await page.content()).not.toContain(PW.alice);
  const file = readFileSync(join(hostData, 'settings.json'), 'utf8');
  expect(JSON.parse(file)).toMatchObject({
    teamDatabase: { address: `postgres://127.0.0.1:${cluster.port}/${db}`, login: 'alice' },
  });
  expect(file).not.toContain(PW.alice);
  await team.scrollIntoViewIfNeeded();
  await page.screenshot({ path: '/tmp/team-settings.png', fullPage: true });
  await page.emulateMedia({ colorScheme: 'dark' });
  await team.screenshot({ path: '/tmp/team-settings-dark.png' });
  expect(errors).toEqual([]);
});

test('a refund made by another desk (the CLI, another data directory, another login) appears on this page by itself', async ({
  page,
}) => {
  await page.goto(hostUrl);
  await useSandboxProfile(page);
  // The payment is in this desk's cache (looked up here), with no refund yet.
  const p = freshPayment();
  const search = page.getByTestId('tx-search');
  await search.fill(p.transactionNo);
  await search.press('Enter');
  const detail = page.getByTestId('tx-detail');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(p.transactionNo);
  await expect(detail.getByRole('button', { name: 'Refund…' })).toBeEnabled();
  let navigations = 0;
  page.on('framenavigated', () => (navigations += 1));

  const cli = await run(
    process.execPath,
    [
      '--import',
      'tsx',
      'electron/hosts/cli/index.ts',
      'refund',
      '--base-url',
      sb.baseUrl,
      '--merchant',
      DEMO_MERCHANT.merchantNo,
      '--store',
      DEMO_MERCHANT.storeNo,
      '--transaction-no',
      p.transactionNo,
      '--amount',
      '1.00',
      '--currency',
      'USD',
      '--reason',
      'asked on the phone',
      '--yes',
      '--json',
      '--data-dir',
      dir(),
      '--database-url',
      url('alice'),
    ],
    { cwd: ROOT, env: { ...process.env, REFUND_DESK_API_TOKEN: DEMO_MERCHANT.token } },
  );
  const done = Date.now();
  const out = JSON.parse(cli.stdout) as { outcome: string; refundTransactionNo: string };
  expect(out).toMatchObject({ outcome: 'accepted' });
  // The cached payment was fetched again by itself: its refund history has the other desk's refund.
  await expect(detail.getByTestId('detail-refunds')).toContainText(out.refundTransactionNo);
  // How long it took to reach this screen (a figure for the closing note, not asserted).
  test.info().annotations.push({ type: 'cross-desk ms', description: String(Date.now() - done) });
  // And the Refunds area lists it (its list re-read on the pushed change).
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  const view = page.getByRole('region', { name: 'Refunds', exact: true });
  await expect(view.getByRole('row').filter({ hasText: p.transactionNo })).toContainText('1.00 USD');
  expect(navigations).toBe(0);
});

test('the team database stopped: a banner with since when, Refund… disabled with the reason; back, both clear by themselves', async ({
  page,
}) => {
  await page.goto(hostUrl);
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  const view = page.getByRole('region', { name: 'Refunds', exact: true });
  await view.getByLabel('Refund a payment by transaction number').fill(freshPayment().transactionNo);
  const refund = view.getByRole('button', { name: 'Refund…' });
  await expect(refund).toBeEnabled();
  await expect(page.getByTestId('team-banner')).toHaveCount(0);
  let navigations = 0;
  page.on('framenavigated', () => (navigations += 1));

  cluster.pause();
  try {
    const banner = page.getByTestId('team-banner');
    await expect(banner).toBeVisible({ timeout: 30_000 });
    await expect(banner).toContainText(
      /Read-only — the team database cannot be reached since .+\. Refunds, approvals and rejections are refused; browse, search and export of the cached data still work/,
    );
    await expect(refund).toBeDisabled();
    await expect(refund).toHaveAttribute('title', /Refunds are refused while this desk is read-only/);
    await page.screenshot({ path: '/tmp/team-banner.png' });
  } finally {
    cluster.resume();
  }
  await expect(page.getByTestId('team-banner')).toHaveCount(0, { timeout: 30_000 });
  await expect(refund).toBeEnabled();
  expect(navigations).toBe(0);
});
