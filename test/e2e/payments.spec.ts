import { readFileSync } from 'node:fs';
import type { Download, Page } from '@playwright/test';
import { CARD_3DS } from '../../electron/sandbox';
import { filesUnder, scanForCard } from '../integration/payments/card-scan';
import { expect, shotPath, test } from './fixtures';

const CVV = '7391';
const SIZES = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;

/** Screenshots of the current screen at both sizes the issue asks for. */
async function shoot(page: Page, name: string) {
  for (const size of SIZES) {
    await page.setViewportSize(size);
    await page.screenshot({ path: shotPath(`payments-${name}-${size.width}x${size.height}`) });
  }
  await page.setViewportSize(SIZES[0]);
}

const tab = (page: Page, name: string) => page.getByRole('tab', { name, exact: true }).click();
const detail = (page: Page) => page.getByTestId('payment-detail');
const text = async (d: Download) => readFileSync((await d.path()) ?? '', 'utf8');

/**
 * Presses the button that submits a payer's page (hosted checkout, 3-D Secure), waits until the page it
 * leads to has loaded, then closes the page. Closing while that navigation commits can leave Chromium's
 * close unanswered for ever (a known race), which once cost this test its whole time budget.
 */
async function submitAndClose(p: Page, button: string, from: RegExp) {
  await p.getByRole('button', { name: button }).click();
  await p.waitForURL((u) => !from.test(u.pathname), { waitUntil: 'load' });
  await p.close();
}

