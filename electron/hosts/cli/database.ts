import { readFileSync } from 'node:fs';
import { hostname } from 'node:os';
import pg from 'pg';
import { AppError, isAppError } from '../../../shared/domain/errors';
import { CURRENCIES, type Currency, isKnownCurrency } from '../../../shared/domain/currencies';
import { MoneyParseError, parseMinor } from '../../../shared/domain/money';
import { mapPgError, pgClientConfig } from '../../core/adapters/postgres/connection';
import { type CliIo, EXIT, UsageError } from './io';

/** parseArgs options of every command that works on the team database. */
export const DATABASE_OPTIONS = {
  'database-url': { type: 'string' },
  'ca-file': { type: 'string' },
} as const;

export const DATABASE_URL_ENV = 'REFUND_DESK_DATABASE_URL';

/**
 * Where the team database is: --database-url, else REFUND_DESK_DATABASE_URL. The password comes from
 * the URL or PGPASSWORD and is never printed: every message of a command that holds it passes through
 * `redact`, and the database is named as `shown` (no password).
 */
export interface TeamDatabase {
  connectionString: string;
  ca?: string;
  /** postgres://login@host:port/database — what may be printed. */
  shown: string;
  redact(text: string): string;
}

export function databaseFrom(
  values: Partial<Record<keyof typeof DATABASE_OPTIONS, string | undefined>>,
  io: CliIo,
): TeamDatabase {
  const raw = values['database-url'] ?? io.env[DATABASE_URL_ENV];
  if (!raw?.trim())
    throw new UsageError(
      `Give the team database with --database-url postgres://login@host:5432/database, or set ${DATABASE_URL_ENV} (the password: in the URL or in PGPASSWORD).`,
    );
  let url: URL;
  try {
    url = new URL(raw.trim());
  } catch {
    // Never echo what was given: it may hold a password.
    throw new UsageError(
      '--database-url is not a valid address; write it as postgres://login:password@host:5432/database (percent-encode special characters).',
    );
  }
  if (url.protocol !== 'postgres:' && url.protocol !== 'postgresql:')
    throw new UsageError('--database-url must start with postgres:// or postgresql://.');
  const pgPassword = io.env['PGPASSWORD'];
  if (!url.password && pgPassword) url.password = encodeURIComponent(pgPassword);
  const secrets = [raw.trim(), url.toString(), url.password, safeDecode(url.password)].filter(
    (s) => s.length >= 3,
  );
  const shownUrl = new URL(url.toString());
  shownUrl.password = '';
  shownUrl.search = '';
  let ca: string | undefined;
  if (values['ca-file']) {
    try {
      ca = readFileSync(values['ca-file'], 'utf8');
    } catch {
      throw new UsageError(`--ca-file: cannot read ${values['ca-file'].slice(0, 200)}.`);
    }
  }
  return {
    connectionString: url.toString(),
    ...(ca ? { ca } : {}),
    shown: shownUrl.toString(),
    redact: (text) => secrets.reduce((t, s) => t.split(s).join('***'), text),
  };
}

/** The team database when one is given (--database-url or REFUND_DESK_DATABASE_URL); otherwise none. */
export function optionalDatabase(
  values: Partial<Record<keyof typeof DATABASE_OPTIONS, string | undefined>>,
  io: CliIo,
): TeamDatabase | undefined {
  if (!values['database-url']?.trim() && !io.env[DATABASE_URL_ENV]?.trim()) {
    if (values['ca-file']) throw new UsageError('--ca-file goes with --database-url (team mode).');
    return undefined;
  }
  return databaseFrom(values, io);
}

function safeDecode(s: string): string {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
}

/** A desk connection of the CLI: stamped by the database as desk `cli@<host>`. */
export async function connectDesk(db: TeamDatabase): Promise<pg.Client> {
  const c = new pg.Client(
    pgClientConfig({
      connectionString: db.connectionString,
      ...(db.ca ? { ca: db.ca } : {}),
      applicationName: 'refund-desk-cli',
      deskId: `cli@${hostname()}`,
    }),
  );
  c.on('error', () => undefined);
  try {
    await c.connect();
  } catch (e) {
    await c.end().catch(() => undefined);
    throw e;
  }
  return c;
}

const UNREACHABLE = new Set([
  'ECONNREFUSED',
  'ENOTFOUND',
  'ETIMEDOUT',
  'EHOSTUNREACH',
  'ECONNRESET',
  'EAI_AGAIN',
]);

/**
 * Any failure of a team command as an AppError whose message holds no password: the database's refusals
 * in people's words (mapPgError), an unreachable server as `network`.
 */
export function teamFailure(e: unknown, db: TeamDatabase | undefined): AppError | UsageError {
  const redact = (t: string) => (db ? db.redact(t) : t);
  if (e instanceof UsageError) return new UsageError(redact(e.message));
  const code = (e as { code?: string } | undefined)?.code;
  if (code && UNREACHABLE.has(code))
    return new AppError(
      'network',
      `cannot reach the team database at ${db?.shown ?? 'the given address'} (${code}); nothing was changed`,
    );
  if (e instanceof Error && /timeout expired|Connection terminated/i.test(e.message))
    return new AppError('network', `the team database at ${db?.shown ?? 'the given address'} did not answer`);
  const mapped = mapPgError(e);
  if (isAppError(mapped))
    return new AppError(mapped.code, redact(mapped.message), {
      retryable: mapped.retryable,
      ...(mapped.details ? { details: mapped.details } : {}),
    });
  return new AppError('internal', redact(mapped instanceof Error ? mapped.message : String(mapped)));
}

/** The exit code of a team command's failure (README "CLI"). */
export function exitOf(e: AppError): number {
  if (e.code === 'network' || e.code === 'timeout' || e.code === 'unavailable') return EXIT.NETWORK;
  if (e.code === 'not_found') return EXIT.NOT_FOUND;
  if (e.code === 'invalid_input') return EXIT.USAGE;
  if (e.code === 'internal') return EXIT.FAILURE;
  return EXIT.REJECTED;
}

/**
 * Runs a team command: its failures printed (redacted) with their exit code; usage errors rethrown
 * (redacted) for main's usage message.
 */
export async function runTeam(io: CliIo, db: TeamDatabase, fn: () => Promise<number>): Promise<number> {
  try {
    return await fn();
  } catch (e) {
    const f = teamFailure(e, db);
    if (f instanceof UsageError) throw f;
    io.err(f.message);
    return exitOf(f);
  }
}

/** `1000.00:USD` — an amount in a currency, exact minor units. */
export function amountInCurrency(text: string, flag: string): { amountMinor: number; currency: Currency } {
  const m = /^\s*([0-9]+(?:\.[0-9]+)?)\s*:\s*([A-Za-z]{3})\s*$/.exec(text);
  const currency = m?.[2]?.toUpperCase();
  if (!m || !currency)
    throw new UsageError(
      `${flag} must be an amount and a currency, e.g. 1000.00:USD (got “${text.slice(0, 40)}”).`,
    );
  if (!isKnownCurrency(currency))
    throw new UsageError(`${flag}: the currency must be one of ${CURRENCIES.join(', ')}.`);
  try {
    return { amountMinor: parseMinor(m[1]!, currency), currency };
  } catch (e) {
    throw new UsageError(`${flag}: ${e instanceof MoneyParseError ? e.message : 'not a decimal amount'}.`);
  }
}
