import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createSqliteBatchStore } from '../../electron/core/adapters/sqlite/batch-store';
import { openDatabase } from '../../electron/core/adapters/sqlite/database';
import { createSqliteIntentStore } from '../../electron/core/adapters/sqlite/intent-store';
import { MIGRATIONS } from '../../electron/core/adapters/sqlite/schema';
import { batchStoreContract } from './batch.contract';

// The single desk's batch store: every `open` of one file is another connection (another process).
batchStoreContract('SQLite', {
  fresh: async () => join(mkdtempSync(join(tmpdir(), 'rd-batch-contract-')), 'refund-desk.db'),
  open: async (location) => {
    const db = openDatabase(location, MIGRATIONS);
    return {
      batches: createSqliteBatchStore(db),
      intents: createSqliteIntentStore(db, { now: Date.now, watchMs: 20 }),
      close: async () => db.close(),
    };
  },
});
