import pg from 'pg';
import { postgresFactory } from './postgres-factory';
import type { StoreFactory } from './store.contract';

/** The maker login the contract runs as (a password, SCRAM: the cluster trusts only its superuser). */
export const MAKER = { login: 'rd_contract_maker', password: 'maker-contract-pw' } as const;

/**
 * The same contract, connected as a PERSON with the maker role instead of the owner: every write goes
 * through the SECURITY DEFINER functions, since a maker has no INSERT, UPDATE or DELETE on any table. The
 * location is the maker's connection string; the owner only creates and migrates the database.
 */
export const postgresMakerFactory: StoreFactory = {
  fresh: async () => {
    const ownerUrl = await postgresFactory.fresh();
    const c = new pg.Client({ connectionString: ownerUrl });
    c.on('error', () => undefined);
    await c.connect();
    try {
      const exists = await c.query('SELECT 1 FROM pg_roles WHERE rolname = $1', [MAKER.login]);
      if (!exists.rowCount)
        await c.query(`CREATE ROLE ${MAKER.login} LOGIN PASSWORD '${MAKER.password}'`).catch((e: unknown) => {
          // Another test's fresh() made it in the meantime (roles belong to the cluster).
          if ((e as { code?: string }).code !== '42710') throw e;
        });
      await c.query(`GRANT refund_maker TO ${MAKER.login}`);
    } finally {
      await c.end();
    }
    const url = new URL(ownerUrl);
    url.username = MAKER.login;
    url.password = MAKER.password;
    return url.toString();
  },
  open: postgresFactory.open,
  module: new URL('./postgres-maker-factory.ts', import.meta.url).pathname,
};
export default postgresMakerFactory;
