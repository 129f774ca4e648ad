/**
 * What the browser host knows of its core before loading the core's code (open-core.ts): whether this
 * is a team desk, and the exit code a core that did not open ends the host with. Kept apart so that
 * cli.ts can decide when to load the core without loading it.
 */

/** The host's exit code for a core that did not open: 2 bad flags, 5 the team database, 1 anything else. */
export class CoreOpenFailure extends Error {
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}

/** The flags that make a team desk, as given on the command line (--database-url, --ca-file). */
export type DatabaseFlags = { 'database-url'?: string; 'ca-file'?: string };

/** Read here only to know whether this is a team desk; the CLI's database code reads and checks it. */
const DATABASE_URL_ENV = 'REFUND_DESK_DATABASE_URL';

/** True when the host runs as a team desk: flags given, or the database URL in the environment. */
export const isTeamDesk = (flags: DatabaseFlags): boolean =>
  Object.keys(flags).length > 0 || !!process.env[DATABASE_URL_ENV]?.trim();
