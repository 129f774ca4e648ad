import { freshPayment } from './demo-payments';
import { expect, shotPath, test } from './fixtures';

test('the header names the active profile with a money badge on every screen; switching there shows that profile’s records only', async ({
  page,
  app,
}) => {
  const demoId = app.core.profiles.profiles.active()!.id;
  // One refund on the Demo profile, straight through main (as any earlier session would have left it).
  const pay = freshPayment(app, new Set(), 'USD', 1000);
  const sent = await app.core.dispatch('refunds.submit', {
    profileId: demoId,
    transactionNo: pay.transactionNo,
    amountMinor: 100,
    currency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: '',
    confirmation: {},
  });
  expect(sent.ok).toBe(true);
  await app.core.profiles.profiles.save({
    name: 'Main store',
    environment: 'custom',
    baseUrl: 'https://pay.example.com',
    merchantNo: '200999',
    storeNo: '300999',
    ipnEnabled: false,
  });

  await page.goto(app.host.url);
  const header = page.getByTestId('active-profile');
  await expect(header.getByLabel('Active profile')).toHaveValue(demoId);
  await expect(header.getByTestId('env-badge')).toHaveText('No real money');
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  const rows = page.getByTestId('refunds-table').locator('tbody tr');
  await expect(rows).toHaveCount(1);

  // Switch from the header: a custom address that is not this computer is live money.
  await header.getByLabel('Active profile').selectOption({ label: 'Main store' });
  await expect(header.getByTestId('env-badge')).toHaveText('LIVE MONEY');
  await expect(header).toHaveAttribute('data-money-mode', 'live');
  await expect(rows).toHaveCount(0);
  await expect(page.getByText('No refunds yet.', { exact: false })).toBeVisible();
  await page.screenshot({ path: shotPath('header-live-profile') });
  // The Audit log too: this profile's entries only, unless "All profiles" is ticked.
  await page.getByRole('button', { name: 'Audit', exact: true }).click();
  await expect(page.getByTestId('audit-table').locator('tbody tr')).toHaveCount(0);
  await page.getByLabel(/All profiles/).check();
  await expect(page.getByTestId('audit-table').locator('tbody tr')).not.toHaveCount(0);

  // And back.
  await header.getByLabel('Active profile').selectOption({ label: 'Demo' });
  await expect(header.getByTestId('env-badge')).toHaveText('No real money');
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  await expect(rows).toHaveCount(1);
});
