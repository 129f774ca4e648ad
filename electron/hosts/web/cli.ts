import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { createNodeCore } from '../node-core';
import { servedBridgeScript } from './page-script';
import { startBrowserHost } from './server';

/** The folder holding package.json above `from`: this file runs from electron/hosts/web or, built, out/web. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}.`);
  }
}

/**
 * `npm run start:web [-- --port <n> --data-dir <dir>]`: serves the built renderer and the real IPC
 * handlers to a browser on 127.0.0.1 and prints the URL (which carries the per-run secret). The script
 * runs this file as built by `npm run build` (out/web/host.mjs, with the page bridge prebuilt beside
 * it); `tsx electron/hosts/web/cli.ts` runs it from source, bundling the bridge at start.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, 'data-dir': { type: 'string' } },
    allowPositionals: false,
  });
  const dataDir = values['data-dir'] ?? join(homedir(), '.refund-desk-web');
  const here = import.meta.dirname;
  const [core, bridgeScript] = await Promise.all([
    createNodeCore({ host: 'browser', dataDir }),
    servedBridgeScript(here, (note) => process.stderr.write(`${note}\n`)),
  ]);
  const host = await startBrowserHost({
    core,
    rendererDir: join(projectRoot(here), 'out/renderer'),
    port: values.port ? Number(values.port) : 0,
    bridgeScript,
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
