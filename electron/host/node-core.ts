import { mkdirSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createLogger } from '../main/adapters/logger';
import { type AppCore, createAppCore } from '../main/compose';
import type { Logger } from '../main/services/ports';

export interface NodeCoreOptions {
  host: 'browser' | 'cli';
  dataDir: string;
  log?: Logger;
  now?: () => number;
}

/** Version from package.json, read once (there is no Electron app.getVersion() here). */
export function packageVersion(): string {
  try {
    const pkg = JSON.parse(readFileSync(resolve(import.meta.dirname, '../../package.json'), 'utf8')) as { version?: string };
    return pkg.version ?? '0.0.0';
  } catch {
    return '0.0.0';
  }
}

/**
 * Builds the app core with plain-Node adapters, for the browser host and the CLI. The Electron host
 * builds the same core with Electron adapters in electron/main/index.ts.
 */
export async function createNodeCore(opts: NodeCoreOptions): Promise<AppCore> {
  const dataDir = resolve(opts.dataDir);
  mkdirSync(dataDir, { recursive: true });
  const now = opts.now ?? Date.now;
  const log = opts.log ?? createLogger({ file: join(dataDir, 'logs', `${opts.host}.jsonl`), sink: () => {}, now });
  return createAppCore({
    host: opts.host,
    name: 'Refund Desk',
    version: packageVersion(),
    dataDir,
    platform: process.platform,
    clock: { now },
    log,
    // No system browser to hand links to from here: record the request and do nothing.
    openExternal: async (url) => log.info('external.open_skipped', { host: new URL(url).host }),
  });
}
