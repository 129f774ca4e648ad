import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import type { Browser, BrowserContext, Page } from '@playwright/test';
import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { addPerson, setPolicy } from '../../electron/core/adapters/postgres/team-admin';
import type { AppCore } from '../../electron/core/compose';
import { createNodeCore } from '../../electron/hosts/node-core';
import { type BrowserHost, startBrowserHost } from '../../electron/hosts/web/server';
import { DEMO_MERCHANT, type RunningSandbox, startSandbox } from '../../electron/sandbox';
import { BRIDGE_GLOBAL } from '../../shared/ipc/channels';
import { startPostgres, type TestCluster } from '../support/postgres';
import { expect, test } from './fixtures';
import { look } from './looks';

/**
 * Four-eyes between two people (issue 26 item 4): two browser hosts on one real throw-away PostgreSQL,
 * each its own data folder and its own person's login — alice (maker) at desk-maker, bob (checker, limit
 * 1,000.00 USD) at desk-checker — both refunding the Demo merchant's account at ONE sandbox over real
 * HTTP, whose own request log says what was sent. The account's policy: refunds above 5.00 USD wait for
 * approval. Two pages in two browser contexts are the two people's screens.
 */
const PW = { alice: 'Al1ce-e2e-approvals', bob: 'B0b-e2e-approvals' } as const;
const ABOVE = 500; // 5.00 USD
let cluster: TestCluster;
let db: string;
let sandbox: RunningSandbox;
const sandboxLog: string[] = [];
const opened: Array<{ core: AppCore; host: BrowserHost; dir: string }> = [];
const contexts: BrowserContext[] = [];

/** POSTs of a refund the sandbox received (its log: method, path, outcome; never bodies). */
const refundPosts = () => sandboxLog.filter((l) => l.startsWith('POST /app-data-search/v3/refund ')).length;

test.describe.configure({ mode: 'serial' });

