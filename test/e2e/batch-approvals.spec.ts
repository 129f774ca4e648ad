import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Locator, Page } from '@playwright/test';
import pg from 'pg';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { addPerson, setPolicy } from '../../electron/core/adapters/postgres/team-admin';
import type { AppCore } from '../../electron/core/compose';
import { createNodeCore } from '../../electron/hosts/node-core';
import { type BrowserHost, startBrowserHost } from '../../electron/hosts/web/server';
import { DEMO_MERCHANT, type PaymentRecord, type RunningSandbox, startSandbox } from '../../electron/sandbox';
import type { BatchStatus } from '../../shared/batch/execution';
import { formatMinor } from '../../shared/domain/money';
import { startPostgres, type TestCluster } from '../support/postgres';
import { expect, test } from './fixtures';
import { look } from './looks';

/**
 * Refund batches on Refunds → Approvals (issue 27, four-eyes for a batch as a whole): two browser hosts
 * on one real throw-away PostgreSQL — alice (maker) at desk-maker, bob (checker up to 1,000.00 USD) at
 * desk-checker — refunding the Demo merchant's account at ONE sandbox over real HTTP, whose own request
 * log says what was sent. Policy: above 5.00 USD (a refund, or a batch's total) waits for approval.
 * Bob approves one batch and rejects another through his screen; alice sees only "Cancel" on hers and
 * finds the rejected batch's report again under Refunds → Batch → Past batches.
 */
const PW = { alice: 'Al1ce-e2e-batches', bob: 'B0b-e2e-batches' } as const;
let cluster: TestCluster;
let db: string;
let owner: string;
let sandbox: RunningSandbox;
const sandboxLog: string[] = [];
const opened: Array<{ core: AppCore; host: BrowserHost; dir: string }> = [];
const contexts: BrowserContext[] = [];
const used = new Set<string>();

const refundPosts = () => sandboxLog.filter((l) => l.startsWith('POST /app-data-search/v3/refund ')).length;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPostgres();
  db = `e2e_batch_approvals_${process.pid}`;
  owner = await cluster.createDatabase(db);
  const o = { connectionString: owner };
  await migratePostgres(o);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(o, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(o, { login: 'bob', role: 'checker', limits: [{ currency: 'USD', upToMinor: 100_000 }] });
  await setPolicy(o, {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    currency: 'USD',
    approvalAboveMinor: 500,
    expireHours: 24,
  });
  sandbox = await startSandbox({
    seed: 2728,
    transactions: 80,
    refundSettleMs: 50,
    ipnSchedule: [],
    log: (line) => void sandboxLog.push(line),
  });
});

test.afterAll(async () => {
  for (const c of contexts) await c.close();
  for (const o of opened) {
    await o.host.close();
    await o.core.close();
    rmSync(o.dir, { recursive: true, force: true });
  }
  await sandbox?.close();
  cluster?.stop();
});

async function desk(who: keyof typeof PW, deskId: string) {
  const dir = mkdtempSync(join(tmpdir(), `rd-e2e-batch-approvals-${who}-`));
  const core = await createNodeCore({
    host: 'browser',
    dataDir: dir,
    demo: false,
    team: { url: cluster.loginUrl(who, PW[who], db), deskId },
  });
  const host = await startBrowserHost({
    core,
    rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
  });
  opened.push({ core, host, dir });
  const call = async <T>(channel: string, input: unknown): Promise<T> => {
    const r = await core.dispatch(channel, input);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value as T;
  };
  const profile = await call<{ id: string }>('profiles.save', {
    name: 'Demo merchant',
    environment: 'custom',
    baseUrl: sandbox.baseUrl,
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    ipnEnabled: false,
    loopbackMoneyMode: 'local',
    operatorName: who,
  });
  await call('profiles.setToken', { id: profile.id, token: DEMO_MERCHANT.token });
  await call('profiles.activate', { id: profile.id });
  return { core, host, profileId: profile.id, call };
}

async function screenOf(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return page;
}

function fresh(n: number): PaymentRecord[] {
  const out = sandbox.state
    .snapshot()
    .payments.filter(
      (x) =>
        x.merchantNo === DEMO_MERCHANT.merchantNo &&
        x.storeNo === DEMO_MERCHANT.storeNo &&
        x.status === 'success' &&
        x.currency === 'USD' &&
        x.refunds.length === 0 &&
        x.amountMinor >= 2_000 &&
        !used.has(x.transactionNo),
    )
    .slice(0, n);
  if (out.length < n) throw new Error('not enough fresh payments in the seed');
  for (const p of out) used.add(p.transactionNo);
  return out;
}

