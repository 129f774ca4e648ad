import { type ParseArgsOptionsConfig, parseArgs } from 'node:util';

/** What a command may touch: output streams and the environment (injected so tests run in-process). */
export interface CliIo {
  out(line: string): void;
  err(line: string): void;
  env: Readonly<Record<string, string | undefined>>;
}

/** Exit codes (README "CLI"): scripts branch on these. */
export const EXIT = {
  OK: 0,
  FAILURE: 1,
  USAGE: 2,
  NOT_FOUND: 3,
  REJECTED: 4,
  NETWORK: 5,
  /** 6 is `refund`'s "outcome unknown" (commands/refund.ts). */
  /** Team mode: the refund is above the account's policy and was recorded for approval; nothing was sent. */
  AWAITING_APPROVAL: 7,
} as const;

/** One CLI command: a file in ./commands, registered in ./main.ts. */
export interface Command {
  name: string;
  summary: string;
  usage: string;
  run(args: string[], io: CliIo): Promise<number>;
}

/** Thrown for bad usage; main prints the message and the command's usage, exit 2. */
export class UsageError extends Error {
  override name = 'UsageError';
}

export const TOKEN_ENV = 'REFUND_DESK_API_TOKEN';

/** The API token from the environment, trimmed; never printed anywhere. */
export function tokenFromEnv(io: CliIo): string {
  const token = io.env[TOKEN_ENV]?.trim();
  if (!token)
    throw new UsageError(
      `Set the API token in the environment variable ${TOKEN_ENV} (it is never read from the command line, so it stays out of shell history).`,
    );
  return token;
}

/** node:util parseArgs, with its errors turned into a UsageError (exit 2 with the command's usage). */
export function parseCliArgs<O extends ParseArgsOptionsConfig>(
  args: string[],
  options: O,
  allowPositionals = false,
) {
  try {
    return parseArgs({ args, options, allowPositionals, strict: true });
  } catch (e) {
    throw new UsageError(e instanceof Error ? e.message : String(e));
  }
}
