import type { Page } from '@playwright/test';
import { freshPayment } from './demo-payments';
import { expect, type HostFixture, test } from './fixtures';
import { look } from './looks';

/**
 * Issue 29, "Day one for a clerk": every screen tells the whole state. Each state the issue names is
 * driven through the real renderer, then looked at (axe-core with no serious or critical violation,
 * light and dark; screenshots at 1280×720 and 1440×900 under test-results/screens/).
 */
test.describe.configure({ timeout: 180_000 });

const used = new Set<string>();

/** Looks a payment up by its number in the Transactions look-up box (the detail panel opens). */
async function lookUp(page: Page, transactionNo: string) {
  await page.getByLabel('Look up a transaction').fill(transactionNo);
  await page.getByLabel('Look up a transaction').press('Enter');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(transactionNo);
}

/** Sends a refund of `amount` from the detail panel while the service answers 503: its outcome is unknown. */
async function unknownRefundFromPanel(page: Page, app: HostFixture, amount: string) {
  await page.getByTestId('tx-detail').getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel(/^Refund amount/).fill(amount);
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  app.core.demoSandbox()?.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
  try {
    await dialog.getByRole('button', { name: new RegExp(`^Refund ${amount} USD`) }).click();
    await expect(dialog.getByTestId('refund-result')).toHaveAttribute('data-state', 'outcome_unknown');
  } finally {
    app.core.demoSandbox()?.resetFaults();
  }
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
}

test('a refund with an unknown outcome shows in the detail panel and the list row, the remaining amount as uncertain', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used, 'USD', 5_000);
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.host.url);
  await lookUp(page, pay.transactionNo);
  const detail = page.getByTestId('tx-detail');
  await expect(detail.getByRole('button', { name: 'Refund…' })).toBeEnabled();
  await unknownRefundFromPanel(page, app, '34.00');

  await expect(detail.getByTestId('detail-uncertain')).toContainText(
    '1 refund outcome unknown (34.00 USD) — check it in Refunds',
  );
  await expect(detail.getByTestId('detail-remaining')).toContainText('Uncertain:');
  await expect(detail.getByRole('button', { name: 'Refund…' })).toBeDisabled();
  const row = page.locator(`[data-testid="tx-row"][data-transaction-no="${pay.transactionNo}"]`);
  await expect(row.locator('[data-column="remaining"]')).toHaveClass(/uncertain/);
  await expect(row.locator('[data-column="remaining"]')).toContainText('≤');
  await look(page, 'day-one-detail-unknown-refund');

  // "Open Refunds" goes where it can be checked.
  await detail.getByRole('button', { name: 'Open Refunds' }).click();
  await expect(page.getByRole('heading', { level: 1, name: 'Refunds' })).toBeVisible();
});

/** The Demo profile, saved as Settings would, with this operator and "close as not sent" policy. */
async function setDemo(
  app: HostFixture,
  operatorName: string,
  unknownClose: { minChecks: number; minMinutes: number },
) {
  const { profiles } = await app.core.profiles.profiles.list();
  const demo = profiles.find((p) => p.environment === 'demo');
  if (!demo) throw new Error('no Demo profile');
  await app.core.profiles.profiles.save({
    id: demo.id,
    name: demo.name,
    environment: demo.environment,
    merchantNo: demo.merchantNo,
    storeNo: demo.storeNo,
    ipnEnabled: demo.ipnEnabled,
    operatorName,
    guardrails: { limits: [], unknownClose },
  });
}

