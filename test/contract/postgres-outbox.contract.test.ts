import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestCluster } from '../support/postgres';
import { ADMIN_URL_ENV } from './postgres-factory';
import { postgresOutboxFactory } from './postgres-outbox-factory';
import { storeContract } from './store.contract';

// The team desk's store (PostgreSQL behind the local outbox) passes the same contract as the bare store.
let cluster: TestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
  process.env[ADMIN_URL_ENV] = cluster.url();
}, 60_000);
afterAll(() => cluster?.stop());

storeContract('PostgreSQL behind the outbox', postgresOutboxFactory);
