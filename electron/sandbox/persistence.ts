/**
 * File persistence for `--data`: debounced, atomic (temp file + fsync + rename + directory fsync), so a
 * crash mid-write leaves either the old or the new state on disk, never a torn file.
 */
import { open, readFile, rename, unlink } from 'node:fs/promises';
import { dirname } from 'node:path';
import type { SandboxData } from './types';

/** Reads a state file; undefined when it does not exist. Throws when it exists but is not ours. */
export async function loadData(file: string): Promise<SandboxData | undefined> {
  let text: string;
  try {
    text = await readFile(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  const data = JSON.parse(text) as Partial<SandboxData>;
  const lists = [data.payments, data.refunds, data.customers, data.vaults];
  if (data.version !== 1 || typeof data.seed !== 'number' || !lists.every(Array.isArray)) {
    throw new Error(`${file} is not a sandbox state file (version 1)`);
  }
  return data as SandboxData;
}

/** Writes `text` to `file` atomically. */
export async function writeAtomic(file: string, text: string): Promise<void> {
  const tmp = `${file}.${process.pid}.tmp`;
  const fh = await open(tmp, 'w', 0o600);
  try {
    await fh.writeFile(text, 'utf8');
    await fh.sync();
  } finally {
    await fh.close();
  }
  try {
    await rename(tmp, file);
  } catch (err) {
    await unlink(tmp).catch(() => undefined);
    throw err;
  }
  // The rename itself must reach the disk too; directories cannot be fsynced on every platform.
  try {
    const dir = await open(dirname(file), 'r');
    try {
      await dir.sync();
    } finally {
      await dir.close();
    }
  } catch {
    /* best effort (Windows) */
  }
}

export interface Persister {
  /** Marks state dirty; a write follows after the debounce delay. */
  schedule(): void;
  /** Writes now if anything is pending and waits for every write to finish. */
  flush(): Promise<void>;
}

/**
 * Debounced writer. Writes never overlap: a change during a write schedules one more write after it.
 */
export function createPersister(
  file: string,
  snapshot: () => SandboxData,
  opts: { debounceMs?: number; log?: (line: string) => void } = {},
): Persister {
  // Half a second bounds the write rate: a 100k-row state file is tens of megabytes.
  const debounceMs = opts.debounceMs ?? 500;
  let timer: NodeJS.Timeout | undefined;
  let dirty = false;
  let writing: Promise<void> = Promise.resolve();

  const writeNow = (): Promise<void> => {
    if (timer) clearTimeout(timer);
    timer = undefined;
    writing = writing.then(async () => {
      if (!dirty) return;
      dirty = false;
      try {
        await writeAtomic(file, JSON.stringify(snapshot()));
      } catch (err) {
        dirty = true;
        opts.log?.(`sandbox: could not save state: ${(err as Error).message}`);
      }
    });
    return writing;
  };

  return {
    schedule() {
      dirty = true;
      if (!timer) {
        timer = setTimeout(() => void writeNow(), debounceMs);
        timer.unref();
      }
    },
    async flush() {
      await writeNow();
    },
  };
}
