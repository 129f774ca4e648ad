import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pg from 'pg';
import { createPostgresCloseStore } from '../../electron/core/adapters/postgres/close-store';
import { createPgPool } from '../../electron/core/adapters/postgres/connection';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createSqliteCloseStore } from '../../electron/core/adapters/sqlite/recon-close-store';
import { createSqliteRunStore } from '../../electron/core/adapters/sqlite/recon-run-store';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import type { CloseFactory } from './close.contract';
import { postgresFactory } from './postgres-factory';

/** A single desk: the close beside its runs in one SQLite file; a run is its own stored record. */
export const sqliteCloseFactory: CloseFactory = {
  fresh: async () => join(mkdtempSync(join(tmpdir(), 'rd-close-contract-')), 'refund-desk.db'),
  open: async (location) => {
    const db = openDatabase(location, MIGRATIONS);
    const runs = createSqliteRunStore(db);
    return {
      store: createSqliteCloseStore(db),
      seed: async (run) => {
        runs.create(run.facts);
        runs.saveResult(run.facts.runId, {
          facts: run.facts,
          summary: run.summary,
          statement: run.statement,
          items: run.items,
        });
      },
      close: async () => db.close(),
    };
  },
};

/** The team database as its owner (the test cluster's superuser); a run is published by a desk. */
export const postgresOwnerCloseFactory: CloseFactory = {
  fresh: () => postgresFactory.fresh(),
  open: async (location, as) => openPg(location, as),
};

/** The people the login variant connects as: a clerk (maker) and the controller (checker). */
export const CLOSE_PEOPLE = {
  clerk: { login: 'rd_close_clerk', password: 'clerk-close-pw', group: 'refund_maker' },
  controller: { login: 'rd_close_controller', password: 'controller-close-pw', group: 'refund_checker' },
} as const;

/** The team database as each person's own login: every write goes through the database's functions. */
export const postgresPeopleCloseFactory: CloseFactory = {
  fresh: async () => {
    const owner = await postgresFactory.fresh();
    const c = new pg.Client({ connectionString: owner });
    c.on('error', () => undefined);
    await c.connect();
    try {
      for (const p of Object.values(CLOSE_PEOPLE)) {
        const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [p.login]);
        if (!exists.rowCount)
          await c.query(`CREATE ROLE ${p.login} LOGIN PASSWORD '${p.password}'`).catch((e: unknown) => {
            // Another file's fresh() made it meanwhile (roles belong to the cluster).
            if ((e as { code?: string }).code !== '42710') throw e;
          });
        await c.query(`GRANT ${p.group} TO ${p.login}`);
      }
    } finally {
      await c.end();
    }
    return owner;
  },
  open: async (location, as) => {
    const url = new URL(location);
    url.username = CLOSE_PEOPLE[as].login;
    url.password = CLOSE_PEOPLE[as].password;
    return openPg(url.toString(), as);
  },
};

async function openPg(connectionString: string, as: string) {
  const pool = createPgPool({ connectionString, applicationName: `close-${as}`, deskId: `desk-${as}` });
  const store = createPostgresCloseStore(pool);
  return {
    store,
    seed: async (run: Parameters<Awaited<ReturnType<CloseFactory['open']>>['seed']>[0]) => {
      await store.team!.publish(run.published);
    },
    close: () => pool.end(),
  };
}
