import { afterAll, beforeAll } from 'vitest';
import { startPostgres, type TestCluster } from '../support/postgres';
import { closeContract } from './close.contract';
import { postgresOwnerCloseFactory, postgresPeopleCloseFactory } from './close-factories';
import { ADMIN_URL_ENV } from './postgres-factory';

// The close contract on a real PostgreSQL server: as the database owner, and as a clerk's (maker) and
// the controller's (checker) own logins, whose writes go only through the database's functions.
let cluster: TestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
  process.env[ADMIN_URL_ENV] = cluster.url();
}, 60_000);
afterAll(() => cluster?.stop());

closeContract('PostgreSQL as the owner', postgresOwnerCloseFactory);
closeContract('PostgreSQL as a maker and a checker login', postgresPeopleCloseFactory);
