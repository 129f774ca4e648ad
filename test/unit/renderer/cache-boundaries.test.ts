import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The cache's boundaries, as the project's own lint config enforces them: features reach the cache only
 * through db/owner (never Dexie or IndexedDB), and the cache layer never imports a feature. Each rule is
 * checked both ways — a violation is reported, and the real files are clean.
 */
const root = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

/** The messages of the boundary rules for `code` linted as if it were the file at `path`. */
async function boundaryMessages(code: string, path: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, path) });
  return (result?.messages ?? [])
    .filter((m) =>
      ['no-restricted-imports', 'no-restricted-globals', 'no-restricted-properties'].includes(m.ruleId ?? ''),
    )
    .map((m) => `${m.ruleId}: ${m.message}`);
}

describe('cache boundaries (eslint.config.js)', () => {
  it('a feature may not import Dexie or touch IndexedDB', { timeout: 60_000 }, async () => {
    const feature = 'renderer/src/features/transactions/probe.ts';
    for (const code of [
      "import Dexie from 'dexie';\nexport const d = Dexie;\n",
      "import { liveQuery } from 'dexie';\nexport const q = liveQuery;\n",
      "export const open = () => indexedDB.open('refund-desk');\n",
      "export const open = () => window.indexedDB.open('refund-desk');\n",
      "export const open = () => globalThis.indexedDB.open('refund-desk');\n",
      'export const range = () => IDBKeyRange.only(1);\n',
    ]) {
      const messages = await boundaryMessages(code, feature);
      expect(messages, code).toHaveLength(1);
      expect(messages[0], code).toContain('db/owner');
    }
    // The same code is the cache layer's own business.
    expect(
      await boundaryMessages(
        "import Dexie from 'dexie';\nexport const d = Dexie;\n",
        'renderer/src/db/probe.ts',
      ),
    ).toEqual([]);
    expect(
      await boundaryMessages("export const o = () => indexedDB.open('x');\n", 'renderer/src/db/probe.ts'),
    ).toEqual([]);
  });

  it('the cache layer imports no feature (a screen’s view model)', async () => {
    const messages = await boundaryMessages(
      "import { toListRow } from '../features/transactions/list-row';\nexport const f = toListRow;\n",
      'renderer/src/db/probe.ts',
    );
    expect(messages).toHaveLength(1);
    expect(messages[0]).toContain('imports no screen');
  });

  // The features are linted by `npm run lint` like every file; the cache layer is checked here too,
  // because its import of a feature's view model is what these rules were written against.
  it('the real cache layer keeps to it', { timeout: 120_000 }, async () => {
    const results = await eslint.lintFiles(['renderer/src/db/**/*.ts']);
    const broken = results.flatMap((r) =>
      r.messages
        .filter((m) =>
          ['no-restricted-imports', 'no-restricted-globals', 'no-restricted-properties'].includes(
            m.ruleId ?? '',
          ),
        )
        .map((m) => `${r.filePath.slice(root.length + 1)}:${m.line} ${m.message}`),
    );
    expect(broken).toEqual([]);
  });
});