/** A batch file of 3.00 + 4.00 USD (7.00: above the policy as a whole), as its CSV in base64. */
function batchFile(name: string): { file: { name: string; base64: string }; nos: string[] } {
  const ps = fresh(2);
  const csv = [
    'Transaction No,Refund amount,Currency,Reason,Claim ID',
    `${ps[0]!.transactionNo},${formatMinor(300, 'USD')},USD,recall,${name}-1`,
    `${ps[1]!.transactionNo},${formatMinor(400, 'USD')},USD,recall,${name}-2`,
  ].join('\r\n');
  return { file: { name, base64: Buffer.from(csv).toString('base64') }, nos: ps.map((p) => p.transactionNo) };
}

const refundsOn = (nos: readonly string[]) =>
  sandbox.state.snapshot().refunds.filter((r) => nos.includes(r.transactionNo));

/** Every visible button of the region lies inside it: nothing is cut at its right edge. */
async function expectButtonsInside(region: Locator) {
  const box = (await region.boundingBox())!;
  const overflow = await region.evaluate((el) => el.scrollWidth - el.clientWidth);
  expect(overflow, 'the table needs no horizontal scrolling at 1280 px').toBeLessThanOrEqual(0);
  for (const b of await region.getByRole('button').all()) {
    const r = (await b.boundingBox())!;
    expect(r.x + r.width, `${await b.textContent()} fits`).toBeLessThanOrEqual(box.x + box.width);
    // The label is not cut inside the button either.
    expect(await b.evaluate((el) => el.scrollWidth <= el.clientWidth)).toBe(true);
  }
}

