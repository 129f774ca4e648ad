import { freshPayment } from './demo-payments';
import { expect, test } from './fixtures';
import { look } from './looks';

/**
 * Issue 29 item 6, "a payment's timeline": the detail panel lists what this desk knows happened to the
 * payment (refunds, the service's notifications, checks, notes) with person and time, newest first, and
 * takes a note that is kept with the payment. Looked at with axe (light and dark).
 */
test.describe.configure({ timeout: 180_000 });

const used = new Set<string>();

test('the detail panel shows the payment’s timeline, takes a note and lists it with person and time', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used, 'USD', 5_000);
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
    operatorName: 'Ana Lima',
  });
  await page.setViewportSize({ width: 1440, height: 900 });
  await page.goto(app.host.url);
  await page.getByLabel('Look up a transaction').fill(pay.transactionNo);
  await page.getByLabel('Look up a transaction').press('Enter');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(pay.transactionNo);
  const detail = page.getByTestId('tx-detail');
  await expect(detail.getByRole('heading', { name: 'Timeline' })).toBeVisible();

  // A refund made elsewhere on this desk appears without reloading (refunds.updated refreshes it).
  const refund = await app.core.dispatch('refunds.submit', {
    profileId: demo.id,
    transactionNo: pay.transactionNo,
    amountMinor: 1_200,
    currency: 'USD',
    reasonCode: 'customer_request',
    reasonNote: 'timeline e2e',
    confirmation: {},
  });
  expect(refund.ok).toBe(true);
  const timeline = detail.getByTestId('payment-timeline');
  // The look-up that opened the panel is on it, by this person.
  await expect(timeline.locator('li[data-source="lookup"]').first()).toContainText(
    'Looked up by transaction number',
  );
  await expect(timeline.locator('li[data-source="lookup"]').first()).toContainText('Ana Lima');
  await expect(timeline.locator('li[data-source="refund"]').first()).toContainText('Ana Lima');

  // A note with a hiding character is refused, saying so; nothing is kept.
  const field = detail.getByLabel('Add note');
  await field.fill('Refund \u202E00.21 approved');
  await detail.getByRole('button', { name: 'Add note' }).click();
  await expect(detail.getByRole('alert')).toContainText('note');
  await expect(timeline.locator('li[data-source="note"]')).toHaveCount(0);

  await field.fill('Customer called: told them 12.00 is on its way.');
  await detail.getByRole('button', { name: 'Add note' }).click();
  const note = timeline.locator('li[data-source="note"]');
  await expect(note).toHaveCount(1);
  await expect(note).toContainText('Customer called: told them 12.00 is on its way.');
  await expect(note).toContainText('Ana Lima');
  await expect(note.locator('time')).toHaveAttribute('datetime', /^\d{4}-\d\d-\d\dT/);
  // Newest first: the note is above the refund it came after (the refund's own later outcome may be above).
  const order = await timeline.locator('li').evaluateAll((items) => items.map((li) => li.textContent ?? ''));
  const noteAt = order.findIndex((t) => t.startsWith('Note'));
  const acceptedAt = order.findIndex((t) => t.startsWith('Refund accepted'));
  expect(noteAt).toBeGreaterThanOrEqual(0);
  expect(acceptedAt).toBeGreaterThan(noteAt);
  await expect(field).toHaveValue('');
  await timeline.scrollIntoViewIfNeeded();
  await look(page, 'day-one-timeline');
});
