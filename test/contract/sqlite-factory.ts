import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import type { StoreFactory } from './store.contract';

/** The SQLite store on a fresh file; every `open` of one location is another connection (a process's). */
export const sqliteFactory: StoreFactory = {
  fresh: async () => join(mkdtempSync(join(tmpdir(), 'rd-contract-')), 'refund-desk.db'),
  open: async (location, opts) => {
    const db = openDatabase(location, MIGRATIONS);
    const store = createSqliteIntentStore(db, { now: opts?.now ?? Date.now, watchMs: 20 });
    return { store, close: async () => db.close() };
  },
  module: new URL('./sqlite-factory.ts', import.meta.url).pathname,
};
export default sqliteFactory;