test('close as not sent: when it becomes possible is on the row, the panel fits the screen and names the payment, a closed refund names who closed it', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used, 'USD', 5_000);
  // The least a profile may ask (the floor main enforces): 3 checks over 2 hours.
  await setDemo(app, 'Ana Lima', { minChecks: 3, minMinutes: 120 });
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(app.host.url);
  await lookUp(page, pay.transactionNo);
  await unknownRefundFromPanel(page, app, '12.00');

  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  const row = page.getByTestId('refunds-table').getByRole('row').filter({ hasText: pay.transactionNo });
  // One check reached the service right after the 503: two more, and two hours, before it may be closed.
  await expect(row.getByTestId('close-later')).toHaveText(
    /^Close as not sent: possible after (\d{4}-\d\d-\d\d )?\d\d:\d\d \(2 more checks\)$/,
  );
  await expect(row.getByRole('button', { name: 'Close as not sent…' })).toHaveCount(0);
  await look(page, 'day-one-refunds-close-later');

  // Two hours later (main's clock and the page's), after two more checks that do not find it.
  const later = Date.now() + 121 * 60_000;
  app.clock.offsetMs = 121 * 60_000;
  await page.clock.setFixedTime(later);
  for (let i = 0; i < 2; i += 1) {
    await row.getByRole('button', { name: 'Check again' }).click();
    await expect(row.getByRole('button', { name: 'Check again' })).toBeEnabled();
  }
  await page.getByRole('button', { name: 'Transactions', exact: true }).click();
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  const open = row.getByRole('button', { name: 'Close as not sent…' });
  await expect(open).toBeVisible();
  await open.click();
  const panel = page.getByTestId('close-not-sent');
  await expect(panel.getByRole('heading')).toContainText(pay.transactionNo);
  await expect(panel).toContainText('12.00 USD');
  const field = panel.getByLabel('Type NOT SENT to confirm');
  await expect(field).toBeFocused();
  // Nothing runs past the right edge, and focusing the field did not scroll the list sideways.
  for (const v of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(v);
    for (const el of [panel, field, panel.getByRole('button', { name: 'Close as not sent', exact: true })]) {
      const box = await el.boundingBox();
      expect(box && box.x + box.width).toBeLessThanOrEqual(v.width);
    }
  }
  expect(await page.locator('.rd-table-wrap').evaluate((e) => e.scrollLeft)).toBe(0);
  await look(page, 'day-one-close-not-sent');

  await field.fill('not sent');
  await panel.getByRole('button', { name: 'Close as not sent', exact: true }).click();
  await expect(panel).toHaveCount(0);
  await expect(row.getByTestId('closed-not-sent')).toHaveText(
    /^Closed as not sent by Ana Lima, \d{4}-\d\d-\d\d \d\d:\d\d$/,
  );
  await expect(row).not.toContainText('try again');
  await row.getByRole('button', { name: /^Details of refund/ }).click();
  const detail = page.getByTestId('refund-record-detail');
  await expect(detail.getByRole('heading', { name: 'Closed as not sent' })).toBeVisible();
  await expect(detail).not.toContainText(/\d{4}-\d\d-\d\dT\d\d/);
  await look(page, 'day-one-refunds-closed');
});

test('Numbers → Deutsch: the refund dialog shows and reads amounts the German way, and asks about a dot', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used, 'USD', 5_000);
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  await page.getByLabel('Numbers and language').selectOption('de-DE');
  await page.getByRole('button', { name: 'Transactions', exact: true }).click();
  await lookUp(page, pay.transactionNo);
  await page.getByTestId('tx-detail').getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog');
  const amount = dialog.getByLabel('Refund amount (USD)');
  const whole = (pay.amountMinor / 100).toFixed(2).replace('.', ',');
  await expect(amount).toHaveValue(new RegExp(`^${whole.replace(/^(\d+)(\d{3}),/, '$1\\.$2,')}$`));
  await amount.fill('12,50');
  await expect(dialog.getByTestId('amount-message')).toHaveText('Partial refund.');
  await expect(dialog.getByTestId('remaining-after')).toContainText(',');
  await amount.fill('12.50');
  await expect(dialog.getByTestId('amount-message')).toContainText('Did you mean 12,50?');
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled();
  await look(page, 'day-one-refund-dialog-deutsch');
  await amount.fill('12,50');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: /^Refund 12,50 USD/ }).click();
  await expect(dialog.getByTestId('refund-result')).toContainText('12,50 USD');
  expect(
    app.core
      .demoSandbox()
      ?.state.payment(pay.transactionNo)
      ?.refunds.map((no) => app.core.demoSandbox()?.state.refund(no)?.refundAmountMinor),
  ).toEqual([1250]);
});

