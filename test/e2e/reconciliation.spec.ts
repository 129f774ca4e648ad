import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { demoLedgerFor } from '../../electron/core/demo-ledger';
import { parseCsvText } from '../../shared/csv/parser';
import { OUTCOME_LABELS, RECON_OUTCOMES } from '../../shared/recon/match';
import { refundablePayment } from '../integration/gateway/helpers';
import ExcelJS from 'exceljs';
import { expectAccessible } from './axe';
import { expect, shotPath, test } from './fixtures';

/** Clicks an export button and returns the file's text. */
async function exported(page: Page, button: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  // Named <area>-<profile>-<YYYYMMDD-HHmm> like every export.
  expect(download.suggestedFilename()).toMatch(/^reconciliation-(report|summary)-Demo-\d{8}-\d{4}\.csv$/);
  return readFileSync((await download.path()) ?? '', 'utf8');
}

/** A summary CSV without its generation time (the one column allowed to differ between exports). */
function withoutGeneratedAt(csv: string): string {
  const parsed = parseCsvText(csv);
  const at = parsed.headers.findIndex((h) => h.startsWith('Generated ('));
  expect(at).toBeGreaterThanOrEqual(0);
  return JSON.stringify(parsed.rows.map((r) => r.cells.filter((_, i) => i !== at)));
}

