import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { chromium } from '@playwright/test';
import { createNodeCore } from '../../electron/hosts/node-core';
import { startBrowserHost } from '../../electron/hosts/web/server';
import { type Figure, ms } from './harness';

const ROWS = 100_000;

// Browser-side code travels as source text: tsx would wrap real functions in helpers the page lacks.
/** Writes rows with raw IndexedDB in chunked transactions, the same shape the app's repository writes. */
const WRITE_ROWS = `async ({ profileId, rows }) => {
  const db = await new Promise((res, rej) => { const r = indexedDB.open('refund-desk'); r.onsuccess = () => res(r.result); r.onerror = () => rej(r.error); });
  const vendors = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay'];
  const currencies = ['USD', 'CNY', 'GBP', 'HKD', 'KRW'];
  const statuses = ['success', 'success', 'success', 'closed', 'failed'];
  const base = Date.UTC(2026, 7, 1);
  const t0 = performance.now();
  for (let start = 0; start < rows; start += 10000) {
    await new Promise((res, rej) => {
      const tx = db.transaction('transactions', 'readwrite');
      const store = tx.objectStore('transactions');
      for (let i = start; i < Math.min(rows, start + 10000); i += 1) {
        const at = new Date(base + i * 60000).toISOString();
        store.put({ profileId, transactionNo: String(300000000000000000n + BigInt(i)), reference: 'BENCH-' + i,
          amountMinor: 100 + ((i * 7919) % 500000), currency: currencies[i % 5], settleCurrency: 'USD', status: statuses[i % 5],
          vendor: vendors[i % 5], transactionType: 'payment', createdAt: at, paidAt: at, refunds: [], fetchedAt: new Date().toISOString() });
      }
      tx.oncomplete = () => res(); tx.onerror = () => rej(tx.error);
    });
  }
  db.close();
  return performance.now() - t0;
}`;

/** Scrolls the virtualised grid in big jumps and records the time between animation frames. */
const SCROLL_FRAMES = `async () => {
  const grid = document.querySelector('[data-testid="tx-grid"]');
  const times = [];
  let last = performance.now();
  for (let i = 0; i < 120; i += 1) {
    grid.scrollTop += 900;
    await new Promise((r) => requestAnimationFrame(() => r(null)));
    const now = performance.now();
    times.push(now - last);
    last = now;
  }
  times.sort((a, b) => a - b);
  return { p50: times[60], p95: times[114], rendered: document.querySelectorAll('[data-testid="tx-row"]').length };
}`;

/**
 * The Transactions workspace at 100k cached rows, in real Chromium with real IndexedDB (it must stay
 * smooth at 100k rows): bulk write, cold load of the list, a text filter, and frame times while scrolling the
 * virtualised table. Needs a build (`npm run build`) and Debian's chromium.
 */
export async function rendererBench(): Promise<Figure[]> {
  const rendererDir = resolve(import.meta.dirname, '../../out/renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('Run `npm run build` first: the renderer bench loads out/renderer.');
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-bench-ui-'));
  const core = await createNodeCore({ host: 'browser', dataDir, demo: { transactions: 200 } });
  const host = await startBrowserHost({ core, rendererDir });
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--disable-sync',
      '--no-first-run',
    ],
  });
  const figures: Figure[] = [];
  try {
    const page = await browser.newPage({ viewport: { width: 1280, height: 800 } });
    await page.goto(host.url);
    await page.getByTestId('transactions').waitFor();
    const profileId = (await page.evaluate(
      `window.refundDesk['profiles.list']().then((r) => r.value.activeProfileId)`,
    )) as string;
    // Raw IndexedDB in chunked transactions, the same shape the app's repository writes.
    const writeMs = (await page.evaluate(
      `(${WRITE_ROWS})(${JSON.stringify({ profileId, rows: ROWS })})`,
    )) as number;
    figures.push({
      bench: 'renderer (Chromium)',
      metric: `IndexedDB write ${ROWS.toLocaleString('en-US')} rows`,
      value: ms(writeMs),
      note: '10 chunked transactions',
    });

    const t0 = Date.now();
    await page.reload();
    await page.getByTestId('tx-count').filter({ hasText: '100,' }).waitFor({ timeout: 120_000 });
    figures.push({
      bench: 'renderer (Chromium)',
      metric: 'cold load of the list',
      value: ms(Date.now() - t0),
      note: 'reload → all rows counted and shown',
    });

    const filter = page.getByPlaceholder('Filter ids / reference');
    const t1 = Date.now();
    await filter.fill('BENCH-9999');
    await page
      .getByTestId('tx-count')
      .filter({ hasText: /^\d{1,2}$/ })
      .waitFor({ timeout: 60_000 });
    figures.push({
      bench: 'renderer (Chromium)',
      metric: 'text filter over 100k rows',
      value: ms(Date.now() - t1),
      note: 'keystrokes → count updated',
    });
    await filter.fill('');
    await page.getByTestId('tx-count').filter({ hasText: '100,' }).waitFor({ timeout: 60_000 });

    const frames = (await page.evaluate(`(${SCROLL_FRAMES})()`)) as {
      p50: number;
      p95: number;
      rendered: number;
    };
    figures.push({
      bench: 'renderer (Chromium)',
      metric: 'scroll frame p50',
      value: ms(frames.p50),
      note: `${frames.rendered} rows in the DOM`,
    });
    figures.push({
      bench: 'renderer (Chromium)',
      metric: 'scroll frame p95',
      value: ms(frames.p95),
      note: '120 jumps of 900px',
    });
  } finally {
    await browser.close();
    await host.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
  return figures;
}