test('money mode: the profile form shows it as the address is typed, a local address is declared (live money by default), every card says it', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Settings', exact: true }).click();
  const settings = page.getByTestId('settings');
  await expect(settings.getByTestId('profile-item').first().getByTestId('profile-money-mode')).toHaveText(
    'No real money',
  );
  await settings.getByRole('button', { name: 'Add profile' }).click();
  const form = page.getByRole('form', { name: 'New profile' });
  const mode = form.getByTestId('form-money-mode');
  await expect(mode).toHaveText('Test system');
  await form.getByLabel('Connects to').selectOption('custom');
  await form.getByLabel('Service address').fill('https://pay.partner.example.com');
  await expect(mode).toHaveText('LIVE MONEY');
  await form.getByLabel('Service address').fill(app.core.profiles.demoBaseUrl()!);
  // On this computer: the app cannot know, so it asks, and until answered it is live money.
  await expect(mode).toHaveText('LIVE MONEY');
  const declare = form.getByLabel('What is behind this address on this computer?');
  await expect(declare).toHaveValue('live');
  await look(page, 'day-one-profile-form-local-address');
  await declare.selectOption('local');
  await expect(mode).toHaveText('No real money');
  await form.getByLabel('Profile name').fill('Local simulator');
  await form.getByLabel('Merchant number').fill('200043');
  await form.getByLabel('Store number').fill('300014');
  await form.getByRole('button', { name: 'Add profile' }).click();
  const cards = settings.getByTestId('profile-item');
  await expect(cards).toHaveCount(2);
  await expect(cards.filter({ hasText: 'Local simulator' }).getByTestId('profile-money-mode')).toHaveText(
    'No real money',
  );
  await expect(settings.getByTestId('current-money-mode')).toHaveText('No real money');
  await look(page, 'day-one-settings-profiles');
});

test('with the detail open the list shows whole columns only; a look-up always shows its row; a miss closes the previous panel', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(app.host.url);
  await page.getByTestId('load-demo').click();
  await expect(page.getByTestId('tx-job')).toHaveAttribute('data-status', 'finished', { timeout: 20_000 });
  await page.getByTestId('tx-job').getByRole('button', { name: 'Dismiss' }).click();
  const grid = page.getByTestId('tx-grid');
  const rows = page.getByTestId('tx-row');

  // The oldest row becomes the active one, then the list is scrolled back to the top by hand.
  await grid.focus();
  await page.keyboard.press('End');
  const last = page.locator('[data-testid="tx-row"].active');
  const lastNo = (await last.getAttribute('data-transaction-no')) ?? '';
  expect(lastNo).toMatch(/^\d+$/);
  await grid.evaluate((g) => (g.scrollTop = 0));
  await expect(page.locator(`[data-transaction-no="${lastNo}"]`)).toHaveCount(0);

  for (const size of [
    { width: 1280, height: 720 },
    { width: 1440, height: 900 },
  ]) {
    await page.setViewportSize(size);
    await page.getByLabel('Look up a transaction').fill(lastNo);
    await page.getByLabel('Look up a transaction').press('Enter');
    await expect(page.getByTestId('detail-transaction-no')).toHaveText(lastNo);
    // The looked-up row is in view, though it was the active row already.
    const row = page.locator(`[data-testid="tx-row"][data-transaction-no="${lastNo}"]`);
    await expect(row).toBeVisible();
    const g = (await grid.boundingBox())!;
    const r = (await row.boundingBox())!;
    expect(r.y >= g.y && r.y + r.height <= g.y + g.height).toBe(true);
    // Beside the panel no column sits under the pinned money columns: nothing to scroll sideways to,
    // and no cell is cut short.
    expect(await grid.evaluate((e) => e.scrollWidth <= e.clientWidth + 1)).toBe(true);
    for (const cell of await rows.first().locator('[role="gridcell"]').all())
      expect(await cell.evaluate((c) => c.scrollWidth <= c.clientWidth + 1)).toBe(true);
    await expect(rows.first().locator('[data-column="status"]')).toBeVisible();
    await grid.evaluate((e) => (e.scrollTop = 0));
  }
  await look(page, 'day-one-detail-compact-columns');

  // A number nobody has: the previous payment's panel closes beside "not found".
  await page.getByLabel('Look up a transaction').fill('100000000000000001');
  await page.getByLabel('Look up a transaction').press('Enter');
  await expect(page.getByTestId('tx-outcome')).toHaveAttribute('data-kind', 'not_found');
  await expect(page.getByTestId('tx-detail')).toHaveCount(0);
});

