import { migratePostgres } from '../../electron/core/adapters/postgres/migrate';
import { openPostgresIntentStore } from '../../electron/core/adapters/postgres/intent-store';
import type { StoreFactory } from './store.contract';

/** Where the test file's throw-away cluster is (test/support/postgres.ts); set in its beforeAll. */
export const ADMIN_URL_ENV = 'RD_TEST_PG_URL';

let made = 0;

/**
 * The PostgreSQL store on a fresh database of the test cluster, migrated as an administrator would; every
 * `open` of one location (a connection string) is another desk's pool. The contract's clock (`now`)
 * moves the server's clock for leases by the same amount.
 */
export const postgresFactory: StoreFactory = {
  fresh: async () => {
    const admin = process.env[ADMIN_URL_ENV];
    if (!admin)
      throw new Error(`${ADMIN_URL_ENV} is not set: start the cluster first (test/support/postgres.ts)`);
    const name = `rd_${process.pid}_${(made += 1)}`;
    const pg = (await import('pg')).default;
    const c = new pg.Client({ connectionString: admin });
    c.on('error', () => undefined);
    await c.connect();
    try {
      await c.query(`CREATE DATABASE ${name}`);
    } finally {
      await c.end();
    }
    const url = new URL(admin);
    url.pathname = `/${name}`;
    await migratePostgres({ connectionString: url.toString() });
    return url.toString();
  },
  open: async (location, opts) => {
    const now = opts?.now;
    const start = now?.();
    const o = await openPostgresIntentStore({
      connectionString: location,
      applicationName: `contract-${process.pid}`,
      heartbeatMs: 200,
      ...(now && start !== undefined ? { clockOffsetMs: () => now() - start } : {}),
    });
    return { store: o.store, close: o.close };
  },
  module: new URL('./postgres-factory.ts', import.meta.url).pathname,
};
export default postgresFactory;