test('the demo ledger: both directions, every row counted; exports of the run and of the run re-opened are the same', async ({
  page,
  app,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text());
  });
  // The ledger main builds for this Demo sandbox (its dates follow the day the sandbox was seeded).
  const demo = demoLedgerFor(app.core.demoSandbox());
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  await page.getByRole('button', { name: 'Try with demo ledger' }).click();

  // Mapping step: every data row accounted for; formats detected; the period from the ledger's dates.
  await expect(page.getByRole('heading', { name: /Match the columns of demo-ledger.csv/ })).toBeVisible();
  await expect(page.getByLabel('Transaction number')).toHaveValue('Transaction No');
  const read = demo.rows - demo.badLines.length;
  await expect(page.getByTestId('recon-row-accounting')).toContainText(
    `${demo.rows} data rows: ${read} read · 3 cannot be used`,
  );
  const problems = page.getByTestId('recon-problems');
  await expect(problems).toContainText('Line 42: amount');
  await expect(problems).toContainText('Line 122: has no currency');
  await expect(problems).toContainText('Line 202: Transaction No');
  await expect(problems).toContainText('id shortened by Excel');
  await expect(page.getByLabel('Decimal separator')).toHaveValue('.');
  await expect(page.getByTestId('recon-formats')).toContainText('Detected from');
  await expect(page.getByLabel('First day')).toHaveValue(demo.period.from);
  await expect(page.getByLabel('Last day')).toHaveValue(demo.period.to);
  await expect(page.getByLabel('Whose days')).toHaveValue('service');
  await page.screenshot({ path: shotPath('reconciliation-mapping'), fullPage: true });
  await page.getByRole('button', { name: `Check ${read} rows against the service` }).click();

  // Report: counts per outcome, both directions.
  const counts = page.getByTestId('recon-counts');
  await expect(counts).toBeVisible({ timeout: 30_000 });
  for (const o of RECON_OUTCOMES) {
    const n = demo.expected[o];
    if (n === 0) await expect(counts.locator(`[data-outcome="${o}"]`)).toHaveCount(0);
    else await expect(counts.locator(`[data-outcome="${o}"]`)).toHaveText(`${n} ${OUTCOME_LABELS[o]}`);
  }
  await expect(page.getByTestId('recon-row-total')).toContainText(
    `${demo.rows} ledger rows = ${read} read + 3 unreadable`,
  );
  await expect(page.getByTestId('recon-statement')).toContainText(
    `Period ${demo.period.from} to ${demo.period.to} in the service's days (UTC+8)`,
  );
  await expect(page.getByTestId('recon-chart')).toContainText('Paid at service, not in ledger');
  await page.screenshot({ path: shotPath('reconciliation'), fullPage: true });
  await page.getByTestId('recon-chart').screenshot({ path: shotPath('reconciliation-chart') });

  // Every row is reachable, unreadable ones included: the table is virtualised.
  const total = Object.values(demo.expected).reduce((a, n) => a + n, 0);
  await page.getByLabel('Outcome').selectOption('all');
  await expect(page.getByTestId('recon-row-count')).toHaveText(`${total} rows`);
  await page
    .getByRole('region', { name: 'Rows', exact: true })
    .screenshot({ path: shotPath('reconciliation-rows') });
  await page.getByLabel('Outcome').selectOption('unreadable');
  await expect(page.getByTestId('recon-row-count')).toHaveText('3 rows');
  await page.getByTestId('recon-items').locator('tbody tr:not(.spacer)').first().click();
  await expect(page.getByTestId('recon-detail')).toContainText('Line 42: Unreadable row');
  await page.getByLabel('Outcome').selectOption('missing_in_ledger');
  await page.getByTestId('recon-items').locator('tbody tr:not(.spacer)').first().click();
  await expect(page.getByTestId('recon-detail-source')).toContainText('from the period’s list, fetched');
  await page.getByTestId('recon-detail').getByRole('button', { name: 'Close' }).click();

  const report1 = await exported(page, 'Export report CSV');
  const summary1 = await exported(page, 'Export summary CSV');
  expect(report1.startsWith('\uFEFFLine,Outcome,Outcome code,Matched by,Transaction no.')).toBe(true);
  const rows1 = parseCsvText(report1);
  expect(rows1.rows).toHaveLength(total);
  const outcomeCol = rows1.headers.indexOf('Outcome code');
  expect(rows1.rows.filter((r) => r.cells[outcomeCol] === 'unreadable')).toHaveLength(3);

  // Re-open from the runs list: the same figures and the same exports.
  await page.getByRole('button', { name: 'New reconciliation' }).click();
  const runs = page.getByTestId('recon-runs');
  await expect(runs).toContainText(`${demo.period.from} – ${demo.period.to} (UTC+8)`);
  await expect(runs).toContainText(`${demo.expected.matched} matched`);
  await page.screenshot({ path: shotPath('reconciliation-runs'), fullPage: true });
  await runs.getByRole('button', { name: 'demo-ledger.csv' }).first().click();
  await expect(page.getByTestId('recon-counts')).toBeVisible();
  for (const o of RECON_OUTCOMES)
    if (demo.expected[o] > 0)
      await expect(page.getByTestId('recon-counts').locator(`[data-outcome="${o}"]`)).toHaveText(
        `${demo.expected[o]} ${OUTCOME_LABELS[o]}`,
      );
  const report2 = await exported(page, 'Export report CSV');
  const summary2 = await exported(page, 'Export summary CSV');
  expect(report2).toBe(report1);
  expect(withoutGeneratedAt(summary2)).toBe(withoutGeneratedAt(summary1));
  expect(summary2).not.toBe(''); // the generation time is the only difference allowed

  // Runs belong to their profile: after a switch the list is the other profile's (none here).
  await page.getByRole('button', { name: 'New reconciliation' }).click();
  await expect(page.getByTestId('recon-runs')).toBeVisible();
  const other = await app.core.dispatch('profiles.save', {
    name: 'Other store',
    environment: 'custom',
    baseUrl: 'http://127.0.0.1:9',
    merchantNo: '200101',
    storeNo: '300101',
  });
  if (!other.ok) throw new Error(other.error.message);
  const demoId = (await app.core.profiles.profiles.list()).activeProfileId!;
  await app.core.dispatch('profiles.activate', { id: (other.value as { id: string }).id });
  await expect(page.getByTestId('recon-runs')).toHaveCount(0);
  await app.core.dispatch('profiles.activate', { id: demoId });
  await expect(page.getByTestId('recon-runs')).toContainText('demo-ledger.csv');
  expect(errors).toEqual([]);
});

