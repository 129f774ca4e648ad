import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { parseCsvText } from '../../shared/csv/parser';
import { expect, test } from './fixtures';

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();
const detail = (page: Page) => page.getByTestId('payment-detail');

/**
 * A payment taken from Payments and partly refunded from its own card: the card, the Payments list and
 * the payments export say what Transactions says — partially refunded, 12.50 refunded, 30.00 left —
 * not "Paid · 42.50" as if nothing had happened.
 */
test('a payment refunded from its card in Payments shows its refunds on the card, in the list and the export, as Transactions does', async ({
  page,
  app,
  context,
}) => {
  test.setTimeout(120_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Payments', exact: true }).click();

  // A 42.50 USD payment link, paid by the customer on the hosted page.
  await tab(page, 'New payment');
  await page.getByRole('radio', { name: /Payment link/ }).check();
  const link = page.getByRole('form', { name: 'New payment link' });
  await link.getByLabel('Amount (USD)').fill('42.50');
  const reference = await link.getByLabel('Reference').inputValue();
  await link.getByRole('button', { name: 'Create payment link' }).click();
  const cashierUrl = await detail(page).getByLabel('Payment link (cashierUrl)').inputValue();
  const payer = await context.newPage();
  await payer.goto(cashierUrl);
  await payer.getByRole('button', { name: 'Pay' }).click();
  await payer.waitForURL((u) => !/^\/checkout\//.test(u.pathname), { waitUntil: 'load' });
  await payer.close();

  await tab(page, 'Payments');
  await page.getByRole('button', { name: reference }).click();
  const card = detail(page);
  await expect(card.getByTestId('payment-outcome')).toContainText('Paid', { timeout: 20_000 });
  const transactionNo = (await card.locator('dt:text-is("Transaction") + dd').textContent()) ?? '';
  expect(transactionNo).toMatch(/^\d{18}$/);
  await expect(card.locator('[data-state="succeeded"]')).toHaveText('Paid');

  // Refund 12.50 of it from the card.
  await card.getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('remaining-now')).toHaveText('42.50 USD');
  await dialog.getByLabel('Refund amount (USD)').fill('12.50');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: 'Refund 12.50 USD' }).click();
  await expect(
    dialog.getByText('Refund completed').or(dialog.getByText('Accepted — not final yet')),
  ).toBeVisible();
  await dialog.getByRole('button', { name: 'Close' }).first().click();

  // The card.
  await expect(card.locator('[data-state="succeeded"]')).toHaveText('Paid · Partially refunded', {
    timeout: 20_000,
  });
  await expect(card.getByTestId('payment-outcome')).toContainText(
    '12.50 USD of it was refunded; 30.00 USD can still be refunded.',
  );
  await expect(card.locator('dt:text-is("Refunded") + dd')).toHaveText('12.50 USD');
  await expect(card.locator('dt:text-is("Refundable") + dd')).toHaveText('30.00 USD');

  // The list.
  const row = page.getByTestId('payments-table').locator('tr', { hasText: reference });
  await expect(row.locator('[data-state="succeeded"]')).toHaveText('Paid · Partially refunded');
  await expect(row.getByTestId('payment-refunds')).toHaveText('Refunded 12.50 USD · refundable 30.00 USD');

  // The export.
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('search', { name: 'Filter payments' }).getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  const csv = parseCsvText(readFileSync((await download.path()) ?? '', 'utf8'));
  // The payments export's headers are in words (as every other export's), each code beside its label.
  const exported = csv.rows.find((r) => r.cells[csv.headers.indexOf('Reference')] === reference);
  expect(exported).toBeDefined();
  const col = (name: string) => exported!.cells[csv.headers.indexOf(name)];
  expect([
    col('State code'),
    col('Amount'),
    col('Refund state code'),
    col('Refunded'),
    col('Refundable'),
  ]).toEqual(['succeeded', '42.50', 'partially_refunded', '12.50', '30.00']);

  // Transactions says the same of the same payment.
  await page.getByRole('button', { name: 'Transactions', exact: true }).click();
  const txRow = page.locator(`[data-testid="tx-row"][data-transaction-no="${transactionNo}"]`);
  await expect(txRow).toContainText('Partially refunded');
  expect(errors).toEqual([]);
});
