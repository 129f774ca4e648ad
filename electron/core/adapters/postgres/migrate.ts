import pg from 'pg';
import { AppError } from '../../../../shared/domain/errors';
import { DATABASE_TOO_OLD, DESK_TOO_OLD, PG_DEFAULTS } from './connection';
import { BATCH_GRANTS, BATCH_TABLES } from './migration-batch';
import { BATCH_CLOSE_GRANTS } from './migration-batch-close';
import { CLAIM_GRANTS } from './migration-claim';
import { CLOSE_GRANTS, CLOSE_TABLES } from './migration-close';
import { OUTBOX_GRANTS } from './migration-outbox';
import { TEAM_GRANTS } from './migration-team';
import { DESK_SCHEMA_VERSION, PG_MIGRATIONS } from './migrations';

/**
 * Creates or upgrades the team database's schema: the administrator's command (`cli team migrate`, with
 * the database owner's login), never a desk's. Safe to run twice and from two places at once (an advisory
 * lock serialises migrators; each migration is one transaction with its version row). Also sets the
 * database's own session defaults, so a client that does not send them (psql, an old desk) gets them too.
 */
export interface MigrateOptions {
  connectionString: string;
  ca?: string;
  /** Server default for every new session on this database (a frozen desk is cut after it). */
  idleInTransactionMs?: number;
}

/** Arbitrary, fixed: the migrators' advisory lock (two-int form, apart from the desks' keys). */
const MIGRATE_LOCK = [0x52440000, 1] as const;

/**
 * Which schema a desk writes, checked by the database on every write statement: a desk of another version
 * is refused (RD001: update Refund Desk; RD002: the database must be migrated). A session that does not
 * announce a version (the owner's psql) is not a desk and is not checked.
 */
const BOOKKEEPING = `
CREATE SCHEMA IF NOT EXISTS refund_desk;
CREATE TABLE IF NOT EXISTS refund_desk.schema_migrations (
  version integer PRIMARY KEY,
  name text NOT NULL,
  applied_by text NOT NULL DEFAULT session_user,
  applied_on_server timestamptz NOT NULL DEFAULT now()
);
CREATE OR REPLACE FUNCTION refund_desk.desk_version_guard() RETURNS trigger LANGUAGE plpgsql AS $$
DECLARE
  desk integer := nullif(current_setting('refund_desk.desk_schema', true), '')::integer;
  db integer := coalesce((SELECT max(version) FROM refund_desk.schema_migrations), 0);
BEGIN
  IF desk IS NOT NULL AND desk < db THEN
    RAISE EXCEPTION USING ERRCODE = '${DESK_TOO_OLD}', MESSAGE = format(
      'this Refund Desk writes schema %s but the team database is at schema %s: update Refund Desk', desk, db);
  ELSIF desk IS NOT NULL AND desk > db THEN
    RAISE EXCEPTION USING ERRCODE = '${DATABASE_TOO_OLD}', MESSAGE = format(
      'the team database is at schema %s, older than this Refund Desk (schema %s): the administrator runs the migration (cli team migrate)', db, desk);
  END IF;
  RETURN NULL;
END $$;`;

/** Every table a desk writes gets the guard (re-created each run, so a new table is covered). */
const GUARDED = ['intents', 'intent_events', 'audit', ...CLOSE_TABLES, ...BATCH_TABLES] as const;
const guardSql = (table: string) => `
DROP TRIGGER IF EXISTS ${table}_desk_version ON refund_desk.${table};
CREATE TRIGGER ${table}_desk_version BEFORE INSERT OR UPDATE OR DELETE OR TRUNCATE ON refund_desk.${table}
  FOR EACH STATEMENT EXECUTE FUNCTION refund_desk.desk_version_guard();`;

export async function migratePostgres(o: MigrateOptions): Promise<{ from: number; to: number }> {
  const client = new pg.Client({
    connectionString: o.connectionString,
    ...(o.ca ? { ssl: { ca: o.ca, rejectUnauthorized: true } } : {}),
  });
  // A connection the server ends (restart, administrator) rejects the running query; the event is not fatal.
  client.on('error', () => undefined);
  await client.connect();
  try {
    const inTx = async <T>(fn: () => Promise<T>): Promise<T> => {
      await client.query('BEGIN');
      try {
        await client.query('SELECT pg_advisory_xact_lock($1, $2)', [...MIGRATE_LOCK]);
        const r = await fn();
        await client.query('COMMIT');
        return r;
      } catch (e) {
        await client.query('ROLLBACK').catch(() => undefined);
        throw e;
      }
    };
    const current = async () =>
      Number(
        (
          await client.query<{ v: number | null }>(
            'SELECT max(version) AS v FROM refund_desk.schema_migrations',
          )
        ).rows[0]?.v ?? 0,
      );
    const from = await inTx(async () => {
      await client.query(BOOKKEEPING);
      return current();
    });
    if (from > DESK_SCHEMA_VERSION)
      throw new AppError(
        'unavailable',
        `the team database is at schema ${from}, newer than this Refund Desk (schema ${DESK_SCHEMA_VERSION}): update Refund Desk before migrating`,
        { retryable: false, details: { todo: 'update Refund Desk' } },
      );
    for (const m of PG_MIGRATIONS) {
      await inTx(async () => {
        // Another migrator may have applied it while this one waited for the lock.
        if ((await current()) >= m.version) return;
        await client.query(m.sql);
        await client.query('INSERT INTO refund_desk.schema_migrations (version, name) VALUES ($1, $2)', [
          m.version,
          m.name,
        ]);
      });
    }
    await inTx(async () => {
      for (const t of GUARDED) await client.query(guardSql(t));
      // Who may do what, every run: groups read, and write only through the functions.
      await client.query(TEAM_GRANTS);
      await client.query(CLOSE_GRANTS);
      await client.query(CLAIM_GRANTS);
      await client.query(OUTBOX_GRANTS);
      await client.query(BATCH_GRANTS);
      await client.query(BATCH_CLOSE_GRANTS);
      const idle = Math.max(1, Math.round(o.idleInTransactionMs ?? PG_DEFAULTS.idleInTransactionMs));
      // ALTER DATABASE takes no parameters: the name is quoted by the server, the number is ours.
      await client.query(
        `DO $$ BEGIN EXECUTE format('ALTER DATABASE %I SET idle_in_transaction_session_timeout = %L',
           current_database(), '${idle}ms'); END $$`,
      );
    });
    return { from, to: await current() };
  } finally {
    await client.end();
  }
}

/** The database's schema version (0: never migrated), read by a desk when it connects. */
export async function readSchemaVersion(q: pg.Pool | pg.Client): Promise<number> {
  try {
    const r = await q.query<{ v: number | null }>(
      'SELECT max(version) AS v FROM refund_desk.schema_migrations',
    );
    return Number(r.rows[0]?.v ?? 0);
  } catch (e) {
    if ((e as { code?: string }).code === '42P01' || (e as { code?: string }).code === '3F000') return 0;
    throw e;
  }
}
