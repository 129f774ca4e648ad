import type { Page } from '@playwright/test';
import { expectAccessible } from './axe';
import { shotPath } from './fixtures';

/** The two window sizes the finance desks use, and the two themes. */
export const VIEWPORTS = [
  { width: 1280, height: 720 },
  { width: 1440, height: 900 },
] as const;
export const THEMES = ['light', 'dark'] as const;

/**
 * Looks at the current screen the way the issue asks: axe-core (0 serious/critical) in both themes,
 * and a screenshot at 1280×720 and 1440×900 in each theme (test-results/screens/<name>-<w>x<h>-<theme>.png).
 * The theme comes from the OS setting (emulated), which the app follows unless the person overrides it.
 */
export async function look(page: Page, name: string, opts: { axe?: boolean; shots?: boolean } = {}) {
  const original = page.viewportSize();
  for (const theme of THEMES) {
    await page.emulateMedia({ colorScheme: theme });
    await page.waitForFunction((t) => document.documentElement.dataset['theme'] === t, theme);
    if (opts.axe !== false) {
      await page.setViewportSize(VIEWPORTS[0]);
      await expectAccessible(page, `${name}-${theme}`);
    }
    if (opts.shots === false) continue;
    for (const v of VIEWPORTS) {
      await page.setViewportSize(v);
      await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
      await page.screenshot({ path: shotPath(`${name}-${v.width}x${v.height}-${theme}`) });
    }
  }
  await page.emulateMedia({ colorScheme: 'light' });
  if (original) await page.setViewportSize(original);
}
