import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, resolve } from 'node:path';
import AxeBuilder from '@axe-core/playwright';
import type { Page } from '@playwright/test';
import { expect } from './fixtures';

/** One violation as the report shows it: rule, impact and where. */
export interface Finding {
  rule: string;
  impact: string;
  help: string;
  /** How many elements fail (the report lists the first five). */
  count: number;
  nodes: string[];
}

/**
 * Runs axe-core on the page as it is now. AxeBuilder injects axe's source with Playwright's
 * `page.evaluate` (the DevTools protocol), which the page's CSP does not govern: no inline <script>
 * tag, no `bypassCSP`, so the app is checked under exactly the policy it ships with.
 */
export async function axeFindings(page: Page): Promise<Finding[]> {
  const results = await new AxeBuilder({ page }).analyze();
  return results.violations.map((v) => ({
    rule: v.id,
    impact: v.impact ?? 'unknown',
    help: v.help,
    count: v.nodes.length,
    nodes: v.nodes.slice(0, 5).map((n) => `${n.target.join(' ')} — ${n.failureSummary ?? ''}`.slice(0, 300)),
  }));
}

const reportPath = (label: string) =>
  resolve(import.meta.dirname, '../../test-results/axe', `${label.replace(/[^\w.-]+/g, '-')}.json`);

/**
 * Checks the current screen: no serious or critical axe-core violation. Every finding (minor and
 * moderate too) is written to test-results/axe/<label>.json so a person can read them.
 */
export async function expectAccessible(page: Page, label: string): Promise<void> {
  const findings = await axeFindings(page);
  const path = reportPath(label);
  mkdirSync(dirname(path), { recursive: true });
  writeFileSync(path, JSON.stringify(findings, null, 2));
  const blocking = findings.filter((f) => f.impact === 'serious' || f.impact === 'critical');
  expect(blocking, `${label}: ${JSON.stringify(blocking, null, 2)}`).toEqual([]);
}
