import { readFileSync } from 'node:fs';
import type { Page } from '@playwright/test';
import { demoLedgerFor } from '../../electron/core/demo-ledger';
import { parseCsvText } from '../../shared/csv/parser';
import { formatMinor } from '../../shared/domain/money';
import { expect, test } from './fixtures';
import { look } from './looks';

async function exported(page: Page, button: string): Promise<string> {
  const [download] = await Promise.all([
    page.waitForEvent('download'),
    page.getByRole('button', { name: button }).click(),
  ]);
  return readFileSync((await download.path()) ?? '', 'utf8');
}

const nextDay = (day: string, n = 1) =>
  new Date(Date.parse(`${day}T00:00:00Z`) + n * 86_400_000).toISOString().slice(0, 10);

/**
 * Month-end close through the screen (issue 28): a month's run with exceptions, two explained with
 * notes, one matched by hand, the run signed with the open ones listed; the next month's run carries
 * the open ones forward and shows which cleared; the signed run's export reproduces its hash.
 */
test('month-end close: work the exceptions, sign, carry forward into the next month', async ({
  page,
  app,
}) => {
  test.setTimeout(180_000);
  const errors: string[] = [];
  page.on('pageerror', (e) => errors.push(e.message));
  const sandbox = app.core.demoSandbox()!;
  const demo = demoLedgerFor(sandbox);
  const text = demo.csv.replace(/^\uFEFF/, '');
  const parsed = parseCsvText(text);
  const col = (h: string) => parsed.headers.indexOf(h);
  // Payments of the month's last day booked as the service has them: three will be booked late
  // (next month), one with a typo in its transaction number (matched by hand).
  const lastDay = parsed.rows.filter((r) => {
    const p = sandbox.state.payment(r.cells[col('Transaction No')] ?? '');
    return (
      r.cells[col('Date')] === demo.period.to &&
      p?.status === 'success' &&
      p.refunds.length === 0 &&
      p.currency === r.cells[col('Currency')] &&
      formatMinor(p.amountMinor, p.currency) === (r.cells[col('Amount')] ?? '').replace(/,/g, '')
    );
  });
  expect(lastDay.length).toBeGreaterThanOrEqual(4);
  const late = lastDay.slice(0, 3).map((r) => r.cells[col('Transaction No')]!);
  const typoed = lastDay[3]!.cells[col('Transaction No')]!;
  const typo = `${typoed.slice(0, -4)}0000`;
  const lines = text.split('\n');
  const june = lines
    .filter((l) => !late.some((n) => l.includes(n)))
    .map((l) => l.replace(typoed, typo))
    .join('\n');
  const july = [
    lines[0],
    ...lastDay.slice(0, 3).map((r) => {
      const c = [...r.cells];
      c[col('Date')] = nextDay(demo.period.to);
      return c.map((x) => (x.includes(',') ? `"${x}"` : x)).join(',');
    }),
  ].join('\n');

  const upload = async (name: string, csv: string, from: string, to: string) => {
    await page
      .getByTestId('recon-file')
      .setInputFiles({ name, mimeType: 'text/csv', buffer: Buffer.from(csv) });
    await expect(
      page.getByRole('heading', { name: new RegExp(`Match the columns of ${name}`) }),
    ).toBeVisible();
    await page.getByLabel('First day').fill(from);
    await page.getByLabel('Last day').fill(to);
  };

  await page.goto(app.host.url);
  await page.getByRole('button', { name: 'Reconciliation', exact: true }).click();
  await upload('june.csv', june, demo.period.from, demo.period.to);
  await page.getByRole('button', { name: /^Check \d+ rows against the service$/ }).click();
  const worklist = page.getByTestId('recon-worklist');
  await expect(worklist).toBeVisible({ timeout: 60_000 });

  // Two of the late ones explained, with notes.
  // The row whose transaction-number cell is `no` (notes may name other numbers).
  const rowOf = (no: string) =>
    worklist.locator('tbody tr', { has: page.locator('td.mono', { hasText: new RegExp(`^${no}$`) }) });
  const editor = page.getByTestId('recon-exception');
  for (const no of late.slice(0, 2)) {
    await rowOf(no).click();
    await editor.getByLabel('Set state').selectOption('explained');
    await editor.getByLabel('Owner name').fill('Ann');
    await editor.getByLabel('Note').fill(`Paid on ${demo.period.to}, booked next month: timing.`);
    await editor.getByRole('button', { name: 'Save' }).click();
    await expect(rowOf(no)).toHaveAttribute('data-state', 'explained');
  }
  await expect(editor.getByTestId('recon-notes')).toContainText('booked next month: timing');
  // The typo'd row matched by hand with the service's payment; both sides resolved.
  await rowOf(typo).click();
  await editor.getByLabel('Counterpart transaction no.').fill(typoed);
  await editor.getByLabel('Reason for the match').fill('Last four digits mistyped in the order system.');
  await editor.getByRole('button', { name: 'Match' }).click();
  await expect(rowOf(typo)).toHaveAttribute('data-state', 'resolved');
  await expect(rowOf(typoed)).toHaveAttribute('data-state', 'resolved');
  await expect(editor.getByTestId('recon-match')).toContainText(`Matched by hand with payment ${typoed}`);
  // Filters: by state and by owner.
  await page.getByLabel('Filter by state').selectOption('explained');
  await expect(page.getByTestId('recon-worklist-count')).toHaveText('2 shown');
  await page.getByLabel('Filter by state').selectOption('');
  await page.getByLabel('Filter by owner').selectOption('Ann');
  await expect(page.getByTestId('recon-worklist-count')).toHaveText('2 shown');
  await page.getByLabel('Filter by owner').selectOption('*');
  await page.evaluate(() => document.getElementById('recon-worklist')?.scrollIntoView({ block: 'start' }));
  await look(page, 'reconciliation-worklist');

  // Sign with the open ones listed as open.
  const sign = page.getByTestId('recon-signoff');
  await expect(sign.getByTestId('recon-signoff-open')).toBeVisible();
  await expect(sign.getByRole('button', { name: 'Sign the run' })).toBeDisabled();
  await sign.getByLabel(/Sign with these \d+ exceptions listed as open/).check();
  await sign.getByLabel('Sign-off comment').fill('June closed; timing differences carried to July.');
  await sign.getByRole('button', { name: 'Sign the run' }).click();
  await expect(sign).toContainText('Signed by');
  await expect(page.getByTestId('recon-hash-state')).toContainText('as it was signed');
  const hash = (await page.getByTestId('recon-hash').textContent())!.trim();
  expect(hash).toMatch(/^[0-9a-f]{64}$/);
  await expect(page.getByTestId('recon-exception')).toContainText('can no longer change');
  await page.evaluate(() => document.getElementById('recon-signoff')?.scrollIntoView({ block: 'start' }));
  await look(page, 'reconciliation-signed');

  // A signed run refuses changes in main, with the reason.
  const profileId = (await app.core.profiles.profiles.list()).activeProfileId!;
  const runId = (await app.core.dispatch('reconciliation.list', { profileId })) as {
    ok: true;
    value: { runs: Array<{ runId: string }> };
  };
  const juneId = runId.value.runs[0]!.runId;
  const refused = await app.core.dispatch('reconciliation.updateException', {
    profileId,
    runId: juneId,
    exceptionId: 'i2',
    version: 0,
    note: 'late',
  });
  expect(refused.ok).toBe(false);
  if (!refused.ok) expect(refused.error.message).toMatch(/signed by .*a signed run cannot change/);

  // Its exports carry the signature and the hash; a second export reproduces it.
  const hashes = async () => {
    const rep = parseCsvText(await exported(page, 'Export report CSV'));
    const sum = parseCsvText(await exported(page, 'Export summary CSV'));
    const h = rep.headers.indexOf('Content hash (SHA-256)');
    const sh = sum.headers.indexOf('Content hash (SHA-256)');
    const st = rep.headers.indexOf('Exception state');
    return {
      report: [...new Set(rep.rows.map((r) => r.cells[h]))],
      summary: [...new Set(sum.rows.map((r) => r.cells[sh]))],
      signedBy: sum.rows[0]?.cells[sum.headers.indexOf('Signed by')],
      explained: rep.rows.filter((r) => r.cells[st] === 'Explained').length,
    };
  };
  const first = await hashes();
  expect(first).toMatchObject({ report: [hash], summary: [hash], explained: 2 });
  expect(first.signedBy).toBeTruthy();
  expect(await hashes()).toEqual(first);

  // July: the late ones booked; carried forward from June and re-checked.
  await page.getByRole('button', { name: 'New reconciliation' }).click();
  await upload('july.csv', july, nextDay(demo.period.to), nextDay(demo.period.to, 30));
  await page.getByLabel('Carry forward open exceptions from').selectOption(juneId);
  await page.getByRole('button', { name: 'Check 3 rows against the service' }).click();
  await expect(worklist).toBeVisible({ timeout: 60_000 });
  await expect(page.getByTestId('recon-meta')).toContainText(`carries the open exceptions of run ${juneId}`);
  await expect(page.getByTestId('recon-worklist-summary')).toContainText('3 of them cleared');
  for (const no of late) {
    await expect(rowOf(no).getByTestId('recon-carried-tag')).toHaveText('Carried · Cleared');
    await expect(rowOf(no)).toHaveAttribute('data-state', 'resolved');
  }
  await rowOf(late[0]!).click();
  await expect(page.getByTestId('recon-carry-check')).toContainText('Cleared: booked in this ledger at line');
  await page.getByLabel('Filter by carry').selectOption('carried');
  await page.evaluate(() => document.getElementById('recon-worklist')?.scrollIntoView({ block: 'start' }));
  await look(page, 'reconciliation-carried');
  // June (signed) is as it was signed.
  const juneNow = await app.core.dispatch('reconciliation.exceptions', { profileId, runId: juneId });
  expect(juneNow.ok && juneNow.value).toMatchObject({ contentHash: hash, intact: true });
  expect(errors).toEqual([]);
});
