import { spawn } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';

/**
 * The browser host's start as a person runs it (electron/hosts/web/cli.ts from source): its core opens
 * on a thread of its own, and how a failed opening ends the start is what it always was.
 */
const ROOT = resolve(import.meta.dirname, '../../..');
const dir = mkdtempSync(join(tmpdir(), 'rd-host-start-'));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function host(args: string[], env: NodeJS.ProcessEnv = {}) {
  return new Promise<{ code: number | null; stdout: string; stderr: string }>((done) => {
    const child = spawn(
      process.execPath,
      ['--import', 'tsx', 'electron/hosts/web/cli.ts', '--port', '0', ...args],
      { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...process.env, ...env } },
    );
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (d: Buffer) => (stdout += d.toString()));
    child.stderr.on('data', (d: Buffer) => (stderr += d.toString()));
    child.on('exit', (code) => done({ code, stdout, stderr }));
  });
}

describe('the browser host start', () => {
  it('a bad database flag ends it with exit 2 before any URL is printed', async () => {
    const r = await host(['--data-dir', join(dir, 'a'), '--ca-file', join(dir, 'ca.pem')], {
      REFUND_DESK_DATABASE_URL: '',
    });
    expect(r.code).toBe(2);
    expect(r.stdout).not.toContain('http://');
    expect(r.stderr).toContain('Could not start the browser host: --ca-file goes with --database-url');
  }, 60_000);

  it('a single desk whose core cannot open (its data directory is a file): the URL came first, then exit 1 and why', async () => {
    const file = join(dir, 'not-a-folder');
    writeFileSync(file, 'x');
    const r = await host(['--data-dir', file], { REFUND_DESK_DATABASE_URL: '' });
    expect(r.code).toBe(1);
    expect(r.stdout).toMatch(/http:\/\/127\.0\.0\.1:\d+\/#secret=/);
    expect(r.stderr).toMatch(/Could not start the browser host: .*not-a-folder/);
  }, 60_000);
});