test('a run whose every row is already cached finishes with a report', async ({ page, app }) => {
  const sandbox = app.core.demoSandbox()!;
  const paid = [0, 1, 2, 3].map((i) => refundablePayment(sandbox, i));
  const csv = [
    'Transaction No,Amount,Currency',
    ...paid.map((p) => `${p.transactionNo},${(p.amountMinor / 100).toFixed(2)},USD`),
  ].join('\n');
  const runOnce = async () => {
    await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
    await page.getByTestId('recon-file').setInputFiles({
      name: 'cached.csv',
      mimeType: 'text/csv',
      buffer: Buffer.from(csv),
    });
    await expect(page.getByRole('heading', { name: /Match the columns of cached.csv/ })).toBeVisible();
    // One direction: the ledger's rows only (with a period, the service's list would answer them).
    await page.getByLabel('Also find what the service has that the ledger lacks, for a period').uncheck();
    await page.getByRole('button', { name: 'Check 4 rows against the service' }).click();
    await expect(page.getByTestId('recon-counts')).toBeVisible({ timeout: 30_000 });
    await expect(page.getByTestId('recon-counts').locator('[data-outcome="matched"]')).toHaveText(
      '4 Matched',
    );
  };
  await page.goto(app.host.url);
  // First run: looked up, and the answers go to this window's cache.
  await runOnce();
  await expect(page.getByTestId('recon-statement')).toContainText('4 looked up one by one');
  await page.getByRole('button', { name: 'New reconciliation' }).click();
  // Second run: every row is fresh in the cache, so main has nothing to ask — and the report still comes.
  await runOnce();
  await expect(page.getByTestId('recon-statement')).toContainText(
    '4 from data fetched earlier (this app’s cache',
  );
  await expect(page.getByTestId('recon-source')).toContainText('compared with data fetched earlier');
  await page.screenshot({ path: shotPath('reconciliation-cached'), fullPage: true });
});

test('files that are not a ledger are refused with what to do; formats are asked when undecided', async ({
  page,
  app,
}) => {
  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  const pick = (name: string, buffer: Buffer) =>
    page.getByTestId('recon-file').setInputFiles({ name, mimeType: 'text/csv', buffer });
  await pick('ledger.xlsx', Buffer.from([0x50, 0x4b, 0x03, 0x04, 0x14, 0, 6, 0, 8, 0, 0, 0, 0x21, 0]));
  // A zip that is cut short is no workbook to read: said, with what to do.
  await expect(page.getByRole('alert')).toContainText('looks like a zip archive but cannot be opened');
  let x = 7;
  await pick(
    'random.csv',
    Buffer.from(Array.from({ length: 4096 }, () => (x = (x * 1103515245 + 12345) & 0x7fffffff) & 0xff)),
  );
  await expect(page.getByRole('alert')).toContainText('not a text (CSV) file');
  await pick('header-only.csv', Buffer.from('Transaction No,Amount,Currency\r\n'));
  await expect(page.getByRole('alert')).toContainText(
    'has a header row (Transaction No, Amount, Currency) but no data rows',
  );

  // Semicolons, a decimal comma proven by 2.436,06, so 1.400 KRW is 1400; 0,125 alone would be asked.
  await pick(
    'eu.csv',
    Buffer.from('Reference;Amount;Currency\r\nINV-1;2.436,06;CNY\nINV-2;1.400;KRW\rINV-3;x;USD\r\n'),
  );
  await expect(page.getByRole('heading', { name: /Match the columns of eu.csv/ })).toBeVisible();
  await expect(page.getByText('separator “;”')).toBeVisible();
  await expect(page.getByLabel('Decimal separator')).toHaveValue(',');
  await expect(page.getByTestId('recon-row-accounting')).toContainText(
    '3 data rows: 2 read · 1 cannot be used',
  );
  await expect(page.getByTestId('recon-problems')).toContainText('Line 4: amount');
  await page.getByRole('button', { name: 'Choose another file' }).click();
  await pick('ambiguous.csv', Buffer.from('Reference,Amount,Currency\nINV-1,"0,125",USD\n'));
  await expect(page.getByTestId('recon-questions')).toContainText('Is “0,125” a decimal');
  const run = page.getByRole('button', { name: /Check 1 rows against the service/ });
  await expect(run).toBeDisabled();
  await page.screenshot({ path: shotPath('reconciliation-ask-decimal'), fullPage: true });
  await page.getByLabel('Decimal separator').selectOption('.');
  await expect(run).toBeEnabled();
});

