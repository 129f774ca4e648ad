import { isAppError } from '../../../shared/domain/errors';
import { approvalsCommand, rejectCommand } from './commands/approvals';
import { approveCommand } from './commands/approve';
import { checkRefundCommand } from './commands/check-refund';
import { exportCommand } from './commands/export';
import { queryCommand } from './commands/query';
import { reconcileCommand } from './commands/reconcile';
import { refundCommand } from './commands/refund';
import { refundBatchCommand } from './commands/refund-batch';
import { signCommand } from './commands/sign';
import { teamCommand } from './commands/team';
import { DATABASE_URL_ENV } from './database';
import { type CliIo, type Command, EXIT, UsageError } from './io';

/** Every command, one file each in ./commands: later ones (refund, reconcile, export) register here. */
export const COMMANDS: readonly Command[] = [
  signCommand,
  queryCommand,
  refundCommand,
  refundBatchCommand,
  checkRefundCommand,
  reconcileCommand,
  exportCommand,
  teamCommand,
  approvalsCommand,
  approveCommand,
  rejectCommand,
];

function help(io: CliIo): void {
  io.err('Refund Desk CLI — the app’s own services, no Electron.');
  io.err('Usage: npm run --silent cli -- <command> [options]');
  for (const c of COMMANDS) io.err(`  ${c.name.padEnd(8)} ${c.summary}\n           ${c.usage}`);
  io.err(
    'Exit codes: 0 ok/found, 2 bad usage, 3 not found, 4 rejected, 5 network, 6 outcome unknown, 7 awaiting approval (nothing sent), 1 other failure.',
  );
  io.err(
    `Team database: --database-url postgres://login@host/db or ${DATABASE_URL_ENV}; password in the URL or PGPASSWORD.`,
  );
}

/** Runs one command line and returns the exit code. Never throws. */
export async function runCli(argv: readonly string[], io: CliIo): Promise<number> {
  const [name, ...rest] = argv;
  if (!name || name === 'help' || name === '--help' || name === '-h') {
    help(io);
    return name ? EXIT.OK : EXIT.USAGE;
  }
  const cmd = COMMANDS.find((c) => c.name === name);
  if (!cmd) {
    io.err(`Unknown command "${name.slice(0, 40)}".`);
    help(io);
    return EXIT.USAGE;
  }
  try {
    return await cmd.run(rest, io);
  } catch (e) {
    if (e instanceof UsageError) {
      io.err(e.message);
      io.err(`Usage: ${cmd.usage}`);
      return EXIT.USAGE;
    }
    io.err(isAppError(e) ? e.message : `Unexpected failure: ${e instanceof Error ? e.message : String(e)}`);
    return EXIT.FAILURE;
  }
}
