import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { test as base } from '@playwright/test';
import { type BrowserHost, startBrowserHost } from '../../electron/hosts/web/server';
import { createNodeCore } from '../../electron/hosts/node-core';
import type { AppCore } from '../../electron/core/compose';

export interface HostFixture {
  host: BrowserHost;
  core: AppCore;
  dataDir: string;
  /** Moves main's clock (the core's `now`) ahead of the real one: rules over time, without waiting. */
  clock: { offsetMs: number };
}

/**
 * Each test file gets its own browser host (fresh data directory, real services, real handlers) and
 * each test a fresh browser context, so IndexedDB starts empty.
 */
export const test = base.extend<{ app: HostFixture; demoTransactions: number | undefined }>({
  /** How many payments the Demo sandbox seeds (`test.use({ demoTransactions })`; its default when unset). */
  demoTransactions: [undefined, { option: true }],
  app: async ({ demoTransactions }, use) => {
    const dataDir = mkdtempSync(join(tmpdir(), 'rd-e2e-'));
    const clock = { offsetMs: 0 };
    const core = await createNodeCore({
      host: 'browser',
      dataDir,
      now: () => Date.now() + clock.offsetMs,
      ...(demoTransactions === undefined ? {} : { demo: { transactions: demoTransactions } }),
    });
    const host = await startBrowserHost({
      core,
      rendererDir: resolve(import.meta.dirname, '../../out/renderer'),
    });
    await use({ host, core, dataDir, clock });
    await host.close();
    await core.close();
    rmSync(dataDir, { recursive: true, force: true });
  },
});

export const expect = test.expect;

/** Where e2e screenshots go so a person can look at them (test-results is git-ignored). */
export const shotPath = (name: string) =>
  resolve(import.meta.dirname, '../../test-results/screens', `${name}.png`);