test('back-office payments in the Demo: customer, link paid through the hosted page, whitelabel, 3-D Secure card with Save card, stored-method charge, refund — and no card data anywhere', async ({
  page,
  app,
  context,
}) => {
  test.setTimeout(180_000);
  // Where the time goes, printed with the test's output: a slow step is then named, not guessed.
  const t0 = Date.now();
  const mark = (step: string) =>
    console.log(`payments e2e: ${((Date.now() - t0) / 1000).toFixed(1)} s ${step}`);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  // Everything main sends the renderer: replies and events, to be searched for card data at the end.
  const replies: string[] = [];
  const events: string[] = [];
  const dispatch = app.core.dispatch;
  app.core.dispatch = async (channel, input) => {
    const r = await dispatch(channel, input);
    replies.push(JSON.stringify(r));
    return r;
  };
  app.core.events.subscribe((event, payload) => events.push(JSON.stringify({ event, payload })));
  const exports: Record<string, string> = {};

  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Payments', exact: true }).click();
  await expect(page.getByRole('tab', { name: 'Payments', exact: true })).toHaveAttribute(
    'aria-selected',
    'true',
  );
  await expect(page.getByText('No payments yet.')).toBeVisible();

  mark('shell loaded');
  // 1. Register a customer: field-level messages first, then the service's answer.
  await tab(page, 'Customers');
  await page.getByRole('button', { name: 'Register customer…' }).click();
  const form = page.getByRole('form', { name: 'Register a customer' });
  await form.getByLabel('First name').fill('Ana');
  await form.getByLabel('Last name').fill('Lima');
  await form.getByLabel('Email').fill('ana@');
  await form.getByLabel('Country code').fill('US');
  await form.getByRole('button', { name: 'Register customer' }).click();
  await expect(form.getByTestId('error-pm-cu-email')).toContainText('email address');
  await expect(form.getByTestId('error-pm-cu-state')).toContainText('state for a US customer');
  await form.getByLabel('Email').fill('ana.lima@example.com');
  await form.getByLabel('State').selectOption('CA');
  await form.getByLabel('Your customer code (optional)').fill('C-1001');
  await form.getByLabel('Date of birth (optional)').fill('1990-04-01');
  await form.getByRole('button', { name: 'Register customer' }).click();
  const customer = page.getByTestId('customer-detail');
  await expect(customer.getByRole('heading', { name: 'Ana Lima' })).toBeVisible();
  const customerNo = (await customer.locator('dd.mono').first().textContent()) ?? '';
  expect(customerNo).toMatch(/^\d{22}$/);
  await expect(page.getByTestId('customers-table')).toContainText('ana.lima@example.com');

  mark('customer registered');
  // 2. A payment link, completed through the sandbox's hosted checkout page; the app sees it by itself.
  await tab(page, 'New payment');
  await page.getByRole('radio', { name: /Payment link/ }).check();
  const link = page.getByRole('form', { name: 'New payment link' });
  await link.getByLabel('Amount (USD)').fill('25.00');
  await link.getByLabel('Description (optional)').fill('Phone order 1042');
  await link.getByRole('button', { name: 'Add item' }).click();
  await link.getByLabel('Item 1 name').fill('Blue mug');
  await link.getByLabel('Item 1 quantity').fill('2');
  await link.getByLabel('Customer (optional)').selectOption({ label: 'Ana Lima · ana.lima@example.com' });
  await link.getByLabel('Unpaid, it closes after').selectOption({ label: '30 minutes' });
  const linkRef = await link.getByLabel('Reference').inputValue();
  await link.getByRole('button', { name: 'Create payment link' }).click();
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('Created — not paid yet');
  await expect(detail(page).getByTestId('payment-qr').locator('svg')).toBeVisible();
  const cashierUrl = await detail(page).getByLabel('Payment link (cashierUrl)').inputValue();
  expect(cashierUrl).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/checkout\/[0-9a-f]{32}$/);
  await detail(page).getByRole('button', { name: 'Copy' }).click();
  await expect(detail(page).getByText('Copied.')).toBeVisible();
  await shoot(page, 'link-created');

  mark('link created');
  const payer = await context.newPage();
  await payer.goto(cashierUrl);
  await expect(payer.getByRole('heading', { name: 'Checkout' })).toBeVisible();
  await expect(payer.getByText('25.00 USD')).toBeVisible();
  await submitAndClose(payer, 'Pay', /^\/checkout\/[0-9a-f]{32}$/);
  mark('link paid by the payer');
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('Paid', { timeout: 20_000 });
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('Money moved: yes');
  const linkTx = (await detail(page).locator('dt:text-is("Transaction") + dd').textContent()) ?? '';
  expect(linkTx).toMatch(/^\d{18}$/);

  // It is in Transactions (the renderer's cache) as a successful payment, without anyone searching.
  await page.getByRole('button', { name: 'Transactions', exact: true }).click();
  const txRow = page.locator(`[data-testid="tx-row"][data-transaction-no="${linkTx}"]`);
  await expect(txRow).toBeVisible();
  await expect(txRow).toContainText('Successful');
  await page.getByRole('button', { name: 'Payments', exact: true }).click();

  mark('link seen as paid');
  // 3. Whitelabel: SDK initialization data to copy, followed to its final status like a link.
  await tab(page, 'New payment');
  await page.getByRole('radio', { name: /Whitelabel/ }).check();
  const wl = page.getByRole('form', { name: 'New whitelabel payment' });
  await expect(wl.getByLabel('Payment method').locator('option')).toHaveText([
    'Credit card',
    'PayPal',
    'Venmo',
    'Apple Pay',
    'Google Pay',
  ]);
  await wl.getByLabel('Amount (USD)').fill('12.00');
  await wl.getByRole('button', { name: 'Create whitelabel payment' }).click();
  const sdk = detail(page).getByLabel(/SDK initialization data for PayPal/);
  await expect(sdk).toBeVisible();
  const sdkData = JSON.parse(Buffer.from(await sdk.inputValue(), 'base64').toString('utf8')) as {
    transactionNo: string;
  };
  await shoot(page, 'whitelabel-created');
  expect(app.core.demoSandbox()!.completePayment(sdkData.transactionNo, 'success')).toBe(true);
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('Paid', { timeout: 20_000 });

  mark('whitelabel paid');
  // 4. Card with 3-D Secure and Save card: the card is cleared from the form as soon as it is sent.
  await page.getByRole('radio', { name: /Card \(virtual terminal\)/ }).check();
  const cardForm = page.getByRole('form', { name: 'Card payment' });
  await cardForm.getByLabel('Amount (USD)').fill('42.00');
  await cardForm.getByLabel(/^Customer/).selectOption({ label: 'Ana Lima · ana.lima@example.com' });
  await cardForm.getByLabel('Card number').fill('4000 0000 0000 3221');
  await cardForm.getByLabel('Expiry month').selectOption('12');
  await cardForm.getByLabel('Expiry year').fill('2031');
  await cardForm.getByLabel('Security code').fill(CVV);
  await cardForm.getByLabel(/Save card on the customer/).check();
  await cardForm.getByRole('button', { name: 'Charge 42.00 USD' }).click();
  await expect(cardForm.getByTestId('error-pm-card-number')).toContainText('check digit');
  await cardForm.getByLabel('Card number').fill('4000 0000 0000 3220');
  await shoot(page, 'card-form');
  await cardForm.getByRole('button', { name: 'Charge 42.00 USD' }).click();
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('Waiting for the 3-D Secure check');
  await expect(cardForm.getByLabel('Card number')).toHaveValue('');
  await expect(cardForm.getByLabel('Security code')).toHaveValue('');
  const authUrl = await detail(page).getByLabel('3-D Secure page').inputValue();
  expect(authUrl).toMatch(/\/3ds\/[0-9a-f]{32}$/);
  await shoot(page, 'card-3ds-waiting');
  mark('card waiting for 3-D Secure');
  const bank = await context.newPage();
  await bank.goto(authUrl);
  await expect(bank.getByRole('heading', { name: '3-D Secure check' })).toBeVisible();
  await submitAndClose(bank, 'Approve', /^\/3ds\/[0-9a-f]{32}$/);
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('Paid', { timeout: 20_000 });
  await expect(detail(page).getByTestId('payment-outcome')).toContainText('The card is stored on Ana Lima', {
    timeout: 20_000,
  });

  mark('card paid and stored');
  // 5. Charge the stored method from the customer's page, through a confirmation step.
  await tab(page, 'Customers');
  await page.getByRole('button', { name: 'Ana Lima' }).click();
  const methods = page.getByTestId('stored-methods');
  await expect(methods).toContainText(/Card •••• 3220 pp_…[0-9a-f]{4}/);
  await shoot(page, 'customer');
  await methods.getByRole('button', { name: 'Charge…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Amount (USD)').fill('15.00');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await expect(dialog.getByTestId('charge-amount')).toHaveText('15.00 USD');
  await expect(dialog.getByTestId('environment-note')).toContainText('no real money moves');
  await expect(dialog.getByTestId('charge-summary')).toContainText(customerNo);
  await shoot(page, 'charge-confirm');
  await dialog.getByRole('button', { name: 'Charge 15.00 USD' }).click();
  await expect(dialog.getByTestId('payment-outcome')).toContainText('Paid');
  await dialog.getByRole('button', { name: 'Close', exact: true }).last().click();
  await expect(customer.getByRole('table')).toContainText('Stored-method charge');

  mark('stored method charged');
  // 6. Refund one of them through the existing refund flow.
  await tab(page, 'Payments');
  await page.getByRole('button', { name: linkRef }).click();
  await detail(page).getByRole('button', { name: 'Refund…' }).click();
  const refund = page.getByRole('dialog');
  await expect(refund.getByTestId('remaining-now')).toHaveText('25.00 USD');
  await refund.getByLabel('Refund amount (USD)').fill('5.00');
  await refund.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await refund.getByRole('button', { name: 'Continue' }).click();
  await refund.getByRole('button', { name: 'Refund 5.00 USD' }).click();
  await expect(
    refund.getByText('Accepted — not final yet').or(refund.getByText('Refund completed')),
  ).toBeVisible();
  await refund.getByRole('button', { name: 'Close' }).first().click();
  await shoot(page, 'list');

  mark('refunded');
  // Exports: payments, payments audit, refunds.
  const download = async (click: () => Promise<void>) => {
    const [d] = await Promise.all([page.waitForEvent('download'), click()]);
    return text(d);
  };
  exports['payments.csv'] = await download(() =>
    page.getByRole('search', { name: 'Filter payments' }).getByRole('button', { name: 'Export CSV' }).click(),
  );
  expect(exports['payments.csv']).toContain(linkRef);
  expect(exports['payments.csv']).toContain('3220');
  // Excel is a workbook (a zip), not the CSV under another name.
  const [workbook] = await Promise.all([
    page.waitForEvent('download'),
    page
      .getByRole('search', { name: 'Filter payments' })
      .getByRole('button', { name: 'Export Excel' })
      .click(),
  ]);
  expect(workbook.suggestedFilename()).toMatch(/^payments-.+\.xlsx$/);
  expect(
    readFileSync((await workbook.path()) ?? '')
      .subarray(0, 2)
      .toString('latin1'),
  ).toBe('PK');
  await tab(page, 'Audit');
  await expect(page.getByTestId('payment-audit-table')).toContainText('Card stored');
  await shoot(page, 'audit');
  exports['payments-audit.csv'] = await download(() =>
    page.getByRole('button', { name: 'Export CSV' }).click(),
  );
  expect(exports['payments-audit.csv']).toContain('customer.register');
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  exports['refunds.csv'] = await download(() => page.getByRole('button', { name: 'Export CSV' }).click());

  // The renderer's own storage: the IndexedDB cache and web storage.
  const renderer = await page.evaluate(async () => {
    const db = await new Promise<IDBDatabase>((resolve, reject) => {
      const r = indexedDB.open('refund-desk');
      r.onsuccess = () => resolve(r.result);
      r.onerror = () => reject(r.error);
    });
    const dump: Record<string, unknown[]> = {};
    for (const name of Array.from(db.objectStoreNames)) {
      dump[name] = await new Promise<unknown[]>((resolve) => {
        const req = db.transaction(name).objectStore(name).getAll();
        req.onsuccess = () => resolve(req.result as unknown[]);
      });
    }
    db.close();
    return JSON.stringify({ dump, local: { ...localStorage }, session: { ...sessionStorage } });
  });
  expect(renderer).toContain(linkTx);

  await app.core.demoSandbox()!.flush();
  const hits = scanForCard({
    dir: app.dataDir,
    numbers: [CARD_3DS, '4000000000003221'],
    cvv: CVV,
    texts: {
      'IPC replies': replies.join('\n'),
      'IPC events': events.join('\n'),
      ...exports,
      'renderer storage': renderer,
    },
  });
  expect(hits).toEqual([]);
  expect(filesUnder(app.dataDir)).toEqual(
    expect.arrayContaining([
      'refund-desk.db',
      'refund-desk.db-wal',
      'logs/browser.jsonl',
      'demo-sandbox.json',
    ]),
  );
  expect(errors).toEqual([]);
});