/** WCAG contrast of two computed `rgb(…)` colours. */
function contrast(a: string, b: string): number {
  const lum = (c: string) => {
    const [r = 0, g = 0, bl = 0] = (c.match(/\d+(\.\d+)?/g) ?? []).slice(0, 3).map(Number);
    const ch = (v: number) => {
      const s = v / 255;
      return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
    };
    return 0.2126 * ch(r) + 0.7152 * ch(g) + 0.0722 * ch(bl);
  };
  const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
  return (hi + 0.05) / (lo + 0.05);
}

test('dark theme: a hovered row in Payments stays readable (theme colours, not a fixed light blue)', async ({
  page,
  app,
}) => {
  const profileId = (await app.core.profiles.profiles.list()).activeProfileId!;
  const made = await app.core.dispatch('payments.createCheckout', {
    profileId,
    kind: 'link',
    amountMinor: 2500,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'alipay',
    reference: `DAY1-${Date.now()}`,
    description: 'Phone order',
    goods: [],
    timeoutMin: 30,
  });
  expect(made.ok).toBe(true);
  await page.emulateMedia({ colorScheme: 'dark' });
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Payments', exact: true }).click();
  const row = page.getByTestId('payments-table').locator('tbody tr').first();
  await row.hover();
  const cell = row.locator('td').nth(1);
  const [bg, fg] = await cell.evaluate((td) => {
    const s = getComputedStyle(td);
    return [s.backgroundColor, s.color];
  });
  expect(contrast(bg, fg)).toBeGreaterThanOrEqual(4.5);
});

test('Demo: a whitelabel payment can be paid or failed from its card (the sandbox stands in for the SDK page), and its card does not call it a link', async ({
  page,
  app,
  context,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Payments', exact: true }).click();
  await page.getByRole('tab', { name: 'New payment', exact: true }).click();
  await page.getByRole('radio', { name: /Whitelabel/ }).check();
  const wl = page.getByRole('form', { name: 'New whitelabel payment' });
  await wl.getByLabel('Amount (USD)').fill('12.00');
  await wl.getByRole('button', { name: 'Create whitelabel payment' }).click();
  const detail = page.getByTestId('payment-detail');
  await expect(detail.getByTestId('payment-outcome')).toContainText('Created — not paid yet');
  await expect(detail).toContainText('no call to cancel a whitelabel payment');
  await expect(detail).not.toContainText('cancel a link');
  await detail.getByRole('button', { name: 'Open the Demo payer page' }).click();
  const url = await detail.getByLabel('Demo payer page').inputValue();
  expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/[0-9a-f]{32}$/);
  await look(page, 'day-one-whitelabel-demo', { axe: true });

  const payer = await context.newPage();
  await payer.goto(url);
  await payer.getByRole('button', { name: 'Pay' }).click();
  // No return page for a whitelabel payment (the merchant's own page would go on): the sandbox says so.
  await expect(payer.getByRole('heading', { level: 1 })).toHaveText('Payment success');
  await payer.close();
  await expect(detail.getByTestId('payment-outcome')).toContainText('Paid', { timeout: 20_000 });
});

