import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import ExcelJS from 'exceljs';
import { DEMO_MERCHANT } from '../../electron/sandbox';
import type { PaymentRecord } from '../../electron/sandbox/types';
import { parseCsvText } from '../../shared/csv/parser';
import type { Currency } from '../../shared/domain/currencies';
import { formatMinor } from '../../shared/domain/money';
import { readXlsx } from '../fakes/xlsx-reader';
import { expectAccessible } from './axe';
import { expect, type HostFixture, shotPath, test } from './fixtures';

/**
 * Refunds → Batch through the screen (issue 27): a 200-row workbook against the Demo sandbox — sheet,
 * columns, dry run with every row's class, one confirmation, progress with pause and resume, the report
 * with CSV and Excel — counted at the sandbox; then the same file again: nothing left to do.
 */

const ROWS = 200;
const XLSX = 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet';

/** The operator's name is set in Settings; here straight through the profiles service. */
async function setOperator(app: HostFixture, operatorName: string) {
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
  });
}

/** 200 successful Demo payments with nothing refunded, straight from the sandbox's state. */
function freshPayments(app: HostFixture): PaymentRecord[] {
  const ps = app.core
    .demoSandbox()!
    .state.snapshot()
    .payments.filter(
      (p) =>
        p.merchantNo === DEMO_MERCHANT.merchantNo &&
        p.storeNo === DEMO_MERCHANT.storeNo &&
        p.status === 'success' &&
        p.refunds.length === 0 &&
        p.amountMinor >= 500,
    )
    .slice(0, ROWS);
  if (ps.length < ROWS) throw new Error(`only ${ps.length} fresh payments in the Demo seed`);
  return ps;
}

/** Every 20th row refunds what remains (`full`), the others 1.00 (or 100 of a currency without decimals). */
const amountOf = (p: PaymentRecord, i: number) => (i % 20 === 19 ? p.amountMinor : 100);

async function workbook(ps: PaymentRecord[]): Promise<Buffer> {
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Read me').addRow(['Claims approved by customer service, week 47']);
  const ws = wb.addWorksheet('Claims');
  ws.addRow(['Transaction No', 'Refund amount', 'Currency', 'Reason', 'Claim ID']);
  ps.forEach((p, i) =>
    ws.addRow([
      p.transactionNo,
      i % 20 === 19 ? 'full' : formatMinor(100, p.currency as Currency),
      p.currency,
      'product recall',
      `CLM-${1000 + i}`,
    ]),
  );
  return Buffer.from(await wb.xlsx.writeBuffer());
}

async function openFile(page: Page, buffer: Buffer) {
  await page.getByTestId('batch-file').setInputFiles({ name: 'claims.xlsx', mimeType: XLSX, buffer });
  await expect(page.getByRole('heading', { name: 'Match the columns of claims.xlsx' })).toBeVisible();
  const sheet = page.getByTestId('batch-sheet');
  if ((await sheet.inputValue()) !== 'Claims') await sheet.selectOption('Claims');
  await expect(page.getByTestId('batch-file-facts')).toContainText('Excel workbook, sheet “Claims”');
}

