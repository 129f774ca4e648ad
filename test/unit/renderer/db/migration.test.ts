import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { DB_VERSION, SCHEMA_V1, UNKNOWN_FETCHED_AT, openDb } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { freshIdb, makeTx } from './helpers';

describe('cache schema migration', () => {
  it('upgrades a version 1 database: data survives, new indexes work, missing fetchedAt is backfilled', async () => {
    const { indexedDB, keyRange } = freshIdb();
    // Write a database exactly as version 1 of the app did.
    const v1 = new Dexie('mig', { indexedDB, IDBKeyRange: keyRange });
    v1.version(1).stores(SCHEMA_V1);
    const withFetch = { ...makeTx(), profileId: 'p1', fetchedAt: '2025-01-02T00:00:00.000Z' };
    const { fetchedAt: _drop, ...withoutFetch } = { ...makeTx(), profileId: 'p1', fetchedAt: '' };
    await v1.table('transactions').bulkPut([withFetch, withoutFetch]);
    await v1.table('lookups').add({
      profileId: 'p1',
      query: 'INV-1',
      kind: 'reference',
      at: '2025-01-02T00:00:00.000Z',
      outcome: 'found',
    });
    await v1.table('meta').put({ key: 'transactions.view:p1', value: { hiddenColumns: ['vendor'] } });
    expect(v1.verno).toBe(1);
    v1.close();

    const db = openDb('mig', indexedDB, keyRange);
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    const repo = createTransactionsRepo(db);
    expect(await repo.all('p1')).toHaveLength(2);
    expect((await repo.byNumbers('p1', [withoutFetch.transactionNo]))[0]?.fetchedAt).toBe(UNKNOWN_FETCHED_AT);
    // New v2 indexes: fetches per profile (the backfilled row is the oldest), lookups by query.
    expect(await repo.newestFetchedAt('p1')).toBe('2025-01-02T00:00:00.000Z');
    const oldest = await db.transactions
      .where('[profileId+fetchedAt]')
      .between(['p1', Dexie.minKey], ['p1', Dexie.maxKey])
      .first();
    expect(oldest?.transactionNo).toBe(withoutFetch.transactionNo);
    expect(await db.lookups.where('[profileId+query]').equals(['p1', 'INV-1']).count()).toBe(1);
    expect((await db.meta.get('transactions.view:p1'))?.value).toEqual({ hiddenColumns: ['vendor'] });
    db.close();
  });

  it('opens a brand-new database at the current version', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('new', indexedDB, keyRange);
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    db.close();
  });
});
