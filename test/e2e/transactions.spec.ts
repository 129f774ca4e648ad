import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { readXlsx, serialToIso } from '../fakes/xlsx-reader';
import { DEMO_MERCHANT } from '../../electron/sandbox';
import { expect, type HostFixture, shotPath, test } from './fixtures';

/** The Demo store's seeded payments, straight from the embedded sandbox's state. */
function demoPayments(app: HostFixture) {
  const sandbox = app.core.demoSandbox();
  if (!sandbox) throw new Error('the Demo sandbox is not running');
  const snap = sandbox.state.snapshot();
  const mine = snap.payments.filter(
    (p) => p.merchantNo === DEMO_MERCHANT.merchantNo && p.storeNo === DEMO_MERCHANT.storeNo,
  );
  return { payments: mine, refunds: snap.refunds };
}

async function loadDemo(page: Page, app: HostFixture) {
  await page.goto(app.host.url);
  const empty = page.getByTestId('tx-empty');
  await expect(empty).toBeVisible();
  await page.getByTestId('load-demo').click();
  await expect(page.getByTestId('tx-job')).toHaveAttribute('data-status', 'finished', { timeout: 20_000 });
  await expect(page.getByTestId('tx-row').first()).toBeVisible();
}

test('empty state, one-click demo data, list with totals, sorting, filters and column chooser', async ({
  page,
  app,
}) => {
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  await page.goto(app.host.url);
  await expect(page.getByTestId('tx-empty')).toContainText('No transactions cached yet');
  await page.screenshot({ path: shotPath('transactions-empty') });

  await page.getByTestId('load-demo').click();
  await expect(page.getByTestId('tx-job')).toHaveAttribute('data-status', 'finished', { timeout: 20_000 });
  await expect(page.getByTestId('tx-job')).toContainText(/Synced [\d,]+ transactions/);
  const count = Number((await page.getByTestId('tx-count').textContent())?.replace(/\D/g, ''));
  expect(count).toBeGreaterThan(20);
  await page.screenshot({ path: shotPath('transactions-list') });

  // Status filter: every visible row says success, and the count drops.
  await page.getByTestId('filter-status').locator('summary').click();
  await page.getByRole('group', { name: 'Status' }).getByLabel('Successful').check();
  // Esc closes the pop-over and puts focus back on its button.
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('filter-status')).not.toHaveAttribute('open');
  await expect(page.getByTestId('filter-status').locator('summary')).toBeFocused();
  const shownCount = async () =>
    Number((await page.getByTestId('tx-count').textContent())?.replace(/\D/g, ''));
  // The list filters a deferred copy of the filter (typing stays responsive), so wait for it.
  await expect.poll(shownCount).toBeLessThan(count);
  // The service's status, with the refund state derived beside it where there is one.
  for (const cell of await page.locator('[data-testid="tx-row"] .tx-cell.status').allTextContents())
    expect(cell).toMatch(/^Successful( · (Partially refunded|Refunded|Refunds in another currency))?$/);
  // The totals say what they add up: by default successful payments, net of refunds.
  await expect(page.getByTestId('totals-basis')).toHaveValue('net');
  await expect(page.getByTestId('totals-basis').locator('option:checked')).toHaveText(
    'Successful payments, net of refunds',
  );

  // Currency filter narrows totals to that currency only.
  await page.getByTestId('filter-currency').locator('summary').click();
  await page.getByRole('group', { name: 'Currency' }).getByLabel('USD').check();
  await page.mouse.click(5, 700);
  await expect(page.locator('.tx-total')).toHaveCount(1);
  await expect(page.locator('.tx-total')).toHaveAttribute('data-currency', 'USD');

  // Text filter on ids/reference.
  const firstRef = (await page.getByTestId('tx-row').first().locator('.tx-cell').nth(2).textContent()) ?? '';
  await page.getByLabel('Filter by id or reference').fill(firstRef);
  await expect(page.getByTestId('tx-count')).toHaveText('1');
  await page.getByRole('button', { name: 'Clear filters' }).click();
  await expect(page.getByTestId('tx-count')).toHaveText(count.toLocaleString('en-US'));

  // "+N currencies" opens every currency's totals.
  await page.getByTestId('totals-more').locator('summary').click();
  const allTotals = page.getByTestId('totals-table');
  await expect(allTotals).toBeVisible();
  expect(await allTotals.locator('tbody tr').count()).toBeGreaterThan(3);
  await page.keyboard.press('Escape');
  await expect(allTotals).toBeHidden();

  // Sorting by amount (descending first) works within each currency: one currency's rows, largest
  // first, never IDR above USD by face value. Remembered after a reload with hidden columns.
  await page
    .getByRole('columnheader', { name: /Amount/ })
    .getByRole('button')
    .click();
  await expect(page.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');
  const amountRows = await page
    .getByTestId('tx-row')
    .evaluateAll((rows) =>
      rows.map((r) => (r.querySelector('[data-column="amount"]')?.textContent ?? '').trim()),
    );
  const currencyOrder = amountRows.map((t) => t.slice(-3));
  expect(currencyOrder).toEqual([...currencyOrder].sort());
  const first = amountRows
    .filter((t) => t.endsWith(currencyOrder[0] ?? ''))
    .map((t) => Number(t.slice(0, -4).replace(/,/g, '')));
  expect(first).toEqual([...first].sort((a, b) => b - a));
  await expect(page.getByTestId('tx-legend')).toContainText('within each currency');

  // Columns size to their content and can be resized from the keyboard (remembered too).
  const amountHeader = page.getByRole('columnheader', { name: /Amount/ });
  const before = (await amountHeader.boundingBox())?.width ?? 0;
  await amountHeader.getByRole('separator').focus();
  await page.keyboard.press('ArrowRight');
  await page.keyboard.press('ArrowRight');
  await expect.poll(async () => (await amountHeader.boundingBox())?.width ?? 0).toBeGreaterThan(before + 15);
  await page.getByTestId('column-chooser').locator('summary').click();
  await page.getByRole('group', { name: 'Visible columns' }).getByLabel('Vendor').uncheck();
  await page.mouse.click(5, 700);
  await expect(page.getByRole('columnheader', { name: /Vendor/ })).toHaveCount(0);
  await page.waitForTimeout(600);
  await page.reload();
  await expect(page.getByTestId('tx-row').first()).toBeVisible();
  await expect(page.getByRole('columnheader', { name: /Amount/ })).toHaveAttribute('aria-sort', 'descending');
  await expect(page.getByRole('columnheader', { name: /Vendor/ })).toHaveCount(0);
  expect((await page.getByRole('columnheader', { name: /Amount/ }).boundingBox())?.width).toBeGreaterThan(
    before + 15,
  );
  // Nothing money-related is cut off: every amount cell shows all of its text.
  const clipped = await page
    .locator('[data-testid="tx-row"] .tx-cell.num')
    .evaluateAll((cells) => cells.filter((c) => c.scrollWidth > c.clientWidth + 1).map((c) => c.textContent));
  expect(clipped).toEqual([]);
  expect(errors).toEqual([]);
});