test('a checker approves one batch and rejects another on Refunds → Approvals; the starter sees Cancel; the rejected batch’s report opens again from Past batches', async ({
  browser,
}) => {
  test.setTimeout(240_000);
  const maker = await desk('alice', 'desk-maker');
  const checker = await desk('bob', 'desk-checker');
  const errors: string[] = [];

  // alice starts two batches above the policy (and one single request, so both lists show).
  const a = batchFile('recall-a.csv');
  const b = batchFile('recall-b.csv');
  const posts = refundPosts();
  const started: BatchStatus[] = [];
  for (const x of [a, b]) {
    const s = await maker.call<BatchStatus>('refunds.batchStart', {
      profileId: maker.profileId,
      file: x.file,
    });
    expect(s.state).toBe('awaiting_approval');
    started.push(s);
  }
  const [batchA, batchB] = [started[0]!.batchId, started[1]!.batchId];
  const [single] = fresh(1);
  await maker.call('refunds.submit', {
    profileId: maker.profileId,
    transactionNo: single!.transactionNo,
    amountMinor: 900,
    currency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: 'parcel never arrived',
    confirmation: {},
  });
  expect(refundPosts()).toBe(posts);

  // Bob's Approvals: both batches beside the single request — who, when, rows, total, expiry.
  const bob = await screenOf(browser, checker.host.url, errors);
  await bob.getByRole('button', { name: 'Refunds', exact: true }).click();
  await bob.getByRole('tab', { name: /Approvals/ }).click();
  await expect(bob.getByTestId('approvals-count')).toContainText('3');
  const view = bob.getByTestId('approvals-view');
  const table = view.getByTestId('approvals-batches');
  const rowA = table.locator(`tr[data-batch-id="${batchA}"]`);
  await expect(rowA).toContainText('recall-a.csv');
  await expect(rowA).toContainText('7.00');
  await expect(rowA).toContainText('in 2 rows');
  await expect(rowA).toContainText('alice');
  await expect(rowA.locator('td').nth(4)).not.toHaveText('—');
  await expect(view.getByTestId('approvals-table').locator('tr[data-request-id]')).toHaveCount(1);

  // At 1280 px nothing in either list is cut at the right edge (the actions used to be).
  await bob.setViewportSize({ width: 1280, height: 800 });
  await expectButtonsInside(view.locator('.rd-table-wrap').first());
  await expectButtonsInside(view.locator('.rd-table-wrap').nth(1));
  await bob.screenshot({ path: '/tmp/batch-approvals-1280.png', fullPage: true });
  await look(bob, 'approvals-batches', { shots: true });
  await bob.setViewportSize({ width: 1280, height: 800 });

  // Approve and run batch A through its confirm step: 2 rows, 7.00 USD; it runs on bob's desk.
  await rowA.getByRole('button', { name: 'Approve and run…' }).click();
  const dialog = bob.getByTestId('approve-batch');
  await expect(dialog.getByTestId('approve-batch-rows')).toHaveText('2');
  await expect(dialog.getByTestId('approve-batch-totals')).toContainText('7.00');
  await expect(dialog).toContainText('alice');
  await bob.screenshot({ path: '/tmp/batch-approvals-confirm.png' });
  await dialog.getByRole('button', { name: 'Approve and run 2 rows' }).click();
  const result = dialog.getByTestId('approve-batch-result');
  await expect(result).toHaveAttribute('data-state', 'finished', { timeout: 30_000 });
  await expect(result).toContainText('2 refunded');
  expect(
    refundsOn(a.nos)
      .map((r) => r.refundAmountMinor)
      .sort(),
  ).toEqual([300, 400]);
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(rowA).toHaveCount(0);

  // Reject batch B: a comment is required; then it leaves the list and nothing is sent.
  const rowB = table.locator(`tr[data-batch-id="${batchB}"]`);
  await rowB.getByRole('button', { name: 'Reject…' }).click();
  const panel = view.getByTestId('reject-batch');
  await panel.getByRole('button', { name: 'Reject batch' }).click();
  await expect(panel).toContainText('Say why (a comment is required).');
  await panel.getByLabel(/Why is it rejected/).fill('Duplicate of the March recall file');
  await panel.getByRole('button', { name: 'Reject batch' }).click();
  await expect(rowB).toHaveCount(0);
  await expect(view).toContainText('No refund batch is waiting for approval.');
  expect(refundsOn(b.nos)).toEqual([]);
  const c = new pg.Client({ connectionString: owner });
  c.on('error', () => undefined);
  await c.connect();
  const states = await c.query<{ id: string; state: string; closed_by: string | null }>(
    'SELECT id, state, closed_by FROM refund_desk.batches ORDER BY created_at',
  );
  await c.end();
  expect(states.rows.map((r) => [r.id, r.state, r.closed_by])).toEqual([
    [batchA, 'finished', null],
    [batchB, 'rejected', 'bob'],
  ]);
  expect(refundPosts()).toBe(posts + 2);

  // alice's own batch waits on her screen with Cancel only (no Approve, no Reject).
  const c3 = batchFile('recall-c.csv');
  const own = await maker.call<BatchStatus>('refunds.batchStart', {
    profileId: maker.profileId,
    file: c3.file,
  });
  const alice = await screenOf(browser, maker.host.url, errors);
  await alice.getByRole('button', { name: 'Refunds', exact: true }).click();
  await alice.getByRole('tab', { name: /Approvals/ }).click();
  const aliceRow = alice.getByTestId('approvals-batches').locator(`tr[data-batch-id="${own.batchId}"]`);
  await expect(aliceRow.getByRole('button', { name: 'Cancel batch…' })).toBeVisible();
  await expect(aliceRow.getByRole('button', { name: /Approve|Reject/ })).toHaveCount(0);
  await expect(aliceRow).toContainText('Your batch: another person approves it.');

  // Refunds → Batch → Past batches: newest first; the rejected batch's report opens again.
  await alice.getByRole('tab', { name: 'Batch' }).click();
  const past = alice.getByTestId('batch-past');
  await expect(past.locator('tr[data-batch-id]')).toHaveCount(3);
  await expect(past.locator('tr[data-batch-id]').first()).toHaveAttribute('data-batch-id', own.batchId);
  await expect(past.locator(`tr[data-batch-id="${batchA}"]`)).toContainText('Finished');
  const pastB = past.locator(`tr[data-batch-id="${batchB}"]`);
  await expect(pastB).toContainText('Rejected');
  await expect(pastB).toContainText('by bob');
  await alice.screenshot({ path: '/tmp/batch-past-1280.png', fullPage: true });
  await look(alice, 'batch-past', { shots: true });
  await pastB.getByRole('button', { name: `Report of batch ${batchB}` }).click();
  await expect(
    alice.getByRole('heading', { name: new RegExp(`Report of batch ${batchB} — rejected`) }),
  ).toBeVisible();
  await expect(alice.getByTestId('batch-report-rejected')).toContainText('Rejected by bob');
  await expect(alice.getByTestId('batch-report-rejected')).toContainText(
    'Duplicate of the March recall file',
  );
  await expect(alice.getByTestId('batch-report-csv')).toBeVisible();
  expect(errors).toEqual([]);
});
