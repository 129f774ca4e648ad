import pg from 'pg';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startPostgres, type TestCluster } from '../support/postgres';
import { ADMIN_URL_ENV } from './postgres-factory';
import { MAKER, postgresMakerFactory } from './postgres-maker-factory';
import { storeContract } from './store.contract';

// The store contract as a maker login (writes only through the database's functions), on a real server.
let cluster: TestCluster | undefined;
beforeAll(async () => {
  cluster = await startPostgres();
  process.env[ADMIN_URL_ENV] = cluster.url();
}, 60_000);
afterAll(() => cluster?.stop());

describe('the contract runs as a maker login', () => {
  it('its connection is the maker, who may not write a table directly', async () => {
    const location = await postgresMakerFactory.fresh();
    const c = new pg.Client({ connectionString: location });
    c.on('error', () => undefined);
    await c.connect();
    try {
      expect((await c.query('SELECT session_user AS u')).rows[0].u).toBe(MAKER.login);
      await expect(
        c.query(`INSERT INTO refund_desk.audit (kind, at, outcome, operator, profile_id, profile_name, environment,
          subject_id) VALUES ('refund', 'x', 'x', 'x', 'p', 'P', 'demo', '')`),
      ).rejects.toMatchObject({ code: '42501' });
    } finally {
      await c.end();
    }
  });
});

storeContract('PostgreSQL as a maker login', postgresMakerFactory);
