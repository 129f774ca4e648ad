import { existsSync } from 'node:fs';
import { homedir } from 'node:os';
import { dirname, join } from 'node:path';
import { parseArgs } from 'node:util';
import { DATABASE_OPTIONS, optionalDatabase, type TeamDatabase, teamFailure } from '../cli/database';
import type { CliIo } from '../cli/io';
import type { AppCore } from '../../core/compose';
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

/** Printed and exited with, never with the password: a bad flag (2), a team database not opened (5). */
class StartFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** A promise and the functions that settle it. */
function deferred<T>() {
  let resolve: (value: T) => void = () => {};
  let reject: (reason: unknown) => void = () => {};
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  // Calls made meanwhile see the failure; main reports it.
  promise.catch(() => undefined);
  return { promise, resolve, reject };
}

/** --database-url / REFUND_DESK_DATABASE_URL and --ca-file, as the CLI reads them. */
function teamDatabase(values: { 'database-url'?: string; 'ca-file'?: string }): TeamDatabase | undefined {
  const io: CliIo = { out: () => undefined, err: () => undefined, env: process.env };
  try {
    return optionalDatabase(values, io);
  } catch (e) {
    throw new StartFailure(e instanceof Error ? e.message : String(e), 2);
  }
}

/**
 * `npm run start:web [-- --port <n> --data-dir <dir> --database-url <url> --ca-file <pem>]`: serves the built renderer and the real IPC
 * handlers to a browser on 127.0.0.1 and prints the URL (which carries the per-run secret). The script
 * runs this file as built by `npm run build` (out/web/host.mjs, with the page bridge prebuilt beside
 * it); `tsx electron/hosts/web/cli.ts` runs it from source, bundling the bridge at start. With
 * --database-url (or REFUND_DESK_DATABASE_URL) the journal is the team database (password in the URL or
 * PGPASSWORD, never printed); the rest stays in the data directory.
 */
async function main(): Promise<void> {
  const { values } = parseArgs({
    options: { port: { type: 'string' }, 'data-dir': { type: 'string' }, ...DATABASE_OPTIONS },
    allowPositionals: false,
  });
  const dataDir = values['data-dir'] ?? join(homedir(), '.refund-desk-web');
  const here = import.meta.dirname;
  const database = teamDatabase(values);
  const openCore = () =>
    createNodeCore({
      host: 'browser',
      dataDir,
      ...(database
        ? {
            team: { url: database.connectionString, ...(database.ca ? { ca: database.ca } : {}) },
          }
        : {}),
    }).catch((e: unknown) => {
      if (!database) throw e;
      throw new StartFailure(teamFailure(e, database).message, 5);
    });
  const bridgeScript = await servedBridgeScript(here, (note) => process.stderr.write(`${note}\n`));
  // A single desk's core opens while the page is already being served (the browser fetches and
  // compiles the renderer meanwhile; calls wait for the core): the URL is printed before the database,
  // the profiles and the Demo service are ready. A team database is connected to first, so a wrong
  // password or an unreachable server still ends the start (exit 5) before any URL is printed.
  const early = database ? undefined : deferred<AppCore>();
  const ready = early ? undefined : await openCore();
  const host = await startBrowserHost({
    core: early ? early.promise : ready!,
    rendererDir: join(projectRoot(here), 'out/renderer'),
    port: values.port ? Number(values.port) : 0,
    bridgeScript,
  });
  process.stdout.write(
    `Refund Desk browser host: ${host.url}\n(data directory: ${dataDir}${database ? `; team database: ${database.shown}` : ''}; Ctrl+C to stop)\n`,
  );
  let core: AppCore;
  if (early) {
    try {
      core = await openCore();
    } catch (e) {
      early.reject(e);
      await host.close();
      throw e;
    }
    early.resolve(core);
  } else core = ready!;
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
  process.exit(e instanceof StartFailure ? e.exitCode : 1);
});
