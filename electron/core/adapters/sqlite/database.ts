import { mkdirSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname } from 'node:path';
import type { DatabaseSync as DatabaseSyncType, StatementSync } from 'node:sqlite';
import { AppError } from '../../../../shared/domain/errors';

/**
 * Main's durable state lives in one SQLite file in the data directory (`refund-desk.db`), opened with
 * `node:sqlite`: built into Node 24 and therefore into Electron 45's main process, so there is no native
 * module to rebuild per platform. Several processes (the app, browser hosts, CLI runs) open the same file;
 * SQLite's own locking is what makes their decisions exclusive.
 *
 * - WAL journal: readers never block the one writer; `synchronous=FULL` fsyncs every commit, so a refund
 *   intent is on disk before its request leaves.
 * - `busy_timeout`: a writer waits for another process's short transaction instead of failing.
 * - foreign keys on; `PRAGMA user_version` is the schema version; migrations run in one transaction.
 */
export type Row = Record<string, unknown>;

export interface Migration {
  /** The schema version this migration produces (1, 2, …, in order). */
  version: number;
  sql: string;
}

export interface Database {
  readonly path: string;
  /** Runs `fn` inside BEGIN IMMEDIATE … COMMIT (ROLLBACK if it throws). `fn` must be synchronous. */
  immediate<T>(fn: () => T): T;
  /** A prepared statement, cached by its SQL text. */
  stmt(sql: string): StatementSync;
  run(sql: string, ...params: SqlValue[]): { changes: number };
  get<T = Row>(sql: string, ...params: SqlValue[]): T | undefined;
  all<T = Row>(sql: string, ...params: SqlValue[]): T[];
  /** Changes whenever another connection commits (SQLite's data_version): cheap change detection. */
  dataVersion(): number;
  schemaVersion(): number;
  close(): void;
}

export type SqlValue = string | number | bigint | null | Uint8Array;

/** Why the database cannot be used, in words for the person, with what to do. */
export class StorageError extends AppError {}

const BUSY_TIMEOUT_MS = 10_000;

type SqliteModule = typeof import('node:sqlite');
let sqlite: SqliteModule | undefined;
/**
 * Loaded on first use with a plain require: bundlers must leave the built-in alone, and Node versions
 * that still call node:sqlite experimental print a warning on load that a CLI's stderr should not carry.
 */
function loadSqlite(): SqliteModule {
  if (sqlite) return sqlite;
  const emit = process.emitWarning;
  process.emitWarning = ((w: string | Error, ...rest: unknown[]) => {
    if (String(typeof w === 'string' ? w : w.message).includes('SQLite')) return;
    (emit as (...a: unknown[]) => void).call(process, w, ...rest);
  }) as typeof process.emitWarning;
  try {
    sqlite = createRequire(import.meta.url)('node:sqlite') as SqliteModule;
  } finally {
    process.emitWarning = emit;
  }
  return sqlite;
}

/** SQLite primary result codes we explain to people (extended codes carry them in the low byte). */
const SQLITE = {
  BUSY: 5,
  LOCKED: 6,
  READONLY: 8,
  IOERR: 10,
  CORRUPT: 11,
  FULL: 13,
  CANTOPEN: 14,
  NOTADB: 26,
};

export function sqliteCode(e: unknown): number | undefined {
  const code = (e as { errcode?: unknown } | undefined)?.errcode;
  return typeof code === 'number' ? code & 0xff : undefined;
}

/**
 * Turns a SQLite failure into a sentence that names the cause and what to do. `when` says what was
 * being done ("recording the refund"), so the caller can add whether money moved.
 */
