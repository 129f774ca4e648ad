import type { Guardrails } from '../../shared/domain/guardrails';
import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { formatMinor } from '../../shared/domain/money';
import { freshPayment } from './demo-payments';
import { expect, type HostFixture, shotPath, test } from './fixtures';

/** The real path a person takes without the transactions screen: Refunds → "Refund a payment by transaction number". */
async function openDialog(page: Page, transactionNo: string) {
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  await page.getByLabel('Refund a payment by transaction number').fill(transactionNo);
  await page.getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('remaining-now')).toBeVisible();
  return dialog;
}

/** The operator's name is set in Settings; here straight through the profiles service. */
async function setOperator(app: HostFixture, operatorName: string, guardrails?: Guardrails) {
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
    ...(guardrails ? { guardrails } : {}),
  });
}

const used = new Set<string>();

test('refund dialog: running remaining amount, strict parsing, reason, confirmation, one accepted refund; Refunds, Audit and CSV show it', async ({
  page,
  app,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const pay = freshPayment(app, used);
  const full = formatMinor(pay.amountMinor, 'USD');
  await setOperator(app, 'Ana Lima');
  await page.goto(app.host.url);
  const dialog = await openDialog(page, pay.transactionNo);
  await expect(dialog).toHaveAttribute('aria-modal', 'true');
  await expect(dialog.getByRole('heading', { name: `Refund payment ${pay.transactionNo}` })).toBeVisible();

  const amount = dialog.getByLabel('Refund amount (USD)');
  const after = dialog.getByTestId('remaining-after');
  // Full amount by default, focused, leaving nothing.
  await expect(amount).toHaveValue(full);
  await expect(amount).toBeFocused();
  await expect(after).toContainText('0.00 USD');
  // The remaining amount follows every keystroke.
  await amount.fill('');
  await amount.pressSequentially('2.5');
  await expect(after).toContainText(`${formatMinor(pay.amountMinor - 250, 'USD')} USD`);
  // Over what remains: a clear message, Continue blocked, and no "0.00 remaining" beside it.
  await amount.fill(formatMinor(pay.amountMinor + 1, 'USD'));
  await expect(dialog.getByTestId('amount-message')).toContainText('more than remains refundable');
  await expect(after).not.toContainText('0.00');
  await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled();
  // Unreadable, negative or ambiguous amounts block Continue too.
  for (const [bad, says] of [
    ['1.0055', 'at most 2 decimals'],
    ['abc', 'Type an amount such as'],
    ['-5', 'greater than zero'],
    ['1,5', 'Did you mean 1.5?'],
  ] as const) {
    await amount.fill(bad);
    await expect(dialog.getByTestId('amount-message')).toContainText(says);
    await expect(dialog.getByRole('button', { name: 'Continue' })).toBeDisabled();
  }
  await amount.fill('2.50');
  await expect(after).toContainText(`${formatMinor(pay.amountMinor - 250, 'USD')} USD`);
  await page.screenshot({ path: shotPath('refund-dialog-amount') });

  // Reason required; "other" requires a note. Enter advances (it submits the step's form).
  await amount.press('Enter');
  await expect(dialog.getByTestId('reason-message')).toHaveText('Choose a reason for the refund.');
  await expect(dialog.getByLabel('Reason', { exact: true })).toBeFocused();
  await dialog.getByLabel('Reason', { exact: true }).selectOption('other');
  await dialog.getByLabel('Reason', { exact: true }).press('Enter');
  await expect(dialog.getByTestId('reason-message')).toHaveText('Explain the reason in the note.');
  await dialog.getByLabel(/^Note/).fill('Customer returned one item');
  await dialog.getByRole('button', { name: 'Continue' }).click();

  // Confirmation: exactly what will be sent.
  await expect(dialog.getByRole('heading', { name: 'Confirm the refund' })).toBeVisible();
  await expect(dialog.getByTestId('confirm-amount')).toHaveText('2.50 USD');
  const summary = dialog.getByTestId('confirm-summary');
  await expect(summary).toContainText(pay.transactionNo);
  await expect(summary).toContainText(pay.reference);
  await expect(summary).toContainText('Demo');
  await expect(summary).toContainText('Demo (built-in sandbox)');
  await expect(summary).toContainText('Ana Lima');
  await expect(summary).toContainText('Customer returned one item');
  await expect(dialog.getByTestId('environment-note')).toContainText('no real money moves');
  await expect(dialog.getByTestId('production-banner')).toHaveCount(0);
  await page.screenshot({ path: shotPath('refund-dialog-confirm') });

  // A double-click sends exactly one refund.
  await dialog.getByRole('button', { name: 'Refund 2.50 USD' }).dblclick();
  const result = dialog.getByTestId('refund-result');
  await expect(result).toBeVisible();
  // Accepted is not final: the service may still fail it, so money moved is "pending", never "yes".
  await expect(result).toContainText('Accepted — not final yet');
  await expect(result).toContainText('Money moved: pending');
  await expect(result).not.toContainText('Money moved: yes');
  const refundNo = (await dialog.getByTestId('refund-transaction-no').textContent()) ?? '';
  expect(refundNo).toMatch(/^\d{10,}$/);
  await page.screenshot({ path: shotPath('refund-dialog-result') });
  const atService = app.core.demoSandbox()?.state.payment(pay.transactionNo)?.refunds ?? [];
  expect(atService).toEqual([refundNo]);
  expect(app.core.demoSandbox()?.state.refund(refundNo)?.refundAmountMinor).toBe(250);

  // Escape closes; the Refunds view lists it (live).
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = page.getByTestId('refunds-table').getByRole('row').filter({ hasText: pay.transactionNo });
  await expect(row).toHaveCount(1);
  await expect(row).toContainText('2.50 USD');
  await expect(row).toContainText(refundNo);
  await expect(row).toContainText(/Accepted|Refunded/);
  await page.screenshot({ path: shotPath('refund-refunds-view') });

  // Audit shows the attempt and exports it through the shared CSV writer.
  await page.getByRole('button', { name: 'Audit', exact: true }).click();
  const auditRow = page.getByTestId('audit-table').getByRole('row').filter({ hasText: pay.transactionNo });
  await expect(auditRow.first()).toContainText('2.50 USD');
  await page.screenshot({ path: shotPath('refund-audit-view') });
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: 'Export CSV' }).click(),
  ]);
  expect(download.suggestedFilename()).toMatch(/^audit-Demo-\d{8}-\d{4}\.csv$/);
  const csv = readFileSync((await download.path()) ?? '', 'utf8');
  expect(csv.split('\r\n')[0]).toMatch(
    /^\uFEFFTime \([^)]+\),Operator,Profile,Environment,Transaction no\.,Amount,Currency,Reason,Reason code,Note,Outcome,Outcome code,Service code,Service message,Refund no\.,Refund Desk reference$/,
  );
  const line = csv.split('\r\n').find((l) => l.includes(pay.transactionNo) && l.includes(',accepted,'));
  // A time with its offset; ids as plain digits for machines; the amount a plain decimal beside its
  // currency; the reason and outcome in words with their codes beside them.
  expect(line).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2}),/);
  expect(line).toContain(
    `,Ana Lima,Demo,Demo (built-in sandbox),${pay.transactionNo},2.50,USD,Other,other,Customer returned one item,Accepted,accepted,`,
  );
  expect(line).toContain(`,${refundNo},`);
  expect(errors).toEqual([]);
});

