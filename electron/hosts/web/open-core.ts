import type { AppCore } from '../../core/compose';
import type { TeamDatabase } from '../cli/database';
import type { CliIo } from '../cli/io';
import { createNodeCore } from '../node-core';
import { CoreOpenFailure, type DatabaseFlags, isTeamDesk } from './core-start';

/**
 * Opens the browser host's core in this thread, as the CLI opens its own; a failure is a CoreOpenFailure
 * with the host's exit code for it. The team database's code (the pg client) loads only for a team desk:
 * a single desk never needs it. cli.ts imports this module only once the URL is printed (a single desk)
 * or before printing it (a team desk, whose start must fail before any URL when the database cannot be
 * used), so the HTTP server is up before the core's code is even loaded.
 */
export async function openCore(
  dataDir: string,
  flags: DatabaseFlags,
): Promise<{ core: AppCore; shown?: string }> {
  const cli = isTeamDesk(flags) ? await import('../cli/database') : undefined;
  let database: TeamDatabase | undefined;
  try {
    const io: CliIo = { out: () => undefined, err: () => undefined, env: process.env };
    database = cli?.optionalDatabase(flags, io);
  } catch (e) {
    throw new CoreOpenFailure(e instanceof Error ? e.message : String(e), 2);
  }
  try {
    const core = await createNodeCore({
      host: 'browser',
      dataDir,
      ...(database
        ? { team: { url: database.connectionString, ...(database.ca ? { ca: database.ca } : {}) } }
        : {}),
    });
    return { core, ...(database ? { shown: database.shown } : {}) };
  } catch (e) {
    throw database
      ? new CoreOpenFailure(cli!.teamFailure(e, database).message, 5)
      : new CoreOpenFailure(e instanceof Error ? e.message : String(e), 1);
  }
}
