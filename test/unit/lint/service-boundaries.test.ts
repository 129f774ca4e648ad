import { resolve } from 'node:path';
import { ESLint } from 'eslint';
import { describe, expect, it } from 'vitest';

/**
 * The lint rules that keep services portable (eslint.config.js): a service reaches adapters only through
 * the ports the composition root hands it, never asks the OS who it is, never loads modules itself and
 * never probes a pid — liveness is a lease, so a sender on another machine means the same as one here.
 */
const root = resolve(import.meta.dirname, '../../..');
const eslint = new ESLint({ cwd: root });

async function ruleHits(code: string, filePath: string): Promise<string[]> {
  const [result] = await eslint.lintText(code, { filePath: resolve(root, filePath) });
  // The boundary rules (and any parse error); unused names in the probes are beside the point.
  return result!.messages
    .filter((m) => m.ruleId === null || m.ruleId.startsWith('no-restricted-'))
    .map((m) => `${m.line}:${m.ruleId ?? 'parse'}`);
}

const SERVICE = 'electron/core/services/refunds/lint-probe.ts';

describe('lint: what services may not reach', () => {
  it.each([
    ["import { hostname } from 'node:os';", 'os'],
    ["import { userInfo } from 'os';", 'os, bare'],
    ["import { createRequire } from 'node:module';", 'module'],
    ["import { builtinModules } from 'module';", 'module, bare'],
    ["import { openDatabase } from '../../adapters/sqlite/database';", 'an adapter'],
    ["import type { Database } from '../../adapters/sqlite/database';", 'an adapter’s type'],
    ["import { processIdentity } from '../../adapters/process-identity';", 'the process identity adapter'],
  ])('%s (%s) is an error in a service', async (line) => {
    expect(await ruleHits(`${line}\nexport const x = 1;\n`, SERVICE)).toEqual(['1:no-restricted-imports']);
  });

  it.each([
    ['process.kill(pid, 0);', 'no-restricted-properties'],
    ["process['kill'](pid, 0);", 'no-restricted-properties'],
    ['globalThis.process.kill(pid, 0);', 'no-restricted-syntax'],
    ['const { kill } = process;\nvoid kill;', 'no-restricted-properties'],
  ])('%s is an error in a service', async (line, rule) => {
    expect(await ruleHits(`export function f(pid: number) {\n  ${line}\n}\n`, SERVICE)).toEqual([
      `2:${rule}`,
    ]);
  });

  it('the same code is allowed where it belongs: in an adapter, and in the host that composes', async () => {
    const code = [
      "import { hostname } from 'node:os';",
      "import { createRequire } from 'node:module';",
      'export const who = (pid: number) => (process.kill(pid, 0), [hostname(), createRequire]);',
      '',
    ].join('\n');
    expect(await ruleHits(code, 'electron/core/adapters/lint-probe.ts')).toEqual([]);
    expect(
      await ruleHits(
        "import { processIdentity } from './adapters/process-identity';\nexport const p = processIdentity;\n",
        'electron/core/lint-probe.ts',
      ),
    ).toEqual([]);
  });

  it('refunds and payments share the engine and never reach into each other (nor, there, into adapters)', async () => {
    const payments = 'electron/core/services/payments/lint-probe.ts';
    const refunds = 'electron/core/services/refunds/lint-probe.ts';
    const uses = (from: string) => `${from}\nexport const x = 1;\n`;
    expect(await ruleHits(uses("import { OPEN_STATES } from '../refunds/intent';"), payments)).toEqual([
      '1:no-restricted-imports',
    ]);
    expect(await ruleHits(uses("import type { PaymentIntent } from '../payments/intent';"), refunds)).toEqual(
      ['1:no-restricted-imports'],
    );
    expect(await ruleHits(uses("import { hostname } from 'node:os';"), payments)).toEqual([
      '1:no-restricted-imports',
    ]);
    expect(await ruleHits(uses("import { whileLeased } from '../engine/lease';"), payments)).toEqual([]);
    expect(await ruleHits(uses("import { classifyFailure } from '../engine/classify';"), refunds)).toEqual(
      [],
    );
  });

  it('every service as it is today passes', async () => {
    const results = await eslint.lintFiles(['electron/core/services/**/*.ts']);
    const errors = results.flatMap((r) =>
      r.messages.filter((m) => m.severity === 2).map((m) => `${r.filePath}:${m.line} ${m.ruleId}`),
    );
    expect(errors).toEqual([]);
  });
});
