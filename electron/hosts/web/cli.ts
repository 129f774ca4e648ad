import { homedir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { createNodeCore } from '../node-core';
import { startBrowserHost } from './server';

/**
 * `npm run start:web [-- --port <n> --data-dir <dir>]`: serves the built renderer and the real IPC
 * handlers to a browser on 127.0.0.1 and prints the URL (which carries the per-run secret).
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, 'data-dir': { type: 'string' } },
    allowPositionals: false,
  });
  const dataDir = values['data-dir'] ?? join(homedir(), '.refund-desk-web');
  const core = await createNodeCore({ host: 'browser', dataDir });
  const host = await startBrowserHost({
    core,
    rendererDir: resolve(import.meta.dirname, '../../../out/renderer'),
    port: values.port ? Number(values.port) : 0,
  });
  process.stdout.write(
    `Refund Desk browser host: ${host.url}\n(data directory: ${dataDir}; Ctrl+C to stop)\n`,
  );
  const stop = async () => {
    await host.close();
    await core.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  process.stderr.write(`Could not start the browser host: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(1);
});
