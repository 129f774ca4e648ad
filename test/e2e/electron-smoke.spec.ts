import { existsSync, readFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { _electron as electron, expect, test } from '@playwright/test';

/**
 * The real Electron app, where its binary exists (a user's machine). Our build machines cannot download
 * it. We look for the binary without require('electron'): since v42 that require downloads the binary on
 * first use, which must not happen inside a test run.
 */
function electronBinary(): string | undefined {
  try {
    const pkgDir = dirname(createRequire(import.meta.url).resolve('electron/package.json'));
    const pathFile = join(pkgDir, 'path.txt');
    if (!existsSync(pathFile)) return undefined;
    const binary = join(pkgDir, 'dist', readFileSync(pathFile, 'utf8').trim());
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

const binary = electronBinary();

test('the Electron app starts and answers the health check through the preload', async () => {
  test.skip(
    !binary,
    'Electron binary not installed (npm start downloads it; build machines cannot) — skipping the Electron smoke test',
  );
  const app = await electron.launch({ args: ['.'], executablePath: binary });
  const page = await app.firstWindow();
  await expect(page.getByTestId('health')).toHaveAttribute('data-state', /^(ok|untried)$/);
  // The sandboxed renderer has no Node: require and process are absent.
  expect(await page.evaluate(() => typeof (globalThis as { require?: unknown }).require)).toBe('undefined');
  await app.close();
});