test('lookup by transaction number, reference and refund number; each failure reads differently; detail with keyboard', async ({
  page,
  app,
}) => {
  const { payments, refunds } = demoPayments(app);
  const refunded = payments.find((p) => p.refunds.length > 0 && p.reference);
  const plain = payments.find((p) => p.refunds.length === 0 && p.status === 'success' && p !== refunded);
  if (!refunded || !plain) throw new Error('seed lacks the payments this test needs');
  const refund = refunds.find((r) => r.transactionNo === refunded.transactionNo);
  if (!refund) throw new Error('refund missing');
  await page.goto(app.host.url);
  const search = page.getByTestId('tx-search');
  const outcome = page.getByTestId('tx-outcome');
  await expect(page.getByTestId('tx-empty')).toBeVisible();

  // "/" puts the cursor in the Look up box (Ctrl/Cmd+K opens the command palette).
  await page.keyboard.press('/');
  await expect(search).toBeFocused();
  await search.fill(plain.transactionNo);
  await expect(page.getByTestId('tx-search-hint')).toContainText('transaction or refund number');
  await search.press('Enter');
  await expect(outcome).toContainText('Found by transaction number');
  await expect(page.getByTestId('tx-detail')).toBeVisible();
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(plain.transactionNo);

  await search.fill(refunded.reference);
  await expect(page.getByTestId('tx-search-hint')).toContainText('merchant reference');
  await search.press('Enter');
  await expect(outcome).toContainText('Found by merchant reference');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(refunded.transactionNo);

  await search.fill(refund.refundTransactionNo);
  await search.press('Enter');
  await expect(outcome).toContainText('Found by refund number');
  await expect(outcome).toContainText(refunded.transactionNo);
  const detail = page.getByTestId('tx-detail');
  await expect(detail.getByTestId('detail-refunds')).toContainText(refund.refundTransactionNo);
  await expect(detail).toContainText('UTC+8');
  await expect(detail.getByTestId('tx-as-of')).toContainText('As of');
  await expect(detail.getByRole('button', { name: 'Refresh' })).toBeEnabled();
  await page.screenshot({ path: shotPath('transactions-detail') });

  // A refund's own reference is found too (the service cannot be asked for it; the cached payment it
  // belongs to is checked against the service's refund records).
  const mine = new Set(payments.map((p) => p.transactionNo));
  const withRef = refunds.find(
    (r) => r.refundReference && mine.has(r.transactionNo) && r.transactionNo !== refunded.transactionNo,
  );
  if (!withRef?.refundReference) throw new Error('seed lacks a refund with its own reference');
  await search.fill(withRef.transactionNo);
  await search.press('Enter');
  await expect(outcome).toContainText('Found by transaction number');
  await search.fill(withRef.refundReference);
  await expect(outcome).toHaveCount(0); // the message was about the earlier text
  await search.press('Enter');
  await expect(outcome).toContainText('Found by refund reference');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(withRef.transactionNo);

  // Not found: one message in its own words, with its next step; no code to quote.
  await search.fill('999999999999999999');
  await search.press('Enter');
  await expect(outcome).toHaveAttribute('data-kind', 'not_found');
  await expect(outcome).toContainText('No payment or refund matches');
  await expect(outcome).toContainText('switch to the profile');
  await expect(outcome).not.toContainText('Reference C');
  await expect(outcome).not.toContainText('Support code');
  // Typing clears it.
  await search.press('Backspace');
  await expect(outcome).toHaveCount(0);
  // Rejected by the service (injected upstream error): different words.
  app.core.demoSandbox()?.setFaults({ endpoints: { 'tran-query': { upstreamErrorRate: 1 } } });
  await search.fill(plain.transactionNo);
  await search.press('Enter');
  await expect(outcome).toHaveAttribute('data-kind', 'rejected');
  await expect(outcome).toContainText('rejected the lookup');
  app.core.demoSandbox()?.resetFaults();

  // Keyboard: Esc closes the detail, arrows move, Enter opens.
  await page.keyboard.press('Escape');
  await page.getByTestId('tx-grid').focus();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tx-detail')).toHaveCount(0);
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowDown');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tx-detail')).toBeVisible();
  const second = await page.getByTestId('tx-row').nth(1).getAttribute('data-transaction-no');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(second ?? '');
  // The grid names its active row for screen readers.
  await expect(page.getByTestId('tx-grid')).toHaveAttribute('aria-activedescendant', `tx-row-${second}`);
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tx-detail')).toHaveCount(0);
  // Focus goes back where it was (the list), not to <body>.
  await expect(page.getByTestId('tx-grid')).toBeFocused();

  // The command palette goes to a payment by any id.
  await page.keyboard.press('Control+k');
  const palette = page.getByTestId('command-palette');
  await expect(palette).toBeVisible();
  await page.keyboard.type(refunded.reference);
  await expect(palette.getByRole('option', { selected: true })).toContainText(
    `Go to payment “${refunded.reference}”`,
  );
  await page.keyboard.press('Enter');
  await expect(palette).toHaveCount(0);
  await expect(outcome).toContainText('Found by merchant reference');
  await expect(page.getByTestId('detail-transaction-no')).toHaveText(refunded.transactionNo);
});

