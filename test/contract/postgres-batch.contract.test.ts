import { afterAll, beforeAll } from 'vitest';
import { createPostgresBatchStore } from '../../electron/core/adapters/postgres/batch-store';
import { openPostgresIntentStore } from '../../electron/core/adapters/postgres/intent-store';
import { startPostgres, type TestCluster } from '../support/postgres';
import { batchStoreContract } from './batch.contract';
import { ADMIN_URL_ENV, postgresFactory } from './postgres-factory';

// A real PostgreSQL server for this file (Debian's postgresql; missing binaries fail with the install command).
let cluster: TestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
  process.env[ADMIN_URL_ENV] = cluster.url();
}, 60_000);
afterAll(() => cluster?.stop());

// The team database's batch store (schema v5), every `open` another desk's pool on a migrated database.
batchStoreContract('PostgreSQL', {
  fresh: () => postgresFactory.fresh(),
  open: async (location) => {
    const o = await openPostgresIntentStore({
      connectionString: location,
      applicationName: `batch-contract-${process.pid}`,
      heartbeatMs: 200,
    });
    return { batches: createPostgresBatchStore(o.pool), intents: o.store, close: o.close };
  },
});
