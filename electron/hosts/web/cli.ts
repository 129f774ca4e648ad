import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { CoreOpenFailure, startCoreThread } from './core-thread';
import { BUILT_CORE_WORKER, servedBridgeScript } from './page-script';

/** The folder holding package.json above `from`: this file runs from electron/hosts/web or, built, out/web. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}.`);
  }
}

/** Read here only to know whether this is a team desk; the core's thread reads and checks it. */
const DATABASE_URL_ENV = 'REFUND_DESK_DATABASE_URL';

/**
 * The core's thread: core-worker.ts run from source (tsx hands its loader on to workers), or its build
 * beside the built host.
 */
const coreWorkerFile = () =>
  new URL(import.meta.url.endsWith('.ts') ? './core-worker.ts' : `./${BUILT_CORE_WORKER}`, import.meta.url);

/**
 * `npm run start:web [-- --port <n> --data-dir <dir> --database-url <url> --ca-file <pem>]`: serves the built renderer and the real IPC
 * handlers to a browser on 127.0.0.1 and prints the URL (which carries the per-run secret). The script
 * runs this file as built by `npm run build` (out/web/host.mjs, with the page bridge prebuilt beside
 * it); `tsx electron/hosts/web/cli.ts` runs it from source, bundling the bridge at start. With
 * --database-url (or REFUND_DESK_DATABASE_URL) the journal is the team database (password in the URL or
 * PGPASSWORD, never printed); the rest stays in the data directory.
 *
 * The core opens and runs on a worker thread (core-worker.ts), so this thread loads only the HTTP
 * server: it prints the URL within a few milliseconds of Node's start and goes on serving the page
 * while the core's code loads, a fresh database is migrated and the Demo sandbox seeded. The core's
 * thread is started first, before this thread loads the HTTP server (server.ts, node:http and what it
 * needs: ~20 ms), so the core's own start — the longest part of the host's, which the page waits for —
 * begins that much earlier, on the other processor core.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'data-dir': { type: 'string' },
      'database-url': { type: 'string' },
      'ca-file': { type: 'string' },
    },
    allowPositionals: false,
  });
  const dataDir = values['data-dir'] ?? join(homedir(), '.refund-desk-web');
  const here = import.meta.dirname;
  const database = {
    ...(values['database-url'] !== undefined ? { 'database-url': values['database-url'] } : {}),
    ...(values['ca-file'] !== undefined ? { 'ca-file': values['ca-file'] } : {}),
  };
  let stopping = false;
  const thread = startCoreThread(coreWorkerFile(), { dataDir, database }, (e) => {
    if (stopping) return;
    process.stderr.write(`The browser host's core stopped: ${e.message}\n`);
    process.exit(1);
  });
  // A team desk (or flags that may be wrong) waits for its core: a bad flag (exit 2), a wrong password or
  // an unreachable database (exit 5) still end the start before any URL is printed. A single desk's core
  // opens while the page is already being served, and calls wait for it.
  const team = Object.keys(database).length > 0 || !!process.env[DATABASE_URL_ENV]?.trim();
  // The HTTP side loads while the core's thread starts (see above).
  const { startBrowserHost } = await import('./server');
  const opened = team ? await thread.ready : undefined;
  const bridgeScript = await servedBridgeScript(here, (note) => process.stderr.write(`${note}\n`));
  const host = await startBrowserHost({
    core: thread.ready,
    rendererDir: join(projectRoot(here), 'out/renderer'),
    port: values.port ? Number(values.port) : 0,
    bridgeScript,
  });
  process.stdout.write(
    `Refund Desk browser host: ${host.url}\n(data directory: ${dataDir}${opened?.shown ? `; team database: ${opened.shown}` : ''}; Ctrl+C to stop)\n`,
  );
  try {
    await thread.ready;
  } catch (e) {
    await host.close();
    throw e;
  }
  const stop = async () => {
    stopping = true;
    await host.close();
    await thread.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  process.stderr.write(`Could not start the browser host: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof CoreOpenFailure ? e.exitCode : 1);
});