test('offline: sandbox stopped → banner with data age, cache browsable, searchable and exportable, network actions disabled', async ({
  page,
  app,
}) => {
  await loadDemo(page, app);
  const firstNo = (await page.getByTestId('tx-row').first().getAttribute('data-transaction-no')) ?? '';
  await app.core.demoSandbox()?.close();

  // The next network action finds the service gone.
  await page.getByTestId('tx-search').fill('888888888888888888');
  await page.getByTestId('tx-search').press('Enter');
  await expect(page.getByTestId('tx-outcome')).toHaveAttribute('data-kind', 'offline', { timeout: 20_000 });
  const banner = page.getByTestId('offline-banner');
  await expect(banner).toBeVisible();
  await expect(banner).toContainText(/last fetched (just now|\d+ minutes? ago)/);
  // The header says so too, at once (not at its next 15 s poll), with the reason.
  await expect(page.getByTestId('health')).toHaveAttribute('data-state', 'degraded', { timeout: 5_000 });
  await expect(page.getByTestId('health')).toContainText('unreachable');
  await expect(page.getByTestId('bulk-refresh')).toBeDisabled();
  await expect(page.getByRole('button', { name: 'Sync by date…' })).toBeDisabled();

  // Search still works, from the cache.
  await page.getByTestId('tx-search').fill(firstNo);
  await page.getByRole('button', { name: 'Search cache' }).click();
  await expect(page.getByTestId('tx-outcome')).toContainText('Found in the cache by transaction number');
  await expect(page.getByTestId('tx-detail').getByRole('button', { name: 'Refresh' })).toBeDisabled();
  await expect(page.getByTestId('tx-detail')).toContainText('Offline: this waits for the connection');
  // Said once on the screen (the banner), not three times; the header stays one line.
  expect(await page.getByText(/cannot be reached/).count()).toBe(1);
  const header = (await page.locator('.topbar').boundingBox())!;
  expect(header.height).toBeLessThan(60);
  await page.screenshot({ path: shotPath('transactions-offline') });

  // Export the filtered, sorted view as CSV for machines: header of the visible columns in words, the
  // service's codes beside labels, ids as plain digits, times with their offset, zone in the header.
  await page.getByLabel('Filter by id or reference').fill(firstNo);
  await expect(page.getByTestId('tx-count')).toHaveText('1');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export').click()]);
  expect(download.suggestedFilename()).toMatch(/^transactions-Demo-\d{8}-\d{4}\.csv$/);
  const csv = readFileSync((await download.path()) ?? '', 'utf8');
  expect(csv.charCodeAt(0)).toBe(0xfeff);
  const lines = csv.slice(1).split('\r\n');
  expect(lines[0]).toMatch(
    /^Transaction no\.,Reference,Created \([^)]+\),Status,Status code,Refund state,Vendor,Vendor code,Amount,Currency,Refunded,Refundable$/,
  );
  expect(lines[1]?.startsWith(`${firstNo},`)).toBe(true);
  expect(lines[1]).toMatch(/,\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(Z|[+-]\d{2}:\d{2}),/);
  expect(lines).toHaveLength(3);

  // The same view as Excel, offline too: a real workbook whose XML holds the id as text, the amount as
  // a number with its currency's decimals, the time as a real date; header frozen and filtered.
  const [xlsx] = await Promise.all([page.waitForEvent('download'), page.getByTestId('export-xlsx').click()]);
  expect(xlsx.suggestedFilename()).toMatch(/^transactions-Demo-\d{8}-\d{4}\.xlsx$/);
  const book = readXlsx(readFileSync((await xlsx.path()) ?? ''));
  const headers = book.cells.filter((c) => /^[A-Z]+1$/.test(c.ref)).map((c) => c.value);
  const col = (h: string) => String.fromCharCode(65 + headers.findIndex((x) => x.startsWith(h)));
  expect(book.cell(`${col('Transaction no.')}2`)).toMatchObject({ type: 's', value: firstNo, numFmt: '@' });
  expect(firstNo).toMatch(/^\d{18}$/);
  const amount = book.cell(`${col('Amount')}2`);
  expect(amount?.type).toBe('n');
  expect(amount?.numFmt).toMatch(/^#,##0(\.0+)?$/);
  const created = book.cell(`${col('Created')}2`);
  expect(created?.type).toBe('n');
  expect(created?.numFmt).toBe('yyyy-mm-dd hh:mm:ss');
  expect(serialToIso(Number(created?.value))).toMatch(/^\d{4}-\d{2}-\d{2}T/);
  expect(book.pane).toContain('state="frozen"');
  expect(book.autoFilter).toContain('ref="A1:');
});