test('live money: the card form shows the PCI DSS scope warning first, and main refuses a card payment without it', async ({
  page,
  app,
}) => {
  const live = await app.core.profiles.profiles.save({
    name: 'Main store',
    environment: 'production',
    merchantNo: '200043',
    storeNo: '300014',
    ipnEnabled: false,
    operatorName: 'Ana Lima',
  });
  await app.core.profiles.profiles.activate(live.id);
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Payments', exact: true }).click();
  // The Payments area says it too, beside the header's badge.
  await expect(
    page.getByRole('tablist', { name: 'Payments' }).getByText('LIVE MONEY', { exact: true }),
  ).toBeVisible();
  await expect(page.getByTestId('env-badge')).toHaveText('LIVE MONEY');
  await tab(page, 'New payment');
  await page.getByRole('radio', { name: /Card \(virtual terminal\)/ }).check();
  const warning = page.getByTestId('pci-warning');
  await expect(warning).toContainText('PCI DSS scope');
  await expect(page.getByLabel('Card number')).toHaveCount(0);
  await shoot(page, 'pci-warning');
  await warning.getByRole('button', { name: /I understand/ }).click();
  const form = page.getByRole('form', { name: 'Card payment' });
  await expect(form.getByLabel('Card number')).toBeVisible();
  await expect(form.getByText('LIVE MONEY: this charges a real card.')).toBeVisible();
  // Acknowledged once per profile on this computer: it is not asked again.
  await tab(page, 'Payments');
  await tab(page, 'New payment');
  await page.getByRole('radio', { name: /Card \(virtual terminal\)/ }).check();
  await expect(page.getByTestId('pci-warning')).toHaveCount(0);

  // A renderer that skips the warning is refused by main before anything is recorded or sent.
  const r = await app.core.dispatch('payments.captureCard', {
    profileId: live.id,
    amountMinor: 100,
    currency: 'USD',
    reference: 'LIVE-1',
    saveCard: false,
    card: { number: '4242424242424242', expMonth: '12', expYear: '2031', cvv: CVV },
  });
  expect(r).toMatchObject({
    ok: false,
    error: { code: 'invalid_input', details: { requires: ['pci_acknowledgement'] } },
  });
  expect(await app.core.dispatch('payments.list', { allProfiles: true })).toMatchObject({
    ok: true,
    value: [],
  });
});
