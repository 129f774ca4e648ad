import pg from 'pg';
import { AppError } from '../../../../shared/domain/errors';
import { InvariantViolation } from '../../services/engine/port';
import { DESK_SCHEMA_VERSION } from './migrations';

/** How a desk connects to the team database. */
export interface PgConnectOptions {
  connectionString: string;
  /** PEM of the CA that signed the server's certificate: then TLS with the host name verified. */
  ca?: string;
  /** Shown in pg_stat_activity, so a DBA sees which desk holds a connection. */
  applicationName?: string;
  /** How long a decision waits for another desk's lock on the same payment before it is refused. */
  lockTimeoutMs?: number;
  statementTimeoutMs?: number;
  /** A desk that stalls inside a transaction (frozen, suspended laptop) is cut after this and its locks freed. */
  idleInTransactionMs?: number;
  /** Connections per desk: decisions, transitions and reads run in parallel on different payments. */
  max?: number;
  /**
   * Which desk this is (stamped by the database beside the person on every write and audit entry);
   * defaults to the application name. Letters, digits and `._:@-` are kept, anything else becomes `_`.
   */
  deskId?: string;
  /** Overrides the schema version this desk announces (tests of a desk older or newer than the database). */
  deskSchemaVersion?: number;
}

export const PG_DEFAULTS = {
  lockTimeoutMs: 5_000,
  statementTimeoutMs: 15_000,
  idleInTransactionMs: 10_000,
  max: 4,
} as const;

/**
 * The client settings every desk connection has. They travel in the startup packet, so they hold from
 * the first statement: TCP keepalives (a desk whose machine vanished is noticed by the server), lock and
 * statement timeouts, and `idle_in_transaction_session_timeout` (also set on the database by the
 * migration, so a client that does not send it is cut all the same). `refund_desk.desk_schema` tells the
 * database's version guard which schema this desk writes.
 */
export function pgClientConfig(o: PgConnectOptions): pg.ClientConfig {
  return {
    connectionString: o.connectionString,
    keepAlive: true,
    keepAliveInitialDelayMillis: 10_000,
    connectionTimeoutMillis: 10_000,
    lock_timeout: o.lockTimeoutMs ?? PG_DEFAULTS.lockTimeoutMs,
    statement_timeout: o.statementTimeoutMs ?? PG_DEFAULTS.statementTimeoutMs,
    idle_in_transaction_session_timeout: o.idleInTransactionMs ?? PG_DEFAULTS.idleInTransactionMs,
    application_name: (o.applicationName ?? 'refund-desk').slice(0, 63),
    options: `-c refund_desk.desk_schema=${o.deskSchemaVersion ?? DESK_SCHEMA_VERSION} -c refund_desk.desk=${deskSetting(o.deskId ?? o.applicationName ?? 'refund-desk')}`,
    // pg 8 treats sslmode=require as verify-full, and v9 will not: say what we mean.
    ...(o.ca ? { ssl: { ca: o.ca, rejectUnauthorized: true } } : {}),
  };
}

/** A desk id as a startup option: no spaces or backslashes (the server splits options on them). */
export function deskSetting(id: string): string {
  return id.replace(/[^A-Za-z0-9._:@-]/g, '_').slice(0, 63) || 'unknown';
}

/**
 * A pooled connection that is never without an `error` listener. pg-pool listens only while a connection
 * is idle, and every checkout here adds its own; a server stopping (57P01) can still reach a connection
 * between the two, and an `error` event nobody listens to ends the whole process. Its queries fail all
 * the same, and the pool drops it.
 */
class PooledClient extends pg.Client {
  constructor(config?: pg.ClientConfig) {
    super(config);
    this.on('error', () => undefined);
  }
}

/** A pool of desk connections; an idle connection that dies (server restart) is dropped, never fatal. */
export function createPgPool(o: PgConnectOptions, onError?: (e: Error) => void): pg.Pool {
  const pool = new pg.Pool({
    ...pgClientConfig(o),
    Client: PooledClient,
    max: o.max ?? PG_DEFAULTS.max,
    idleTimeoutMillis: 30_000,
  });
  pool.on('error', (e) => onError?.(e));
  return pool;
}