test.describe('a sync large enough for the cache worker', () => {
  // About 1,000 of these fall in the demo's last 15 days: well over the rows a write keeps on the page.
  test.use({ demoTransactions: 6_000 });

  test('the sync is written by the cache worker: every fetched row is in the list, and still there after a reload', async ({
    page,
    app,
  }) => {
    const errors: string[] = [];
    page.on('pageerror', (e) => errors.push(e.message));
    const workers: string[] = [];
    page.on('worker', (w) => workers.push(w.url()));
    await page.goto(app.host.url);
    await page.getByTestId('load-demo').click();
    const job = page.getByTestId('tx-job');
    await expect(job).toHaveAttribute('data-status', 'finished', { timeout: 45_000 });
    const synced = Number(
      /Synced ([\d,]+) transactions/.exec((await job.textContent()) ?? '')?.[1]?.replace(/,/g, ''),
    );
    expect(synced).toBeGreaterThanOrEqual(500);
    expect(workers.some((u) => /cache-write\.worker-[\w-]+\.js$/.test(u))).toBe(true);
    const shownCount = async () =>
      Number((await page.getByTestId('tx-count').textContent())?.replace(/\D/g, ''));
    await expect.poll(shownCount).toBe(synced);

    // The list now reads the cache itself: the rows are in IndexedDB, not only in the query cache.
    await page.reload();
    await expect(page.getByTestId('tx-row').first()).toBeVisible();
    await expect.poll(shownCount, { timeout: 20_000 }).toBe(synced);
    expect(errors).toEqual([]);
  });
});