test('production and over-limit refunds need the extra confirmations before Submit is enabled', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used);
  // The Demo profile cannot be production; the renderer's side of the rule is what this checks, so the
  // preview is answered as a production profile with a low single-refund limit (main still enforces).
  await page.route('**/ipc/refunds.preview', async (route) => {
    const response = await route.fetch();
    const body = (await response.json()) as { ok: boolean; value?: Record<string, unknown> };
    if (body.ok && body.value) {
      body.value['environment'] = 'production';
      body.value['moneyMode'] = 'live';
      // The address stays the real one: submit names the account it confirmed, and main refuses a
      // refund confirmed for another address than the profile's.
      body.value['profileName'] = 'Main store';
      body.value['guardrails'] = { limits: [{ currency: 'USD', maxSingleMinor: 100 }] };
    }
    await route.fulfill({ response, json: body });
  });
  await page.goto(app.host.url);
  const dialog = await openDialog(page, pay.transactionNo);
  await dialog.getByLabel('Refund amount (USD)').fill('3.00');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('duplicate');
  await dialog.getByLabel('Reason', { exact: true }).press('Enter');
  await expect(dialog.getByTestId('production-banner')).toContainText('LIVE MONEY');
  await expect(dialog.getByTestId('limit-confirmation')).toContainText('single-refund limit of 1.00 USD');
  const submit = dialog.getByRole('button', { name: 'Refund 3.00 USD' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('I confirm this refund above the limit.').check();
  await expect(submit).toBeDisabled();
  const typed = dialog.getByLabel(/Type the amount again/);
  await typed.fill('3.01');
  await expect(dialog.getByText('That is not the same amount.')).toBeVisible();
  await expect(submit).toBeDisabled();
  await typed.fill('3.00');
  await expect(submit).toBeEnabled();
  await page.screenshot({ path: shotPath('refund-dialog-production') });
  await typed.press('Enter');
  await expect(dialog.getByTestId('refund-result')).toContainText('Accepted — not final yet');
});

