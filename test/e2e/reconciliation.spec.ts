import { resolve } from 'node:path';
import { buildDemoLedger } from '../../electron/cli/tools/demo-ledger';
import { OUTCOME_LABELS, RECON_OUTCOMES } from '../../shared/recon/match';
import { expect, shotPath, test } from './fixtures';

test('the demo ledger reconciles end to end in the UI with the expected counts per outcome', async ({
  page,
  app,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  const expected = buildDemoLedger().expected;
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  await page.getByRole('button', { name: 'Try with demo ledger' }).click();

  // Mapping step: guessed from the headers; the two bad rows are listed with their line numbers.
  await expect(page.getByRole('heading', { name: /Match the columns of demo-ledger.csv/ })).toBeVisible();
  await expect(page.getByLabel('Transaction number')).toHaveValue('Transaction No');
  await expect(page.getByTestId('recon-problems')).toContainText('Line 42: amount');
  await expect(page.getByTestId('recon-problems')).toContainText('Line 122: has no currency');
  await page.getByRole('button', { name: 'Check 200 rows against the service' }).click();

  // Report: counts per outcome.
  const counts = page.getByTestId('recon-counts');
  await expect(counts).toBeVisible({ timeout: 30_000 });
  for (const o of RECON_OUTCOMES) {
    const n = expected[o];
    if (n === 0) await expect(counts.locator(`[data-outcome="${o}"]`)).toHaveCount(0);
    else await expect(counts.locator(`[data-outcome="${o}"]`)).toHaveText(`${n} ${OUTCOME_LABELS[o]}`);
  }
  await expect(counts.locator('[data-outcome="unreadable"]')).toContainText(
    '2 unreadable rows (lines 42, 122)',
  );
  const exceptions = Object.entries(expected)
    .filter(([o]) => o !== 'matched')
    .reduce((a, [, n]) => a + n, 0);
  await expect(page.getByTestId('recon-row-count')).toHaveText(`${exceptions} rows`);
  await page.screenshot({ path: shotPath('reconciliation') });

  // Filters, and opening a row.
  await page.getByLabel('Outcome').selectOption('missing_at_service');
  await expect(page.getByTestId('recon-row-count')).toHaveText(`${expected.missing_at_service} rows`);
  // Every row is reachable: the table is virtualised, so only a window of rows is in the DOM.
  const total = Object.values(expected).reduce((a, n) => a + n, 0);
  await page.getByLabel('Outcome').selectOption('all');
  await expect(page.getByTestId('recon-row-count')).toHaveText(`${total} rows`);
  const dataRows = page.getByTestId('recon-items').locator('tbody tr:not(.spacer)');
  expect(await dataRows.count()).toBeLessThan(total);
  await page
    .getByTestId('recon-items')
    .evaluate((t) => t.parentElement!.scrollTo(0, t.parentElement!.scrollHeight));
  await expect(dataRows.last()).toContainText(/Duplicate|Matched|differs|Missing|Refunded/);
  const lastLine = Number(await dataRows.last().locator('td').first().innerText());
  expect(lastLine).toBeGreaterThan(190);
  await page.getByTestId('recon-items').scrollIntoViewIfNeeded();
  await page.screenshot({ path: shotPath('reconciliation-rows') });
  await page.getByLabel('Outcome').selectOption('exceptions');
  await page.getByTestId('recon-items').locator('tbody tr:not(.spacer)').first().click();
  await expect(page.getByTestId('recon-detail')).toBeVisible();
  await expect(page.getByTestId('recon-detail')).toContainText('Ledger');

  // Export: the report goes through the shared writer.
  const download = page.waitForEvent('download');
  await page.getByRole('button', { name: 'Export report CSV' }).click();
  const file = await download;
  const path = resolve(app.dataDir, 'report.csv');
  await file.saveAs(path);
  const { readFileSync } = await import('node:fs');
  const text = readFileSync(path, 'utf8');
  expect(text.startsWith('\uFEFFLine,Outcome,Outcome code,Matched by,Transaction no.')).toBe(true);
  expect(file.suggestedFilename()).toMatch(/^reconciliation-report-Demo-\d{8}-\d{4}\.csv$/);
  expect(text.split('\r\n').filter((l) => l.includes(',duplicate_in_ledger,'))).toHaveLength(
    expected.duplicate_in_ledger,
  );
  expect(errors).toEqual([]);
});

test('the parse worker runs under the CSP (same-origin module worker)', async ({ page, app }) => {
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  await page.getByTestId('recon-file').setInputFiles({
    name: 'ledger.csv',
    mimeType: 'text/csv',
    buffer: Buffer.from('reference;amount;currency\nINV-1;12,30;EUR\nINV-2;x;USD\n'),
  });
  await expect(page.getByRole('heading', { name: /Match the columns of ledger.csv/ })).toBeVisible();
  await expect(page.getByText('separator “;”')).toBeVisible();
  await expect(page.getByTestId('recon-problems')).toContainText('Line 3: amount');
});