export function describeStorageFailure(e: unknown, file: string): { cause: string; todo: string } {
  switch (sqliteCode(e)) {
    case SQLITE.FULL:
      return { cause: 'the disk is full', todo: 'Free some disk space, then try again.' };
    case SQLITE.READONLY:
      return {
        cause: 'the data folder is read-only',
        todo: `Make ${dirname(file)} writable for your user, then restart Refund Desk.`,
      };
    case SQLITE.BUSY:
    case SQLITE.LOCKED:
      return {
        cause: 'another Refund Desk window or command kept the database busy',
        todo: 'Try again in a moment.',
      };
    case SQLITE.CORRUPT:
    case SQLITE.NOTADB:
      return {
        cause: `the database file ${file} is damaged`,
        todo: 'Quit Refund Desk, keep a copy of the file for support, and restore it from a backup.',
      };
    case SQLITE.CANTOPEN:
      return {
        cause: `the database file ${file} cannot be opened`,
        todo: `Check that ${dirname(file)} exists and is writable, then restart Refund Desk.`,
      };
    case SQLITE.IOERR:
      return { cause: 'the disk reported an input/output error', todo: 'Check the disk, then try again.' };
    default:
      return {
        cause: e instanceof Error ? e.message : String(e),
        todo: 'Restart Refund Desk; if it happens again, report it with the log file.',
      };
  }
}

/**
 * A SQLite failure becomes a StorageError whose details say the cause and what to do, so services can
 * tell the person ("the disk is full") without knowing SQLite. Anything else passes through unchanged.
 */
export function translate(e: unknown, file: string): unknown {
  if (e instanceof AppError || sqliteCode(e) === undefined) return e;
  const d = describeStorageFailure(e, file);
  return new StorageError('unavailable', `${d.cause}. ${d.todo}`, {
    cause: e,
    details: { storage: 'write_failed', cause: d.cause, todo: d.todo },
  });
}

function guarded<T>(file: string, fn: () => T): T {
  try {
    return fn();
  } catch (e) {
    throw translate(e, file);
  }
}

/**
 * Opens (creating if needed) the database, applies pending migrations and checks its integrity.
 * Throws StorageError when it cannot be trusted: a damaged file, a newer schema than this build knows,
 * a failed migration. Nothing is ever deleted or recreated here: the person decides.
 */
export function openDatabase(path: string, migrations: readonly Migration[]): Database {
  const { DatabaseSync } = loadSqlite();
  let db: DatabaseSyncType;
  try {
    if (path !== ':memory:') mkdirSync(dirname(path), { recursive: true });
    db = new DatabaseSync(path, { timeout: BUSY_TIMEOUT_MS, enableForeignKeyConstraints: true });
  } catch (e) {
    const d = describeStorageFailure(e, path);
    throw new StorageError('unavailable', `Refund Desk cannot open its database: ${d.cause}. ${d.todo}`, {
      cause: e,
      details: { storage: 'open_failed' },
    });
  }
  const cache = new Map<string, StatementSync>();
  const stmt = (sql: string) => {
    let s = cache.get(sql);
    if (!s) {
      s = db.prepare(sql);
      cache.set(sql, s);
    }
    return s;
  };
  let depth = 0;
  const api: Database = {
    path,
    immediate<T>(fn: () => T): T {
      // Nested calls join the outer transaction (SQLite has no nested BEGIN).
      if (depth > 0) return fn();
      guarded(path, () => db.exec('BEGIN IMMEDIATE'));
      depth += 1;
      try {
        const out = fn();
        if (out instanceof Promise) throw new Error('a database transaction must be synchronous');
        db.exec('COMMIT');
        return out;
      } catch (e) {
        if (db.isTransaction) db.exec('ROLLBACK');
        throw translate(e, path);
      } finally {
        depth -= 1;
      }
    },
    stmt,
    run: (sql, ...params) => guarded(path, () => ({ changes: Number(stmt(sql).run(...params).changes) })),
    get: <T>(sql: string, ...params: SqlValue[]) =>
      guarded(path, () => stmt(sql).get(...params) as T | undefined),
    all: <T>(sql: string, ...params: SqlValue[]) => guarded(path, () => stmt(sql).all(...params) as T[]),
    dataVersion: () => Number((stmt('PRAGMA data_version').get() as { data_version: number }).data_version),
    schemaVersion: () => Number((stmt('PRAGMA user_version').get() as { user_version: number }).user_version),
    close: () => {
      cache.clear();
      if (db.isOpen) db.close();
    },
  };
  try {
    // Before anything writes (WAL mode rewrites the header): a newer version's file stays untouched.
    refuseNewer(api, migrations);
    guarded(path, () => {
      walMode(db);
      db.exec('PRAGMA synchronous = FULL');
      db.exec('PRAGMA foreign_keys = ON');
    });
    checkIntegrity(api);
    migrate(api, migrations);
  } catch (e) {
    api.close();
    throw e;
  }
  return api;
}