test('scrolled, the rows stay in screen order in the DOM and only their window moves (no per-row transform)', async ({
  page,
  app,
}) => {
  await loadDemo(page, app);
  const grid = page.getByTestId('tx-grid');
  await grid.evaluate((g) => {
    g.scrollTop = g.scrollHeight;
  });
  // The last row comes into view at the bottom of the grid.
  const total = Number((await page.getByTestId('tx-count').textContent())?.replace(/\D/g, ''));
  await expect(page.locator(`[data-testid="tx-row"][aria-rowindex="${total + 1}"]`)).toBeInViewport();
  const rows = await page.getByTestId('tx-row').evaluateAll((els) =>
    els.map((e) => ({
      index: Number(e.getAttribute('aria-rowindex')),
      top: e.getBoundingClientRect().top,
      transform: (e as HTMLElement).style.transform,
    })),
  );
  expect(rows.length).toBeGreaterThan(5);
  for (let i = 1; i < rows.length; i += 1) {
    expect(rows[i]?.index).toBe((rows[i - 1]?.index ?? 0) + 1);
    expect(rows[i]?.top).toBeGreaterThan(rows[i - 1]?.top ?? 0);
  }
  expect(rows.every((r) => r.transform === '')).toBe(true);
  await expect(page.locator('.tx-window')).toHaveCount(1);
  expect(await page.locator('.tx-window').evaluate((w) => (w as HTMLElement).style.transform)).toMatch(
    /^translateY\(\d+(\.\d+)?px\)$/,
  );
});

test('closing the detail gives focus back to where it came from, but never takes it from where the person has since put it', async ({
  page,
  app,
}) => {
  await loadDemo(page, app);
  const grid = page.getByTestId('tx-grid');
  await grid.focus();
  await page.keyboard.press('Home');
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tx-detail')).toBeVisible();
  // Closed, and focus put in the filter box within the same task: the frame that returns focus comes later.
  await page.evaluate(() => {
    document.querySelector<HTMLButtonElement>('[data-testid="tx-detail"] button.close')?.click();
    document.querySelector<HTMLInputElement>('input[aria-label="Filter by id or reference"]')?.focus();
  });
  await expect(page.getByTestId('tx-detail')).toHaveCount(0);
  await page.evaluate(
    () => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(() => r(null)))),
  );
  await expect(page.getByLabel('Filter by id or reference')).toBeFocused();
  // Left alone, focus goes back to the list the detail was opened from.
  await grid.focus();
  await page.keyboard.press('Enter');
  await expect(page.getByTestId('tx-detail')).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(page.getByTestId('tx-detail')).toHaveCount(0);
  await expect(grid).toBeFocused();
});
