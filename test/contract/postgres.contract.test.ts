import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestCluster } from '../support/postgres';
import { ADMIN_URL_ENV, postgresFactory } from './postgres-factory';
import { storeContract } from './store.contract';

// A real PostgreSQL server for this file (Debian's postgresql; missing binaries fail with the install command).
let cluster: TestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
  process.env[ADMIN_URL_ENV] = cluster.url();
}, 60_000);
afterAll(() => cluster?.stop());

storeContract('PostgreSQL', postgresFactory);