test('an Excel ledger through the screen: its sheet, shortened ids matched by reference, reasons said once, the report', async ({
  page,
  app,
}) => {
  const sandbox = app.core.demoSandbox()!;
  const paid = [0, 1, 2, 3].map((i) => refundablePayment(sandbox, i));
  const day = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);
  const wb = new ExcelJS.Workbook();
  wb.addWorksheet('Cover').addRow(['Month-end, prepared by accounts']);
  const ws = wb.addWorksheet('Ledger');
  ws.addRow(['Buchungsdatum', 'Transaktions-Nr', 'Bestellnummer', 'Betrag', 'Währung']);
  paid.forEach((p, i) => {
    // The first two ids as Excel stores a long number (shortened); the others as text.
    const id = i < 2 ? Number(p.transactionNo) : p.transactionNo;
    const row = ws.addRow([
      new Date(`${day(p.createdAt)}T00:00:00Z`),
      id,
      p.reference,
      p.amountMinor / 100,
      'USD',
    ]);
    row.getCell(1).numFmt = 'dd.mm.yyyy';
  });
  // Ten rows in currencies the service does not handle: ten reasons, a list that scrolls.
  for (let i = 0; i < 10; i += 1)
    ws.addRow([new Date('2025-06-02T00:00:00Z'), null, `X-${i}`, 1, `QQ${String.fromCharCode(65 + i)}`]);
  const buffer = Buffer.from(await wb.xlsx.writeBuffer());

  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  await page.getByTestId('recon-file').setInputFiles({
    name: 'november.xlsx',
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer,
  });
  await expect(page.getByRole('heading', { name: /Match the columns of november.xlsx/ })).toBeVisible();
  // The sheet that looks like a ledger is read; the others can be chosen.
  await expect(page.getByTestId('recon-sheet')).toHaveValue('Ledger');
  await expect(page.getByTestId('recon-row-accounting')).toContainText('Excel workbook, sheet “Ledger”');
  await expect(page.getByLabel('Transaction number')).toHaveValue('Transaktions-Nr');
  await expect(page.getByLabel('Reference (order / invoice no.)')).toHaveValue('Bestellnummer');
  await expect(page.getByTestId('recon-row-accounting')).toContainText(
    '14 data rows: 4 read · 10 cannot be used',
  );
  const notes = page.getByTestId('recon-key-notes');
  await expect(notes).toContainText('2 rows are checked by reference');
  await expect(notes).toContainText('Lines 2–3 (2 rows): Transaktions-Nr “');
  await expect(notes).toContainText('matched by Bestellnummer instead');
  await expect(page.getByTestId('recon-problems')).toContainText(
    'Line 6: currency QQA is not one the payment service handles',
  );
  // The scrolling list of reasons is reachable by keyboard (axe: scrollable-region-focusable).
  await expectAccessible(page, 'reconciliation-mapping-xlsx');
  await page.screenshot({ path: shotPath('reconciliation-mapping-xlsx'), fullPage: true });

  await page.getByLabel('Also find what the service has that the ledger lacks, for a period').uncheck();
  await page.getByRole('button', { name: 'Check 4 rows against the service' }).click();
  const counts = page.getByTestId('recon-counts');
  await expect(counts).toBeVisible({ timeout: 30_000 });
  await expect(counts.locator('[data-outcome="matched"]')).toHaveText('4 Matched');
  await expect(counts.locator('[data-outcome="unreadable"]')).toHaveText('10 Unreadable row');
  await expect(page.getByTestId('recon-statement')).toContainText('Excel workbook, sheet “Ledger”');
  const report = parseCsvText(await exported(page, 'Export report CSV'));
  const col = (h: string) => report.headers.indexOf(h);
  const read = report.rows.filter((r) => r.cells[col('Outcome code')] === 'matched');
  expect(read.map((r) => r.cells[col('Matched by')])).toEqual([
    'Reference',
    'Reference',
    'Transaction no.',
    'Transaction no.',
  ]);
  expect(read.map((r) => r.cells[col('Ledger date')])).toEqual(paid.map((p) => day(p.createdAt)));
  expect(read[0]?.cells[col('Detail')]).toMatch(
    /^Transaktions-Nr “\d\.\d{1,5}E\+17” looks shortened by Excel/,
  );
});
