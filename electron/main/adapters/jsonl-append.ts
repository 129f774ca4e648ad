import { mkdir, open } from 'node:fs/promises';
import { dirname } from 'node:path';

/**
 * Appends one JSON line and fsyncs before resolving, so "recorded" means on disk. Callers pass only
 * fields that are safe to keep (no signatures, tokens or card data).
 */
export function createJsonlAppender(file: string): (record: object) => Promise<void> {
  let chain: Promise<void> = Promise.resolve();
  return (record) => {
    const line = `${JSON.stringify(record)}\n`;
    // Serialised so concurrent IPNs never interleave bytes within a line.
    const next = chain.then(async () => {
      await mkdir(dirname(file), { recursive: true });
      const fh = await open(file, 'a', 0o600);
      try {
        await fh.write(line);
        await fh.sync();
      } finally {
        await fh.close();
      }
    });
    chain = next.catch(() => undefined);
    return next;
  };
}
