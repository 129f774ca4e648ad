import { closeSync, openSync, readFileSync, statSync, unlinkSync, writeSync } from 'node:fs';

export interface FileLockOptions {
  /** How long to wait for another holder before giving up. */
  waitMs?: number;
  /** A lock older than this is considered abandoned (its holder crashed). Holders keep it for ms only. */
  staleMs?: number;
  now?: () => number;
}

export class LockBusyError extends Error {
  override name = 'LockBusyError';
}

function holderAlive(path: string): boolean {
  try {
    const pid = Number(readFileSync(path, 'utf8').split(' ')[0]);
    if (!Number.isInteger(pid) || pid <= 0) return false;
    process.kill(pid, 0);
    return true;
  } catch (e) {
    // EPERM: the process exists but belongs to someone else.
    return (e as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/**
 * An advisory lock between processes (the desktop app and CLI runs sharing one data directory): an
 * exclusively created file holding the owner's pid. Held only around short critical sections, so a
 * lock older than `staleMs` or whose pid is gone is taken over.
 */
export async function withFileLock<T>(
  path: string,
  fn: () => Promise<T> | T,
  opts: FileLockOptions = {},
): Promise<T> {
  const now = opts.now ?? Date.now;
  const deadline = now() + (opts.waitMs ?? 5_000);
  const staleMs = opts.staleMs ?? 10_000;
  let fd: number | undefined;
  while (fd === undefined) {
    try {
      fd = openSync(path, 'wx', 0o600);
    } catch (e) {
      if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
      let stale = false;
      try {
        stale = now() - statSync(path).mtimeMs > staleMs || !holderAlive(path);
      } catch {
        continue; // released between our open and stat: try again at once
      }
      if (stale) {
        try {
          unlinkSync(path);
        } catch {
          // another waiter removed it first
        }
        continue;
      }
      if (now() > deadline) throw new LockBusyError(`lock ${path} is held by another process`);
      await new Promise((r) => setTimeout(r, 15));
    }
  }
  try {
    writeSync(fd, `${process.pid} ${new Date(now()).toISOString()}`);
    return await fn();
  } finally {
    closeSync(fd);
    try {
      unlinkSync(path);
    } catch {
      // already taken over as stale: nothing to release
    }
  }
}
