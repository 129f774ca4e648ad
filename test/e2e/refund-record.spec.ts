import { formatMinor } from '../../shared/domain/money';
import { call, PATHS } from '../sandbox/integration/helpers';
import { toServiceDateTime } from '../../shared/protocol/time';
import { freshPayment } from './demo-payments';
import { expect, shotPath, test } from './fixtures';

test('a payment already refunded elsewhere: Partially refunded in the list, refunded again here, both refunds in the Refunds area', async ({
  page,
  app,
}) => {
  const sandbox = app.core.demoSandbox();
  if (!sandbox) throw new Error('the Demo sandbox is not running');
  // A card payment, so the service reports the card's last four digits.
  const pay = freshPayment(app, new Set(), 'USD', 3000, (x) => x.cardLast4 !== undefined);
  if (!pay?.cardLast4) throw new Error('no fresh card payment in the Demo seed');

  // Made elsewhere: straight at the service, signed with the merchant's token, not through the app.
  const elsewhere = await call(sandbox, PATHS.refund, {
    transactionNo: pay.transactionNo,
    refundAmount: '10.00',
    currency: 'USD',
    settleCurrency: 'USD',
    refundReference: 'POS-TILL-7',
  });
  expect(elsewhere.ret_code).toBe('000100');
  const elsewhereNo = String(elsewhere.result?.['refundTransactionNo'] ?? '');
  expect(elsewhereNo).toMatch(/^\d+$/);

  await page.goto(app.host.url);
  await page.getByLabel('Look up a transaction').fill(pay.transactionNo);
  await page.getByLabel('Look up a transaction').press('Enter');
  const detail = page.getByTestId('tx-detail');
  await expect(detail.getByTestId('detail-refunded')).toContainText('Partially refunded');
  await expect(detail.getByTestId('detail-refunds')).toContainText(elsewhereNo);
  await expect(detail.getByTestId('detail-payment-method')).toContainText(`Card ending ${pay.cardLast4}`);
  // The refund's date, in the chosen zone with the service's own UTC+8 time beside it.
  const madeAt = sandbox.state
    .snapshot()
    .refunds.find((r) => r.refundTransactionNo === elsewhereNo)!.createdAt;
  const made = detail.locator(`[data-refund-no="${elsewhereNo}"]`).getByTestId('detail-refund-made');
  await expect(made).toContainText(`service time ${toServiceDateTime(madeAt)} (UTC+8)`);
  await expect(made).not.toContainText('the service gave no time');
  // The list says both: the service's status and the derived refund state.
  const row = page.locator(`[data-testid="tx-row"][data-transaction-no="${pay.transactionNo}"]`);
  await expect(row).toContainText('Successful · Partially refunded');

  // Refund again, here.
  await detail.getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByTestId('remaining-now')).toContainText(formatMinor(pay.amountMinor - 1000, 'USD'));
  await dialog.getByLabel('Refund amount (USD)').fill('2.00');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: 'Refund 2.00 USD' }).click();
  const result = dialog.getByTestId('refund-result');
  await expect(result).toBeVisible();
  await expect(result.getByTestId('outcome-checked')).toContainText('Status as of');
  const mineNo = (await dialog.getByTestId('refund-transaction-no').textContent()) ?? '';
  await page.keyboard.press('Escape');
  await expect(detail.getByTestId('detail-refunds')).toContainText(mineNo);

  // The Refunds area: both refunds of this payment, only ours made here.
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  const table = page.getByTestId('refunds-table');
  const rows = table.locator('tbody tr').filter({ hasText: pay.transactionNo });
  await expect(rows).toHaveCount(2);
  const here = rows.filter({ hasText: mineNo });
  const there = rows.filter({ hasText: elsewhereNo });
  await expect(here).toHaveAttribute('data-made-here', 'yes');
  await expect(here).toContainText('Made here');
  await expect(there).toHaveAttribute('data-made-here', 'no');
  await expect(there).toContainText('Elsewhere');
  await expect(there).toContainText('10.00');
  await page.getByLabel('Where the refund was made').selectOption('elsewhere');
  await expect(rows).toHaveCount(1);
  await page.getByLabel('Where the refund was made').selectOption('all');
  await expect(rows).toHaveCount(2);
  await page.screenshot({ path: shotPath('refunds-record') });

  // A row's details say what happened and when it was established; a row opens its payment.
  await there.getByRole('button', { name: /^Details/ }).click();
  const card = page.getByTestId('refund-record-detail');
  await expect(card).toContainText('made elsewhere');
  await expect(card.getByTestId('record-checked')).toContainText('when the payment was last fetched');
  await card.getByRole('button', { name: 'Open payment' }).click();
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(pay.transactionNo);
});
