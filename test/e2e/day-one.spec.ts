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