test('Demo: a payment link’s payer returns to a page in words, not the sandbox’s JSON', async ({
  page,
  app,
  context,
}) => {
  const profileId = (await app.core.profiles.profiles.list()).activeProfileId!;
  const made = await app.core.dispatch('payments.createCheckout', {
    profileId,
    kind: 'link',
    amountMinor: 2500,
    currency: 'USD',
    settleCurrency: 'USD',
    vendor: 'alipay',
    reference: `DAY1L-${Date.now()}`,
    description: 'Phone order',
    goods: [],
    timeoutMin: 30,
  });
  if (!made.ok) throw new Error(made.error.message);
  const url = (made.value as { cashierUrl?: string }).cashierUrl!;
  const payer = await context.newPage();
  await payer.goto(url);
  await payer.getByRole('button', { name: 'Fail' }).click();
  await payer.waitForURL((u) => !/^\/checkout\//.test(u.pathname), { waitUntil: 'load' });
  await expect(payer.getByRole('heading', { level: 1 })).toHaveText(
    'The payment did not go through. No money moved.',
  );
  expect(await payer.content()).not.toContain('"ok":true');
  await payer.close();
  expect(page).toBeTruthy();
});

test('find a payment by what the customer says: amount with or without currency, card’s last 4, date — in the look-up box and the palette, every match with why', async ({
  page,
  app,
}) => {
  await page.setViewportSize({ width: 1280, height: 720 });
  await page.goto(app.host.url);
  await page.getByTestId('load-demo').click();
  await expect(page.getByTestId('tx-job')).toHaveAttribute('data-status', 'finished', { timeout: 20_000 });
  await page.getByTestId('tx-job').getByRole('button', { name: 'Dismiss' }).click();
  // What the customer says: the amount of a paid card payment, as the list writes it, with its currency.
  const row = page.locator('[data-testid="tx-row"]', { hasText: 'Successful' }).first();
  const no = (await row.getAttribute('data-transaction-no')) ?? '';
  const amount = ((await row.locator('[data-column="amount"]').textContent()) ?? '').trim(); // "12.00 CNY"
  const [figure = '', currency = ''] = amount.split(/\s+/);
  const box = page.getByLabel('Look up a transaction');

  await box.fill(`${figure} ${currency}`);
  await expect(page.getByTestId('tx-search-hint')).toContainText('what a customer says');
  await box.press('Enter');
  const results = page.getByTestId('tx-matches');
  await expect(results).toBeVisible();
  const hit = results.locator(`li[data-transaction-no="${no}"]`);
  await expect(hit).toContainText(`Amount ${figure} ${currency}`);
  await look(page, 'day-one-search-results');
  await hit.getByRole('button', { name: no }).click();
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(no);

  // Without the currency: every currency's payment of that figure is listed, each says its own.
  await box.fill(figure);
  await box.press('Enter');
  await expect(results.locator(`li[data-transaction-no="${no}"]`)).toContainText(
    `Amount ${figure} ${currency}`,
  );

  // A day that has no payment: said, not silent.
  await box.fill('1999-01-01');
  await box.press('Enter');
  await expect(results).toContainText('No cached payment matches “1999-01-01”');

  // The palette finds the same, and opens it.
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await page.keyboard.type(`${figure} ${currency}`);
  const option = palette.locator(`[data-command="match.${no}"]`);
  await expect(option).toContainText(`Amount ${figure} ${currency}`);
  await look(page, 'day-one-palette-search', { shots: true });
  await option.click();
  await expect(palette).toHaveCount(0);
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(no);
});