test('a 200-row workbook: dry run, one confirmation, progress, report (CSV, Excel), counted at the sandbox; the same file again has nothing left to do', async ({
  page,
  app,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await setOperator(app, 'Bea Batch');
  const sandbox = app.core.demoSandbox()!;
  const ps = freshPayments(app);
  const nos = new Set(ps.map((p) => p.transactionNo));
  const refundsAtSandbox = () => sandbox.state.snapshot().refunds.filter((r) => nos.has(r.transactionNo));
  const expected = new Map<string, { minor: number; rows: number }>();
  ps.forEach((p, i) => {
    const t = expected.get(p.currency) ?? { minor: 0, rows: 0 };
    expected.set(p.currency, { minor: t.minor + amountOf(p, i), rows: t.rows + 1 });
  });
  const buffer = await workbook(ps);

  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Refunds', exact: true }).click();
  await page.getByRole('tab', { name: 'Batch' }).click();
  await openFile(page, buffer);
  // The columns are guessed from the headers.
  await expect(page.getByLabel('Transaction number', { exact: true })).toHaveValue('Transaction No');
  await expect(page.getByLabel('Amount to refund (or “full”)', { exact: true })).toHaveValue('Refund amount');
  await expect(page.getByLabel('Currency', { exact: true })).toHaveValue('Currency');
  await expect(page.getByLabel('Reason', { exact: true })).toHaveValue('Reason');
  await expect(page.getByLabel('Row reference (optional)', { exact: true })).toHaveValue('Claim ID');
  await expectAccessible(page, 'batch-mapping');
  await page.getByRole('button', { name: `Dry run: check ${ROWS} rows` }).click();

  // Dry run: every row counted and classed; totals per currency, never summed across them.
  await expect(page.getByTestId('batch-row-accounting')).toHaveText(
    `${ROWS} data rows in the file = ${ROWS} read + 0 that cannot be used`,
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('batch-counts').locator('[data-class="will_refund"]')).toHaveText(
    `${ROWS} Will refund`,
  );
  const totals = page.getByTestId('batch-totals');
  for (const [currency, t] of expected) {
    const line = totals.locator(`[data-currency="${currency}"]`);
    await expect(line).toHaveAttribute('data-minor', String(t.minor));
    await expect(line).toContainText(`in ${t.rows} ${t.rows === 1 ? 'row' : 'rows'}`);
  }
  await expect(totals.locator('li')).toHaveCount(expected.size);
  const dryRows = page.getByTestId('batch-dry-rows');
  await expect(dryRows.locator('tbody tr[data-line="2"]')).toContainText('Will refund');
  await expect(dryRows.locator('tbody tr[data-line="2"]')).toContainText(ps[0]!.transactionNo);
  // Virtualised: far fewer rows in the DOM than in the file.
  expect(await dryRows.locator('tbody tr:not(.spacer)').count()).toBeLessThan(ROWS);
  expect(refundsAtSandbox()).toHaveLength(0);
  await expectAccessible(page, 'batch-dry-run');
  await page.screenshot({ path: '/tmp/batch-dry-run.png', fullPage: true });
  await page.screenshot({ path: shotPath('batch-dry-run'), fullPage: true });

  // One confirmation: count, totals per currency, the profile and its money mode.
  await page.getByRole('button', { name: `Refund ${ROWS} rows…` }).click();
  const dialog = page.getByTestId('batch-confirm');
  await expect(dialog).toBeVisible();
  await expect(dialog.getByTestId('batch-confirm-rows')).toHaveText(String(ROWS));
  await expect(dialog.getByTestId('batch-confirm-totals').locator('li')).toHaveCount(expected.size);
  await expect(dialog).toContainText('Demo');
  await expect(dialog.getByTestId('batch-confirm-mode')).toHaveText('No real money');
  // Not a live-money profile: no total to type.
  await expect(dialog.getByTestId('batch-typed-totals')).toHaveCount(0);
  await expectAccessible(page, 'batch-confirm');
  await page.screenshot({ path: '/tmp/batch-confirm.png' });
  // Slow answers, so the run can be seen and paused.
  sandbox.setFaults({ endpoints: { refund: { latencyMs: 200 } } });
  try {
    await dialog.getByRole('button', { name: `Refund ${ROWS} rows` }).click();
    const progress = page.getByTestId('batch-progress');
    await expect(progress).toContainText(`of ${ROWS} rows done`);
    await page.getByRole('button', { name: 'Pause' }).click();
    await expect(progress).toContainText('paused');
    await page.screenshot({ path: '/tmp/batch-paused.png', fullPage: true });
    const atPause = refundsAtSandbox().length;
    expect(atPause).toBeLessThan(ROWS);
    await expect(progress).toContainText(`${atPause} of ${ROWS} rows done`);
    await page.getByRole('button', { name: 'Resume' }).click();
    await expect(progress).toContainText('left');
  } finally {
    sandbox.resetFaults();
  }

  // The report: every row with its outcome, refund transaction number, time and person.
  const counts = page.getByTestId('batch-report-counts');
  await expect(counts).toBeVisible({ timeout: 60_000 });
  await expect(counts.locator('[data-figure="refunded"]')).toHaveText(`${ROWS} Refunded`);
  await expect(page.getByTestId('batch-report-accounting')).toContainText(
    `${ROWS} data rows = ${ROWS} to send (${ROWS} refunded, 0 refused, 0 unknown, 0 cancelled)`,
  );
  const first = page.getByTestId('batch-report-rows').locator('tbody tr[data-line="2"]');
  await expect(first).toContainText('Bea Batch');
  await expect(first).toContainText(/\d{6,}/);
  await expectAccessible(page, 'batch-report');
  await page.screenshot({ path: '/tmp/batch-report.png', fullPage: true });
  await page.screenshot({ path: shotPath('batch-report'), fullPage: true });

  // Counted at the sandbox: exactly one refund per row, of the row's amount.
  const made = refundsAtSandbox();
  expect(made).toHaveLength(ROWS);
  ps.forEach((p, i) => {
    const mine = made.filter((r) => r.transactionNo === p.transactionNo);
    expect(mine).toHaveLength(1);
    expect(mine[0]!.refundAmountMinor).toBe(amountOf(p, i));
  });

  const [csv] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('batch-report-csv').click(),
  ]);
  expect(csv.suggestedFilename()).toMatch(/^refund-batch-report-Demo-\d{8}-\d{4}\.csv$/);
  const report = parseCsvText(readFileSync((await csv.path()) ?? '', 'utf8'));
  const col = (h: string) => report.headers.findIndex((x) => x === h || x.startsWith(`${h} (`));
  expect(report.rows).toHaveLength(ROWS);
  const byNo = new Map(made.map((r) => [r.transactionNo, r]));
  for (const r of report.rows) {
    expect(r.cells[col('Outcome')]).toMatch(/^(accepted|succeeded)$/);
    expect(r.cells[col('Person')]).toBe('Bea Batch');
    expect(r.cells[col('Time')]).toMatch(/^\d{4}-\d{2}-\d{2}T/);
    expect(r.cells[col('Refund transaction no.')]).toBe(
      byNo.get(r.cells[col('Transaction no.')]!)?.refundTransactionNo,
    );
  }
  const [xlsx] = await Promise.all([
    page.waitForEvent('download'),
    page.getByTestId('batch-report-xlsx').click(),
  ]);
  expect(xlsx.suggestedFilename()).toMatch(/^refund-batch-report-Demo-\d{8}-\d{4}\.xlsx$/);
  const book = readXlsx(readFileSync((await xlsx.path()) ?? ''));
  expect(book.cells.filter((c) => /^A\d+$/.test(c.ref))).toHaveLength(ROWS + 1);

  // The same file again: every row recognised as refunded by that batch, nothing left to do.
  await page.getByRole('button', { name: 'Refund another list' }).click();
  await openFile(page, buffer);
  await expect(page.getByTestId('batch-file-facts')).toContainText('remembered');
  await page.getByRole('button', { name: `Dry run: check ${ROWS} rows` }).click();
  await expect(page.getByTestId('batch-counts').locator('[data-class="already_refunded"]')).toHaveText(
    `${ROWS} Already refunded by a batch`,
    { timeout: 30_000 },
  );
  await expect(page.getByTestId('batch-counts').locator('li')).toHaveCount(1);
  await expect(page.getByTestId('batch-nothing-to-do')).toContainText('every row was already refunded');
  await expect(page.getByRole('button', { name: 'Refund 0 rows…' })).toBeDisabled();
  await page.screenshot({ path: '/tmp/batch-again.png', fullPage: true });
  expect(refundsAtSandbox()).toHaveLength(ROWS);
  expect(errors).toEqual([]);
});
