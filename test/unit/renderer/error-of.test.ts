import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { BridgeError, errorOf } from '../../../renderer/src/lib/bridge';

const src = resolve(import.meta.dirname, '../../../renderer/src');
const files = (dir: string): string[] =>
  readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? files(join(dir, d.name)) : /\.tsx?$/.test(d.name) ? [join(dir, d.name)] : [],
  );

describe('errorOf: the one way a screen words a failure', () => {
  it('gives main’s envelope as sent, and one envelope for anything else (a bug)', () => {
    const envelope = {
      code: 'conflict' as const,
      message: 'Another refund of this payment is in flight.',
      retryable: false,
      correlationId: 'C1',
    };
    expect(errorOf(new BridgeError(envelope))).toBe(envelope);
    expect(errorOf(new TypeError('x is undefined'))).toEqual({
      code: 'internal',
      message: 'Something went wrong inside Refund Desk. Nothing was sent.',
      retryable: false,
      correlationId: '',
    });
  });

  it('is defined once in the renderer (lib/bridge), so refunds and payments cannot drift apart', () => {
    const definitions = files(src).filter((f) =>
      /\b(const|let|function)\s+errorOf\b/.test(readFileSync(f, 'utf8')),
    );
    expect(definitions.map((f) => relative(src, f))).toEqual(['lib/bridge.ts']);
  });
});
