import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { addPerson } from '../../electron/core/adapters/postgres/team-admin';
import type { AppCore } from '../../electron/core/compose';
import { createNodeCore } from '../../electron/hosts/node-core';
import { type BrowserHost, startBrowserHost } from '../../electron/hosts/web/server';
import { DEMO_MERCHANT } from '../../electron/sandbox';
import type { Output } from '../../shared/ipc/contract';
import type { InvokeChannel } from '../../shared/ipc/channels';
import { startPostgres, type TestCluster } from '../support/postgres';
import { expect, test } from './fixtures';
import { look } from './looks';

/**
 * Month-end close on the controller's desk (issue 28 item 7): two browser hosts on the team database
 * (each core opened as `--database-url` opens it, with its own data folder and Demo sandbox), one real
 * throw-away PostgreSQL. The clerk's run and her work on desk 1 go through IPC (the clerk's screen is
 * test/e2e/close.spec.ts); the controller's screen on desk 2 lists the run awaiting sign-off, opens it
 * from the published copy (figures, her notes, the history), and signs; the hash his screen shows is
 * the one desk 1 computes.
 */
const PW = { alice: 'alice-e2e-close', bob: 'bob-e2e-close' } as const;
let cluster: TestCluster;
let db: string;
const opened: Array<{ core: AppCore; host?: BrowserHost; dir: string }> = [];

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPostgres();
  db = `e2e_close_${process.pid}`;
  const owner = { connectionString: await cluster.createDatabase(db) };
  await migratePostgres(owner);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(owner, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(owner, { login: 'bob', role: 'checker', limits: [] });
});
test.afterAll(async () => {
  for (const o of opened) {
    await o.host?.close();
    await o.core.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
  cluster?.stop();
});

async function desk(who: keyof typeof PW, deskId: string, withHost: boolean) {
  const dir = mkdtempSync(join(tmpdir(), `rd-e2e-close-${who}-`));
  const core = await createNodeCore({
    host: 'browser',
    dataDir: dir,
    demo: { transactions: 60 },
    team: { url: cluster.loginUrl(who, PW[who], db), deskId },
  });
  const host = withHost
    ? await startBrowserHost({ core, rendererDir: resolve(import.meta.dirname, '../../out/renderer') })
    : undefined;
  opened.push({ core, dir, ...(host ? { host } : {}) });
  const profileId = core.profiles.profiles.active()!.id;
  const call = async <C extends InvokeChannel>(channel: C, input: unknown): Promise<Output<C>> => {
    const r = await core.dispatch(channel, input);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value as Output<C>;
  };
  return { core, host, profileId, call };
}

test('the controller opens a run another desk ran, reads the clerk’s notes and signs it', async ({
  page,
}) => {
  test.setTimeout(120_000);
  const clerk = await desk('alice', 'desk-clerk', false);
  const controller = await desk('bob', 'desk-controller', true);

  // The clerk's run on desk 1: one row matches, one has another amount, one the service does not know.
  const paid = clerk.core
    .demoSandbox()!
    .state.snapshot()
    .payments.filter(
      (p) =>
        p.status === 'success' &&
        p.currency === 'USD' &&
        p.refunds.length === 0 &&
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo,
    );
  const rows = [
    {
      line: 2,
      transactionNo: paid[0]!.transactionNo,
      amountMinor: paid[0]!.amountMinor,
      currency: 'USD',
      status: 'paid',
    },
    {
      line: 3,
      transactionNo: paid[1]!.transactionNo,
      amountMinor: paid[1]!.amountMinor + 150,
      currency: 'USD',
      status: 'paid',
    },
    { line: 4, transactionNo: '299999999999999999', amountMinor: 900, currency: 'USD', status: 'paid' },
  ];
  const p = clerk.profileId;
  const { runId } = await clerk.call('reconciliation.create', {
    profileId: p,
    label: 'june-ledger.csv',
    file: {
      name: 'june-ledger.csv',
      encoding: 'utf-8',
      delimiter: ',',
      dataRows: rows.length,
      decimal: '.',
      decimalSource: 'detected',
      dateOrder: 'ymd',
      dateOrderSource: 'default',
    },
    mapping: { transactionNo: 'No', amount: 'Amount', currency: 'Currency' },
    options: { days: 'service', timeZone: 'UTC', dateToleranceDays: 1, refundLookbackDays: 0 },
  });
  await clerk.call('reconciliation.addInput', { profileId: p, runId, rows });
  await clerk.call('reconciliation.start', { profileId: p, runId });
  await expect
    .poll(async () => (await clerk.call('reconciliation.get', { profileId: p, runId })).progress.phase)
    .toBe('done');
  const worked = await clerk.call('reconciliation.exceptions', { profileId: p, runId });
  const fee = worked.exceptions.find((e) => e.item.outcome === 'amount_mismatch')!;
  await clerk.call('reconciliation.updateException', {
    profileId: p,
    runId,
    exceptionId: fee.id,
    version: fee.version,
    state: 'explained',
    owner: 'Alice',
    note: 'Shipping fee of 1.50 booked on its own line.',
  });
  const theirs = await clerk.call('reconciliation.report', { profileId: p, runId });
  await expect
    .poll(
      async () =>
        (await controller.call('reconciliation.awaitingSignOff', { profileId: controller.profileId })).runs
          .length,
    )
    .toBe(1);

  // The controller's screen.
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(controller.host!.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  const awaiting = page.getByTestId('recon-awaiting');
  await expect(awaiting).toContainText('june-ledger.csv');
  await expect(awaiting).toContainText('alice at desk-clerk');
  await look(page, 'team-close-awaiting', { shots: true });
  await awaiting.getByRole('button', { name: 'june-ledger.csv' }).click();

  // Opened like a local run: the clerk's figures, her note, the history with her login and desk.
  await expect(page.getByTestId('recon-published')).toContainText('Run by alice at desk-clerk');
  for (const o of ['matched', 'amount_mismatch', 'missing_at_service'] as const)
    await expect(page.getByTestId('recon-counts').locator(`li[data-outcome="${o}"] strong`)).toHaveText(
      String(theirs.summary.counts[o]),
    );
  await expect(page.getByTestId('recon-row-total')).toContainText(`${theirs.summary.rows} ledger rows`);
  await expect(page.getByRole('button', { name: 'Export report CSV' })).toHaveCount(0);
  const worklist = page.getByTestId('recon-worklist');
  await expect(worklist.locator('tbody tr')).toHaveCount(2);
  await expect(worklist.locator('tbody tr[data-state="explained"]')).toHaveCount(1);
  await expect(page.getByTestId('recon-history')).toContainText('login alice at desk-clerk');
  await expect(page.getByTestId('recon-history')).toContainText('Shipping fee of 1.50');

  // He signs, with the open one listed.
  const sign = page.getByTestId('recon-signoff');
  await sign.getByLabel(/Sign with these \d+ exceptions? listed as open/).check();
  await sign.getByLabel('Sign-off comment').fill('June closed; the unknown payment is carried to July.');
  await sign.getByRole('button', { name: 'Sign the run' }).click();
  await expect(sign).toContainText('Signed by');
  await expect(page.getByTestId('recon-hash-state')).toContainText('as it was signed');
  await expect(page.getByTestId('recon-history')).toContainText('login bob at desk-controller');
  const hash = (await page.getByTestId('recon-hash').textContent())!.trim();
  await page.evaluate(() => document.getElementById('recon-summary')?.scrollIntoView({ block: 'start' }));
  await look(page, 'team-close-signed', { shots: true });

  await page.evaluate(() => document.getElementById('recon-signoff')?.scrollIntoView({ block: 'start' }));
  await look(page, 'team-close-history', { axe: false });

  // The clerk's desk computes the same hash from its own record, and the run is no longer awaited.
  const there = await clerk.call('reconciliation.exceptions', { profileId: p, runId });
  expect(there.contentHash).toBe(hash);
  expect(there.intact).toBe(true);
  await page.reload();
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  await expect(page.getByRole('heading', { name: /Earlier runs/ })).toBeVisible();
  await expect(page.getByTestId('recon-awaiting')).toHaveCount(0);
  expect(errors).toEqual([]);
});