test('an unknown outcome is shown as such, with the evidence and a Check again action; Esc, Tab and focus stay in the dialog', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used);
  await page.goto(app.host.url);
  const dialog = await openDialog(page, pay.transactionNo);
  // Tab cycles inside the dialog.
  for (let i = 0; i < 8; i += 1) {
    await page.keyboard.press('Tab');
    expect(await dialog.evaluate((d) => d.contains(document.activeElement))).toBe(true);
  }
  await dialog.getByLabel('Refund amount (USD)').fill('1.00');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  // The refund request fails with a 5xx: nobody can tell whether it was applied.
  app.core.demoSandbox()?.setFaults({ endpoints: { refund: { http5xxRate: 1 } } });
  await dialog.getByRole('button', { name: 'Refund 1.00 USD' }).click();
  const result = dialog.getByTestId('refund-result');
  await expect(result).toHaveAttribute('data-state', 'outcome_unknown');
  await expect(result).toContainText("We don't know yet whether money moved");
  await expect(result).toContainText('Money moved: unknown');
  await expect(result).toContainText('Last check');
  await page.screenshot({ path: shotPath('refund-dialog-unknown') });
  app.core.demoSandbox()?.resetFaults();
  await dialog.getByRole('button', { name: 'Check again' }).click();
  await expect(dialog.getByRole('button', { name: 'Check again' })).toBeEnabled();
  await page.keyboard.press('Escape');
  await expect(page.getByRole('dialog')).toHaveCount(0);
  const row = page.getByTestId('refunds-table').getByRole('row').filter({ hasText: pay.transactionNo });
  await expect(row).toHaveClass(/rd-row-unknown/);
  await expect(row.getByRole('button', { name: 'Check again' })).toBeVisible();
  await expect(page.getByText(/unknown outcome: we don’t know yet whether money moved/)).toBeVisible();
  // The way out needs checks over time first: the row says when it becomes possible (main's rule for
  // this profile: 3 checks over 120 minutes at least), and offers nothing to type before then.
  await expect(row.getByTestId('intent-evidence')).toContainText('none carries reference');
  await expect(row.getByTestId('close-later')).toHaveText(
    /^Close as not sent: possible after (\d{4}-\d\d-\d\d )?\d\d:\d\d \([12] more checks?\)$/,
  );
  await expect(row.getByRole('button', { name: 'Close as not sent…' })).toHaveCount(0);
  await expect(row).toHaveClass(/rd-row-unknown/);
  // A second refund of the same payment is refused in the dialog before anything is sent.
  await openDialog(page, pay.transactionNo);
  await expect(
    page.getByRole('dialog').getByRole('alert').filter({ hasText: 'still unresolved' }),
  ).toBeVisible();
  await expect(page.getByRole('dialog').getByRole('button', { name: 'Continue' })).toBeDisabled();
});

