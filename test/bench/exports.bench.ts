/**
 * Exports of the Transactions view — its real 15 columns — for 1M cached payments, beside Python on the
 * same rows, runs alternating:
 * - xlsx_1m_vs_xlsxwriter: Refund Desk's Excel export vs xlsxwriter (constant_memory, its streaming
 *   mode); xlsx_1m_peak_mb: the memory that export adds over the rows, beside xlsxwriter's;
 * - csv_1m_vs_python: the CSV export vs Python's csv module.
 *
 * Ours runs where the app runs it: in Chromium, the page holding the list's rows (peers/list-rows.ts),
 * its export job reading cells in chunks and the app's built export worker writing the file, until the
 * file (a Blob) is ready to save. Memory: the renderer process's peak resident memory during the export
 * (the kernel's high-water mark, reset as it starts through /proc/<pid>/clear_refs) less its size
 * then; CPU: the renderer's CPU time (CDP SystemInfo). The Python side is measured the same way in its
 * own process (export_python.py). Needs `npx electron-vite build`.
 * `npm run bench -- exports`; BENCH_EXPORT_ROWS=100000 tries it small (printed, not written).
 */
import { existsSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { type Browser, chromium, type Page } from '@playwright/test';
import { createNodeCore } from '../../electron/hosts/node-core';
import { startBrowserHost } from '../../electron/hosts/web/server';
import { REFUNDED_STATE_LABELS, transactionStatusLabel, vendorLabel } from '../../shared/domain/labels';
import { loadNow, type Result, result, RUNS } from './figure';
import { pythonHas, pythonSide } from './peers/spawn';
import { pageScript } from './renderer.bench';

interface Written {
  ms: number;
  cpuMs: number;
  peakMb: number;
  baseMb: number;
  bytes?: number;
  rows: number;
}

/** The labels the app shows for the bench rows' codes, so Python writes the same texts. */
function labels() {
  const vendors = ['alipay', 'wechatpay', 'creditcard', 'paypal', 'unionpay'];
  return {
    status: Object.fromEntries(['success', 'closed', 'failed'].map((s) => [s, transactionStatusLabel(s)])),
    refunded: REFUNDED_STATE_LABELS.not_refunded,
    vendor: Object.fromEntries(vendors.map((v) => [v, vendorLabel(v) ?? v])),
  };
}

export const EXPORT_ROWS = Number(process.env['BENCH_EXPORT_ROWS'] ?? 1_000_000);

const BLANK = '/__bench-export';

/** Resident and peak memory (MB) of a process, from /proc. */
function procMemory(pid: number): { rss: number; hwm: number } {
  const out = { rss: NaN, hwm: NaN };
  for (const line of readFileSync(`/proc/${pid}/status`, 'utf8').split('\n')) {
    const m = /^(VmRSS|VmHWM):\s+(\d+) kB/.exec(line);
    if (m) out[m[1] === 'VmRSS' ? 'rss' : 'hwm'] = Number(m[2]) / 1024;
  }
  return out;
}

/** Chromium's renderer processes, with their CPU time so far (s). */
async function renderers(browser: Browser): Promise<Array<{ id: number; cpuTime: number }>> {
  const cdp = await browser.newBrowserCDPSession();
  const { processInfo } = (await cdp.send('SystemInfo.getProcessInfo')) as {
    processInfo: Array<{ type: string; id: number; cpuTime: number }>;
  };
  await cdp.detach();
  return processInfo.filter((p) => p.type === 'renderer' && existsSync(`/proc/${p.id}/status`));
}

/** One export of the view in Chromium: ms, the renderer memory it added, renderer CPU ms, file size. */
async function exportInChromium(
  browser: Browser,
  page: Page,
  origin: string,
  script: string,
  workerUrl: string,
  kind: 'csv' | 'xlsx',
) {
  await page.goto(`${origin}${BLANK}`);
  await page.evaluate(script);
  await page.evaluate(`__rdBench.prepareListRows(${EXPORT_ROWS})`);
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('HeapProfiler.collectGarbage');
  await cdp.detach();
  const before = await renderers(browser);
  const base = new Map<number, number>();
  for (const r of before) {
    writeFileSync(`/proc/${r.id}/clear_refs`, '5');
    base.set(r.id, procMemory(r.id).rss);
  }
  const out = (await page.evaluate(`__rdBench.exportView('${kind}', ${JSON.stringify(workerUrl)})`)) as {
    ms: number;
    size: number;
    columns: number;
  };
  if (out.columns !== 15) throw new Error(`the view exported ${out.columns} columns, not 15`);
  const after = await renderers(browser);
  let added = 0;
  let cpu = 0;
  for (const r of after) {
    const b = base.get(r.id);
    if (b === undefined) continue;
    added += Math.max(0, procMemory(r.id).hwm - b);
    cpu += (r.cpuTime - (before.find((x) => x.id === r.id)?.cpuTime ?? r.cpuTime)) * 1000;
  }
  const baseMb = [...base.values()].reduce((a, v) => a + v, 0);
  return { ms: out.ms, cpuMs: cpu, peakMb: added, baseMb, bytes: out.size };
}

async function measure(kind: 'csv' | 'xlsx', py: boolean, chrome: Chrome) {
  const dir = mkdtempSync(join(tmpdir(), `rd-export-${kind}-`));
  const ours = {
    ms: [] as number[],
    cpu: [] as number[],
    peaks: [] as number[],
    errors: [] as string[],
    bytes: 0,
    base: 0,
  };
  const peer = {
    ms: [] as number[],
    cpu: [] as number[],
    peaks: [] as number[],
    errors: [] as string[],
    base: 0,
  };
  try {
    for (let r = 0; r < RUNS; r += 1) {
      try {
        const o = await exportInChromium(
          chrome.browser,
          chrome.page,
          chrome.origin,
          chrome.script,
          chrome.workerUrl,
          kind,
        );
        ours.ms.push(o.ms);
        ours.cpu.push(o.cpuMs);
        ours.peaks.push(o.peakMb);
        ours.bytes = o.bytes;
        ours.base = o.baseMb;
      } catch (e) {
        ours.errors.push(e instanceof Error ? e.message.split('\n')[0]! : String(e));
        // A renderer that ran out of memory takes the page with it: a fresh one for the next run.
        await chrome.page.close().catch(() => undefined);
        chrome.page = await chrome.browser.newPage();
        await routeBlank(chrome);
      }
      // Free the page's rows before the peer runs.
      await chrome.page.goto('about:blank');
      if (py) {
        const pout = join(dir, `python-${r}.${kind}`);
        const p = pythonSide<Written>('export_python.py', [
          kind,
          String(EXPORT_ROWS),
          pout,
          JSON.stringify(labels()),
        ]);
        rmSync(pout, { force: true });
        if (p.ok) {
          peer.ms.push(p.ms);
          peer.cpu.push(p.cpuMs);
          peer.peaks.push(p.peakMb);
          peer.base = p.baseMb;
        } else peer.errors.push(p.error);
      }
      process.stderr.write(
        `  ${kind} ${EXPORT_ROWS}: ours ${ours.ms.map(Math.round).join(',')} (${ours.peaks.map(Math.round).join(',')} MB) python ${peer.ms.map(Math.round).join(',')} (${peer.peaks.map(Math.round).join(',')} MB)${ours.errors.length ? ` ours failed: ${ours.errors.at(-1)}` : ''}\n`,
      );
    }
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
  return { ours, peer };
}

interface Chrome {
  browser: Browser;
  page: Page;
  origin: string;
  script: string;
  workerUrl: string;
}

async function routeBlank(c: Chrome): Promise<void> {
  await c.page.route(`${c.origin}${BLANK}`, (route) =>
    route.fulfill({
      contentType: 'text/html',
      body: '<!doctype html><meta charset="utf-8"><title>export</title>',
    }),
  );
}

/** Chromium on the app's built renderer (for its export worker), a blank page of the same origin. */
async function withChrome<T>(fn: (c: Chrome) => Promise<T>): Promise<T> {
  const rendererDir = resolve(import.meta.dirname, '../../out/renderer');
  if (!existsSync(join(rendererDir, 'index.html')))
    throw new Error('Run `npx electron-vite build` first: the exports bench uses the built export worker.');
  const worker = readdirSync(join(rendererDir, 'assets')).find((f) => /^export\.worker-.*\.js$/.test(f));
  if (!worker) throw new Error('The build has no export worker (out/renderer/assets/export.worker-*.js).');
  const dataDir = mkdtempSync(join(tmpdir(), 'rd-bench-export-'));
  const core = await createNodeCore({ host: 'browser', dataDir, demo: { transactions: 10 } });
  const host = await startBrowserHost({ core, rendererDir });
  const browser = await chromium.launch({
    executablePath: process.env['CHROMIUM_PATH'] ?? '/usr/bin/chromium',
    args: [
      '--no-sandbox',
      '--disable-gpu',
      '--disable-background-networking',
      '--disable-component-update',
      '--no-first-run',
    ],
  });
  try {
    const origin = new URL(host.url).origin;
    const c: Chrome = {
      browser,
      page: await browser.newPage(),
      origin,
      script: await pageScript(),
      workerUrl: `${origin}/assets/${worker}`,
    };
    c.page.setDefaultTimeout(30 * 60_000);
    await routeBlank(c);
    return await fn(c);
  } finally {
    await browser.close();
    await host.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  }
}

const failures = (who: string, errors: string[]) =>
  errors.length ? ` ${who} failed ${errors.length} of ${RUNS} runs: ${errors[0]}.` : '';

export async function exportResults(): Promise<Result[]> {
  return withChrome((chrome) => measureAll(chrome));
}

async function measureAll(chrome: Chrome): Promise<Result[]> {
  const out: Result[] = [];
  const withXlsx = pythonHas('xlsxwriter');
  let load = loadNow();
  const x = await measure('xlsx', withXlsx, chrome);
  const xNote = `the Transactions view's 15 columns; ours: in Chromium, the page's export job reading the list rows' cells in chunks and the app's built export worker writing the .xlsx, until the file (a Blob, ${Math.round(x.ours.bytes / 1e6)} MB, which Chromium keeps outside the renderer) is ready to save; peer: xlsxwriter with constant_memory (its streaming mode), the same rows and cell types (text ids, numbers with their currency's decimals, dates in UTC+8, bold frozen filtered header), to a file; memory: peak resident memory the export adds over the rows (ours: the renderer process, ${Math.round(x.ours.base)} MB before it starts; Python ${Math.round(x.peer.base)} MB); CPU: the renderer's (page and worker) and Python's.${failures('Refund Desk', x.ours.errors)}${failures('xlsxwriter', x.peer.errors)}${withXlsx ? '' : ' xlsxwriter is not installed for /usr/bin/python3 (apt-get install python3-xlsxwriter).'}`;
  out.push(
    result(
      {
        name: 'xlsx_1m_vs_xlsxwriter',
        size: EXPORT_ROWS,
        unit: 'ms',
        goal: "ratio ≤ 1.0 (xlsxwriter's time for the same workbook)",
        note: xNote,
      },
      {
        ours: x.ours.ms,
        floor: x.peer.ms,
        peaks: x.ours.peaks,
        floorPeaks: x.peer.peaks,
        cpu: x.ours.cpu,
        floorCpu: x.peer.cpu,
      },
      load,
      (_m, ratio) => (ratio === null ? null : ratio <= 1),
    ),
    result(
      {
        name: 'xlsx_1m_peak_mb',
        size: EXPORT_ROWS,
        unit: 'MB',
        goal: '≤ 300 MB (memory flat while a 1M-row workbook is written); floor: xlsxwriter’s',
        note: xNote,
      },
      { ours: x.ours.peaks, floor: x.peer.peaks },
      load,
      (m) => m <= 300,
    ),
  );
  load = loadNow();
  const c = await measure('csv', true, chrome);
  out.push(
    result(
      {
        name: 'csv_1m_vs_python',
        size: EXPORT_ROWS,
        unit: 'ms',
        goal: "ratio ≤ 1.0 (Python's csv module, the same rows and columns)",
        note: `the Transactions view's 15 columns (times in UTC+8 with their offset, amounts from integer minor units, formula guard on ours), UTF-8 with BOM, CRLF; ours: in Chromium, the export job and the app's built export worker, until the file (a Blob, ${Math.round(c.ours.bytes / 1e6)} MB) is ready; peer: csv.writer to a file; memory: peak the export adds over the rows (ours: the renderer process, ${Math.round(c.ours.base)} MB before it starts; Python ${Math.round(c.peer.base)} MB).${failures('Refund Desk', c.ours.errors)}${failures('Python', c.peer.errors)}`,
      },
      {
        ours: c.ours.ms,
        floor: c.peer.ms,
        peaks: c.ours.peaks,
        floorPeaks: c.peer.peaks,
        cpu: c.ours.cpu,
        floorCpu: c.peer.cpu,
      },
      load,
      (_m, ratio) => (ratio === null ? null : ratio <= 1),
    ),
  );
  return out;
}
