import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { minorSchema } from '../../../shared/domain/money';

/**
 * An amount in minor units has one schema, `minorSchema` (shared/domain/money.ts): a second copy drifts
 * (one refused unsafe integers, another did not), and docs/architecture.md says there is one.
 */
const root = resolve(import.meta.dirname, '../../..');

function sources(dir: string): string[] {
  return readdirSync(join(root, dir)).flatMap((name) => {
    const path = join(dir, name);
    if (statSync(join(root, path)).isDirectory()) return name === 'node_modules' ? [] : sources(path);
    return /\.tsx?$/.test(name) ? [path] : [];
  });
}

describe('the minor-unit amount schema', () => {
  it('refuses fractions and integers past the safe range, accepts whole amounts', () => {
    expect(minorSchema.safeParse(1250).success).toBe(true);
    expect(minorSchema.safeParse(-5).success).toBe(true);
    expect(minorSchema.safeParse(12.5).success).toBe(false);
    expect(minorSchema.safeParse(Number.MAX_SAFE_INTEGER + 1).success).toBe(false);
  });

  it('is written once: no other schema of an amount in minor units in shared/, electron/ or renderer/', () => {
    const copies: string[] = [];
    for (const file of ['shared', 'electron', 'renderer'].flatMap(sources)) {
      if (file === join('shared', 'domain', 'money.ts')) continue;
      const text = readFileSync(join(root, file), 'utf8');
      text.split('\n').forEach((line, i) => {
        // A schema of its own for an amount: the safe-integer refinement, or a *Minor field as a bare number.
        if (/refine\(Number\.isSafeInteger/.test(line) || /\w*Minor\??:\s*z\s*\.\s*number\(\)/.test(line))
          copies.push(`${relative(root, join(root, file))}:${i + 1}: ${line.trim()}`);
      });
    }
    expect(copies).toEqual([]);
  });
});
