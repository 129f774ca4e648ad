/**
 * Runs one side of a comparison in a fresh process (its memory its own) and reads the JSON line it
 * prints last. A side that fails (out of memory, a crash) comes back as `{ error }` with the end of its
 * output, so the bench records why instead of stopping.
 */
import { spawnSync } from 'node:child_process';
import { resolve } from 'node:path';

const CHILD = resolve(import.meta.dirname, 'child.ts');
export const PY = '/usr/bin/python3';
export const PEERS_DIR = import.meta.dirname;

export type Outcome<T> = ({ ok: true } & T) | { ok: false; error: string };

function parseLast<T>(
  stdout: string,
  stderr: string,
  status: number | null,
  signal: string | null,
): Outcome<T> {
  const last = stdout.trim().split('\n').at(-1) ?? '';
  if (status === 0) {
    try {
      return { ok: true, ...(JSON.parse(last) as T) };
    } catch {
      // fall through: not the JSON line
    }
  }
  const why = signal ? `killed by ${signal}` : `exit ${String(status)}`;
  const tail = `${stderr}`.trim().split('\n').slice(-4).join(' / ').slice(-600);
  return {
    ok: false,
    error: `${why}: ${/heap out of memory/i.test(stderr) ? 'out of memory; ' : ''}${tail}`,
  };
}

/** `node --import tsx child.ts <mode> <args as JSON>` (see child.ts). */
export function nodeSide<T>(mode: string, args: unknown, nodeFlags: string[] = []): Outcome<T> {
  const r = spawnSync(
    process.execPath,
    [...nodeFlags, '--expose-gc', '--import', 'tsx', CHILD, mode, JSON.stringify(args)],
    { encoding: 'utf8', maxBuffer: 64 * 1024 * 1024, timeout: 30 * 60_000 },
  );
  return parseLast<T>(r.stdout ?? '', r.stderr ?? String(r.error ?? ''), r.status, r.signal);
}

/** `/usr/bin/python3 <script> <args…>` from this folder. */
export function pythonSide<T>(script: string, args: string[]): Outcome<T> {
  const r = spawnSync(PY, [resolve(PEERS_DIR, script), ...args], {
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
    timeout: 30 * 60_000,
  });
  return parseLast<T>(r.stdout ?? '', r.stderr ?? String(r.error ?? ''), r.status, r.signal);
}

/** Whether Debian's python3 has these modules. */
export function pythonHas(...modules: string[]): boolean {
  const r = spawnSync(PY, ['-c', modules.map((m) => `import ${m}`).join('\n')], { encoding: 'utf8' });
  return r.status === 0;
}
