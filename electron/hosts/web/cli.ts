import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import type { AppCore } from '../../core/compose';
import { CoreOpenFailure, type DatabaseFlags, isTeamDesk } from './core-start';
import { servedBridgeScript } from './page-script';

/** The folder holding package.json above `from`: this file runs from electron/hosts/web or, built, out/web. */
function projectRoot(from: string): string {
  for (let dir = from; ; dir = dirname(dir)) {
    if (existsSync(join(dir, 'package.json'))) return dir;
    if (dirname(dir) === dir) throw new Error(`No package.json above ${from}.`);
  }
}

/**
 * `npm run start:web [-- --port <n> --data-dir <dir> --database-url <url> --ca-file <pem>]`: serves the built renderer and the real IPC
 * handlers to a browser on 127.0.0.1 and prints the URL (which carries the per-run secret). The script
 * runs this file as built by `npm run build` (out/web/host.mjs, with the page bridge prebuilt beside
 * it); `tsx electron/hosts/web/cli.ts` runs it from source, bundling the bridge at start. With
 * --database-url (or REFUND_DESK_DATABASE_URL) the journal is the team database (password in the URL or
 * PGPASSWORD, never printed); the rest stays in the data directory.
 *
 * A single desk prints the URL as soon as its HTTP server listens, and only then loads and opens the
 * core (open-core.ts), in this thread: the page's requests for the renderer's files are answered while
 * the core opens, and its calls wait for the core. The core once ran on a worker thread of its own; in
 * this thread the start costs about a third less CPU (no second JavaScript environment, Node's modules
 * loaded once), and the page, which competes for the same two cores, is interactive sooner (issue 30,
 * docs/benchmarks.md).
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
  const flags: DatabaseFlags = {
    ...(values['database-url'] !== undefined ? { 'database-url': values['database-url'] } : {}),
    ...(values['ca-file'] !== undefined ? { 'ca-file': values['ca-file'] } : {}),
  };
  // The core's opening blocks this thread while its code is evaluated and again while it opens; a turn
  // of the event loop before each lets the server answer what the page has asked meanwhile (its page
  // and files first, the core's opening after). In the bench's start, alternated 30 runs each, this and
  // the page's deferred bridge (server.ts) took the start from ~430 to ~405 ms (issue 30).
  const turn = () => new Promise<void>((resolve) => setImmediate(resolve));
  const open = async () => {
    await turn();
    const m = await import('./open-core');
    await turn();
    return m.openCore(dataDir, flags);
  };
  // A team desk (or flags that may be wrong) opens its core first: a bad flag (exit 2), a wrong password
  // or an unreachable database (exit 5) end the start before any URL is printed.
  const opened = isTeamDesk(flags) ? await open() : undefined;
  const { startBrowserHost } = await import('./server');
  const bridgeScript = await servedBridgeScript(here, (note) => process.stderr.write(`${note}\n`));
  let resolveCore: (core: AppCore) => void = () => undefined;
  let rejectCore: (e: unknown) => void = () => undefined;
  const core = new Promise<AppCore>((resolve, reject) => {
    resolveCore = resolve;
    rejectCore = reject;
  });
  // Calls made before a failure is known fail with it ("Host error"); the failure itself is reported below.
  core.catch(() => undefined);
  const host = await startBrowserHost({
    core,
    rendererDir: join(projectRoot(here), 'out/renderer'),
    port: values.port ? Number(values.port) : 0,
    bridgeScript,
  });
  process.stdout.write(
    `Refund Desk browser host: ${host.url}\n(data directory: ${dataDir}${opened?.shown ? `; team database: ${opened.shown}` : ''}; Ctrl+C to stop)\n`,
  );
  let app: AppCore;
  try {
    app = (opened ?? (await open())).core;
  } catch (e) {
    rejectCore(e);
    await host.close();
    throw e;
  }
  resolveCore(app);
  const stop = async () => {
    await host.close();
    await app.close();
    process.exit(0);
  };
  process.on('SIGINT', () => void stop());
  process.on('SIGTERM', () => void stop());
}

main().catch((e: unknown) => {
  process.stderr.write(`Could not start the browser host: ${e instanceof Error ? e.message : String(e)}\n`);
  process.exit(e instanceof CoreOpenFailure ? e.exitCode : 1);
});