/**
 * Switches the file to WAL. On a new file several processes starting at once may each try the switch,
 * and SQLite answers the losers SQLITE_BUSY at once, without its busy handler: the switch is tried again
 * for as long as any other lock is waited for (by then the winner has made it, and it is a no-op).
 */
function walMode(db: DatabaseSyncType): void {
  const deadline = Date.now() + BUSY_TIMEOUT_MS;
  for (let attempt = 1; ; attempt += 1) {
    try {
      db.exec('PRAGMA journal_mode = WAL');
      return;
    } catch (e) {
      if (sqliteCode(e) !== SQLITE.BUSY || Date.now() > deadline) throw e;
      // Synchronous like everything else here (the open is); a short, growing pause.
      Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, Math.min(5 * attempt, 50));
    }
  }
}

function checkIntegrity(db: Database): void {
  let rows: Row[];
  try {
    rows = db.all('PRAGMA quick_check');
  } catch (e) {
    const d = describeStorageFailure(e, db.path);
    throw new StorageError('unavailable', `Refund Desk's database failed its check: ${d.cause}. ${d.todo}`, {
      cause: e,
      details: { storage: 'integrity_failed' },
    });
  }
  const problems = rows.map((r) => String(Object.values(r)[0])).filter((t) => t !== 'ok');
  if (problems.length > 0) {
    throw new StorageError(
      'unavailable',
      `Refund Desk's database ${db.path} is damaged (${problems.slice(0, 3).join('; ')}). Quit Refund Desk, keep a copy of the file for support, and restore it from a backup.`,
      { details: { storage: 'integrity_failed' } },
    );
  }
}

function refuseNewer(db: Database, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  let current: number;
  try {
    current = db.schemaVersion();
  } catch (e) {
    const d = describeStorageFailure(e, db.path);
    throw new StorageError('unavailable', `Refund Desk's database failed its check: ${d.cause}. ${d.todo}`, {
      cause: e,
      details: { storage: 'integrity_failed' },
    });
  }
  if (current > latest)
    throw new StorageError(
      'unavailable',
      `Refund Desk's database was written by a newer version (schema ${current}; this version knows ${latest}). Install the newer Refund Desk again; nothing was changed.`,
      { details: { storage: 'newer_schema' } },
    );
}

/** Applies every migration above the file's version, all in one transaction. */
export function migrate(db: Database, migrations: readonly Migration[]): void {
  const latest = migrations.at(-1)?.version ?? 0;
  refuseNewer(db, migrations);
  if (db.schemaVersion() === latest) return;
  try {
    db.immediate(() => {
      // Re-read inside the write lock: another process may have migrated meanwhile.
      const now = db.schemaVersion();
      for (const m of migrations) {
        if (m.version <= now) continue;
        execScript(db, m.sql);
        db.run(`PRAGMA user_version = ${m.version}`);
      }
    });
  } catch (e) {
    const cause = e instanceof StorageError ? e.cause : e;
    const d = describeStorageFailure(cause, db.path);
    throw new StorageError(
      'unavailable',
      `Refund Desk could not update its database to schema ${latest}: ${d.cause}. Nothing was changed. ${d.todo}`,
      { cause: e, details: { storage: 'migration_failed' } },
    );
  }
}

/** Runs a multi-statement script through single prepared statements (no exec outside our transaction). */
function execScript(db: Database, sql: string): void {
  for (const part of sql.split(/;\s*(?:\n|$)/)) {
    const s = part.trim();
    if (s) db.stmt(s).run();
  }
}