test.beforeAll(async () => {
  test.setTimeout(120_000);
  cluster = await startPostgres();
  db = `e2e_approvals_${process.pid}`;
  const owner = { connectionString: await cluster.createDatabase(db) };
  await migratePostgres(owner);
  for (const [login, pw] of Object.entries(PW)) await cluster.createLogin(login, pw);
  await addPerson(owner, { login: 'alice', role: 'maker', limits: [] });
  await addPerson(owner, {
    login: 'bob',
    role: 'checker',
    limits: [{ currency: 'USD', upToMinor: 100_000 }],
  });
  await setPolicy(owner, {
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    currency: 'USD',
    approvalAboveMinor: ABOVE,
    expireHours: 24,
  });
  sandbox = await startSandbox({
    seed: 2026,
    transactions: 60,
    refundSettleMs: 300,
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

/** One person's desk: a browser host on the team database as their login, profile at the shared sandbox. */
async function desk(who: keyof typeof PW, deskId: string) {
  const dir = mkdtempSync(join(tmpdir(), `rd-e2e-approvals-${who}-`));
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
  const call = async (channel: string, input: unknown) => {
    const r = await core.dispatch(channel, input);
    if (!r.ok) throw new Error(`${channel}: ${r.error.code} ${r.error.message}`);
    return r.value as { id: string };
  };
  const profile = await call('profiles.save', {
    name: 'Demo merchant',
    environment: 'custom',
    baseUrl: sandbox.baseUrl,
    merchantNo: DEMO_MERCHANT.merchantNo,
    storeNo: DEMO_MERCHANT.storeNo,
    ipnEnabled: false,
    // The sandbox on this computer is a simulator: no real money (no typed amount).
    loopbackMoneyMode: 'local',
    operatorName: who,
  });
  await call('profiles.setToken', { id: profile.id, token: DEMO_MERCHANT.token });
  await call('profiles.activate', { id: profile.id });
  return { core, host, profileId: profile.id };
}

/** A person's screen: its own browser context (its own cache), the desk's page, no page errors. */
async function screenOf(browser: Browser, url: string, errors: string[]): Promise<Page> {
  const context = await browser.newContext({ viewport: { width: 1280, height: 800 } });
  contexts.push(context);
  const page = await context.newPage();
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(url);
  return page;
}

test('a maker’s refund above the limit waits; the checker approves and sends it; the maker’s screen settles by itself', async ({
  browser,
}) => {
  test.setTimeout(180_000);
  const maker = await desk('alice', 'desk-maker');
  const checker = await desk('bob', 'desk-checker');
  const pay = sandbox.state
    .snapshot()
    .payments.find(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        p.currency === 'USD' &&
        p.refunds.length === 0 &&
        p.amountMinor >= 2_000,
    );
  if (!pay) throw new Error('no fresh payment in the seed');
  const errors: string[] = [];
  const alice = await screenOf(browser, maker.host.url, errors);
  const bob = await screenOf(browser, checker.host.url, errors);

  // Bob opens his Approvals view first: nothing waits yet.
  await bob.getByRole('button', { name: 'Refunds', exact: true }).click();
  await bob.getByRole('tab', { name: /Approvals/ }).click();
  const bobView = bob.getByTestId('approvals-view');
  await expect(bobView).toContainText('No refund is waiting for approval');
  await expect(bobView.getByTestId('approvals-me')).toContainText(
    'bob · checker, approves up to 1,000.00 USD',
  );

  // Alice refunds 12.00 USD, above the 5.00 USD policy.
  await alice.getByRole('button', { name: 'Refunds', exact: true }).click();
  await alice.getByLabel('Refund a payment by transaction number').fill(pay.transactionNo);
  await alice.getByRole('button', { name: 'Refund…' }).click();
  const dialog = alice.getByRole('dialog');
  await dialog.getByLabel('Refund amount (USD)').fill('12.00');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('product_issue');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  const posts = refundPosts();
  await dialog.getByRole('button', { name: /^Refund 12\.00 USD/ }).click();

  // The dialog says so plainly: awaiting approval, nothing was sent, the request, who approves, until when.
  const result = dialog.getByTestId('refund-result');
  await expect(result).toHaveAttribute('data-state', 'awaiting_approval');
  await expect(result).toContainText('Awaiting approval — nothing was sent');
  await expect(result).toContainText('Money moved: no');
  const requestId = (await result.getByTestId('result-reference').textContent())!.trim();
  expect(requestId).toMatch(/^RD/);
  await expect(result).toContainText(`recorded as request ${requestId}`);
  await expect(result.getByTestId('requested-by')).toContainText('alice at desk-maker');
  await expect(result.getByTestId('request-expires')).not.toBeEmpty();
  await expect(result.getByTestId('request-approvers')).toHaveText(
    'bob — the checker whose approval limit covers 12.00 USD.',
  );
  expect(refundPosts()).toBe(posts);
  expect(sandbox.state.payment(pay.transactionNo)!.refunds).toEqual([]);
  await look(alice, 'approvals-awaiting-dialog', { shots: true });
  await alice.screenshot({ path: '/tmp/approvals-awaiting-dialog.png' });

  // Bob's view shows it by itself (the team database's change feed → refunds.updated → the list re-reads).
  const row = bobView.locator(`tr[data-request-id="${requestId}"]`);
  await expect(row).toContainText('12.00 USD');
  await expect(row).toContainText(pay.transactionNo);
  await expect(row).toContainText('Product or service issue');
  await expect(row).toContainText('alice at desk-maker');
  await expect(bob.getByTestId('approvals-count')).toContainText('1');

  // Alice's own Approvals view offers her no approval: only Cancel. And forced through IPC from her
  // page, the team database refuses it in its words; nothing is sent.
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await alice.getByRole('tab', { name: /Approvals/ }).click();
  const aliceRow = alice.getByTestId('approvals-view').locator(`tr[data-request-id="${requestId}"]`);
  await expect(aliceRow.getByRole('button', { name: 'Cancel request…' })).toBeVisible();
  await expect(aliceRow.getByRole('button', { name: /Approve/ })).toHaveCount(0);
  await expect(aliceRow).toContainText('Your request: another person approves it.');
  const forced = await alice.evaluate(
    async ({ global, profileId, id }) => {
      const bridge = (
        globalThis as unknown as Record<string, Record<string, (i: unknown) => Promise<unknown>>>
      )[global]!;
      return bridge['approvals.approveAndSend']!({ profileId, id, confirmation: {} });
    },
    { global: BRIDGE_GLOBAL, profileId: maker.profileId, id: requestId },
  );
  // alice is a maker only: the database does not let her login approve anything (approve_and_claim).
  expect(forced).toMatchObject({ ok: false, error: { code: 'forbidden' } });
  expect((forced as { error: { message: string } }).error.message).toMatch(
    /your database login may not do this \(permission denied for function approve_and_claim\)/,
  );
  expect(refundPosts()).toBe(posts);

  // Alice goes back to her refund record: the request is there, waiting.
  await alice.getByRole('tab', { name: 'Refund record' }).click();
  const aliceRecord = alice.getByTestId('refunds-table').locator(`tr[data-intent-id="${requestId}"]`);
  await expect(aliceRecord.locator('[data-state]').first()).toHaveAttribute(
    'data-state',
    'awaiting_approval',
  );

  await look(bob, 'approvals-view', { shots: true });
  await bob.screenshot({ path: '/tmp/approvals-view.png' });

  // Bob approves and sends, through the refund's confirm step: the request's amount, no field to change it.
  await row.getByRole('button', { name: 'Approve and send…' }).click();
  const approve = bob.getByRole('dialog');
  await expect(approve.getByTestId('confirm-amount')).toHaveText('12.00 USD');
  await expect(approve.getByLabel(/Refund amount/)).toHaveCount(0);
  await expect(approve.getByTestId('confirm-summary')).toContainText('alice at desk-maker');
  await expect(approve.getByTestId('confirm-summary')).toContainText(requestId);
  await bob.screenshot({ path: '/tmp/approvals-confirm.png' });
  await approve.getByRole('button', { name: /^Approve and send 12\.00 USD/ }).click();
  const sent = approve.getByTestId('refund-result');
  await expect(sent).toHaveAttribute('data-state', /accepted|succeeded/);
  await expect.poll(refundPosts).toBe(posts + 1);

  // Alice's screen follows it by itself, no reload: her record shows the refund completed.
  await expect(aliceRecord.locator('[data-state]').first()).toHaveAttribute('data-state', 'succeeded', {
    timeout: 20_000,
  });
  await expect(sent).toHaveAttribute('data-state', 'succeeded', { timeout: 20_000 });
  await approve.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(bobView).toContainText('No refund is waiting for approval');
  await expect(bob.getByTestId('approvals-count')).toHaveCount(0);

  // Exactly one refund, of the requested amount, reached the sandbox.
  expect(refundPosts()).toBe(posts + 1);
  const refunds = sandbox.state.payment(pay.transactionNo)!.refunds;
  expect(refunds).toHaveLength(1);
  expect(sandbox.state.refund(refunds[0]!)).toMatchObject({ refundAmountMinor: 1_200 });
  expect(errors).toEqual([]);
});

test('the maker’s dialog kept open settles by itself when the checker approves', async ({ browser }) => {
  test.setTimeout(120_000);
  const [maker, checker] = [opened[0]!, opened[1]!];
  const pay = sandbox.state
    .snapshot()
    .payments.find(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        p.currency === 'USD' &&
        p.refunds.length === 0 &&
        p.amountMinor >= 2_000,
    );
  if (!pay) throw new Error('no fresh payment in the seed');
  const errors: string[] = [];
  const alice = await screenOf(browser, maker.host.url, errors);
  await alice.getByRole('button', { name: 'Refunds', exact: true }).click();
  await alice.getByLabel('Refund a payment by transaction number').fill(pay.transactionNo);
  await alice.getByRole('button', { name: 'Refund…' }).click();
  const dialog = alice.getByRole('dialog');
  await dialog.getByLabel('Refund amount (USD)').fill('7.50');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: /^Refund 7\.50 USD/ }).click();
  const result = dialog.getByTestId('refund-result');
  await expect(result).toHaveAttribute('data-state', 'awaiting_approval');
  const requestId = (await result.getByTestId('result-reference').textContent())!.trim();

  // Bob approves from his desk (through IPC here: his screen is the test above).
  const bobProfile = checker.core.profiles.profiles.active()!.id;
  const r = await checker.core.dispatch('approvals.approveAndSend', {
    profileId: bobProfile,
    id: requestId,
    confirmation: {},
  });
  expect(r.ok).toBe(true);
  // The dialog Alice left open turns into the refund's outcome by itself.
  await expect(result).toHaveAttribute('data-state', 'succeeded', { timeout: 20_000 });
  await expect(result).toContainText('Refund completed');
  await expect(result).toContainText('Money moved: yes');
  await expect(result.getByTestId('requested-by')).toContainText('alice at desk-maker');
  expect(sandbox.state.payment(pay.transactionNo)!.refunds).toHaveLength(1);
  expect(errors).toEqual([]);
});
