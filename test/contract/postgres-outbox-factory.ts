import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { withOutbox } from '../../electron/core/adapters/outbox-store';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createOutboxQueue } from '../../electron/core/adapters/sqlite/outbox-table';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import { isUnreachable } from '../../electron/core/adapters/team-storage';
import { createFakeLogger } from '../fakes/logger';
import { postgresFactory } from './postgres-factory';
import type { StoreFactory } from './store.contract';

/**
 * The team desk's store as team storage builds it: the PostgreSQL store behind the local outbox
 * (adapters/outbox-store.ts), each `open` with a data folder of its own. While the database is reachable
 * the outbox must be invisible: the same contract as the bare store.
 */
export const postgresOutboxFactory: StoreFactory = {
  fresh: () => postgresFactory.fresh(),
  open: async (location, opts) => {
    const bare = await postgresFactory.open(location, opts);
    const file = openDatabase(
      join(mkdtempSync(join(tmpdir(), 'rd-outbox-contract-')), 'refund-desk.db'),
      MIGRATIONS,
    );
    const o = withOutbox(bare.store, {
      queue: createOutboxQueue(file, location, Date.now),
      unreachable: isUnreachable,
      log: createFakeLogger(),
      now: Date.now,
      holder: `contract-${process.pid}`,
      deskId: `contract-${process.pid}`,
    });
    return {
      store: o.store,
      close: async () => {
        await o.idle();
        await bare.close();
        file.close();
      },
    };
  },
  module: new URL('./postgres-outbox-factory.ts', import.meta.url).pathname,
};
export default postgresOutboxFactory;