/**
 * int8 arrives as text (pg's default, kept): a number only when a JavaScript number holds it exactly.
 * Amounts are minor units, which the schema bounds to 2^53 - 1; anything else is refused, never rounded.
 */
export function int8(v: unknown, column: string): number {
  const n = typeof v === 'number' ? v : Number(String(v));
  if (!Number.isSafeInteger(n))
    throw new RangeError(`${column} ${String(v).slice(0, 24)} is not an integer a number holds exactly`);
  return n;
}

/** Refuses an amount the database could store but a desk could not read back exactly. */
export function safeAmount(n: number, what: string): number {
  if (!Number.isSafeInteger(n))
    throw new AppError(
      'invalid_input',
      `${what} must be a whole number of minor units below 2^53 (got ${n})`,
    );
  return n;
}

interface PgError {
  code?: string;
  constraint?: string;
  message?: string;
}

/** SQLSTATEs of the database's own refusals (see the version guard in migrate.ts). */
export const DESK_TOO_OLD = 'RD001';
export const DATABASE_TOO_OLD = 'RD002';

/**
 * The four-eyes and append-only refusals of the team database (migration-team.ts): the database's own
 * message says what happened and what to do; the code is what a reader branches on.
 */
const TEAM_REFUSALS: Record<string, 'forbidden' | 'conflict' | 'not_found'> = {
  RD010: 'forbidden', // above the approval policy: request it
  RD011: 'forbidden', // own request
  RD012: 'forbidden', // above the checker's limit
  RD013: 'conflict', // expired
  RD014: 'conflict', // not awaiting approval
  RD015: 'not_found',
  RD016: 'forbidden', // not through this function / not yours
  RD017: 'forbidden', // not in the group
  RD020: 'forbidden', // a request is never edited
  RD030: 'forbidden', // append-only
  RD040: 'conflict', // month-end close: the run is signed
  RD041: 'conflict', // a run published with another record
  RD042: 'forbidden', // a published run's items are added only when it is published
  RD043: 'not_found', // a run not published in the team database
  RD050: 'conflict', // a desk's unresolved refund is not imported
};

/** The database's refusals in the port's and the app's terms; anything else passes through unchanged. */
export function mapPgError(e: unknown): unknown {
  const pe = (e ?? {}) as PgError;
  switch (pe.code) {
    case '23505':
      if (pe.constraint === 'intents_one_open_refund') return new InvariantViolation('open_refund');
      if (pe.constraint === 'intents_payment_reference') return new InvariantViolation('reference');
      if (pe.constraint === 'intents_pkey') return new InvariantViolation('id');
      return e;
    case DESK_TOO_OLD:
      return new AppError('unavailable', `${pe.message ?? 'this desk is older than the team database'}`, {
        retryable: false,
        details: { storage: 'read-only', todo: 'update Refund Desk' },
        cause: e,
      });
    case DATABASE_TOO_OLD:
      return new AppError('unavailable', pe.message ?? 'the team database is older than this desk', {
        retryable: false,
        details: { storage: 'read-only', todo: 'the administrator runs: cli team migrate' },
        cause: e,
      });
    case '42501': // insufficient_privilege
      return new AppError(
        'forbidden',
        `your database login may not do this (${pe.message ?? 'permission denied'}): the administrator adds you to the right group (cli team add-person)`,
        { retryable: false, cause: e },
      );
    case '28P01': // invalid_password
    case '28000': // invalid_authorization_specification (no pg_hba entry, no such role)
      return new AppError(
        'unauthorized',
        'the team database refused this login: check the login and password (the password is never shown)',
        { retryable: false, cause: e },
      );
    case '55P03': // lock_not_available: lock_timeout
      return new AppError(
        'conflict',
        'another desk is deciding about the same payment right now; try again in a moment',
        { retryable: true, cause: e },
      );
    case '57014': // query_canceled: statement_timeout
      return new AppError('timeout', 'the team database did not answer in time; nothing was decided', {
        cause: e,
      });
    default: {
      const team = pe.code ? TEAM_REFUSALS[pe.code] : undefined;
      if (team)
        return new AppError(team, pe.message ?? 'the team database refused it', {
          retryable: false,
          details: { moneyMoved: 'no' },
          cause: e,
        });
      return e;
    }
  }
}