test('the transactions detail panel’s Refund… button opens the same dialog, and focus returns to it on close', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used);
  await page.goto(app.host.url);
  await page.getByLabel('Look up a transaction').fill(pay.transactionNo);
  await page.getByLabel('Look up a transaction').press('Enter');
  const refundButton = page.getByTestId('tx-detail').getByRole('button', { name: 'Refund…' });
  await expect(refundButton).toBeEnabled();
  await refundButton.click();
  const dialog = page.getByRole('dialog');
  await expect(dialog.getByRole('heading', { name: `Refund payment ${pay.transactionNo}` })).toBeVisible();
  await expect(dialog.getByLabel('Refund amount (USD)')).toHaveValue(formatMinor(pay.amountMinor, 'USD'));
  await page.keyboard.press('Escape');
  await expect(dialog).toHaveCount(0);
  await expect(refundButton).toBeFocused();
});

test('after a refund from the detail panel, its refund history and remaining amount update without Refresh', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used);
  await page.goto(app.host.url);
  await page.getByLabel('Look up a transaction').fill(pay.transactionNo);
  await page.getByLabel('Look up a transaction').press('Enter');
  const detail = page.getByTestId('tx-detail');
  await expect(detail.getByTestId('detail-remaining')).toContainText(formatMinor(pay.amountMinor, 'USD'));
  await detail.getByRole('button', { name: 'Refund…' }).click();
  const dialog = page.getByRole('dialog');
  await dialog.getByLabel('Refund amount (USD)').fill('5.00');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('customer_request');
  await dialog.getByRole('button', { name: 'Continue' }).click();
  await dialog.getByRole('button', { name: 'Refund 5.00 USD' }).click();
  await expect(dialog.getByTestId('refund-result')).toBeVisible();
  await page.keyboard.press('Escape');
  // No Refresh pressed: the accepted refund made the shell re-fetch this payment into the cache.
  await expect(detail.getByTestId('detail-refunds')).toContainText('5.00');
  await expect(detail.getByTestId('detail-remaining')).toContainText(
    formatMinor(pay.amountMinor - 500, 'USD'),
  );
});

test('a real over-limit refund (profile guardrails, enforced by main) needs the “I confirm” box before it is sent', async ({
  page,
  app,
}) => {
  const pay = freshPayment(app, used);
  await setOperator(app, 'Ana Lima', { limits: [{ currency: 'USD', maxSingleMinor: 200 }] });
  await page.goto(app.host.url);
  const dialog = await openDialog(page, pay.transactionNo);
  await dialog.getByLabel('Refund amount (USD)').fill('3.00');
  await dialog.getByLabel('Reason', { exact: true }).selectOption('goodwill');
  await dialog.getByLabel('Reason', { exact: true }).press('Enter');
  await expect(dialog.getByTestId('limit-confirmation')).toContainText('single-refund limit of 2.00 USD');
  const submit = dialog.getByRole('button', { name: 'Refund 3.00 USD' });
  await expect(submit).toBeDisabled();
  await dialog.getByLabel('I confirm this refund above the limit.').check();
  await submit.click();
  await expect(dialog.getByTestId('refund-result')).toContainText('Accepted — not final yet');
  expect(app.core.demoSandbox()?.state.payment(pay.transactionNo)?.refunds).toHaveLength(1);
});
