import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { createCacheAdmin, openCache, resetLocalCache } from '../../../../renderer/src/db/cache';
import { createMetaRepo } from '../../../../renderer/src/db/meta-repo';
import { DB_VERSION, openDb, SCHEMA_V5 } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { freshIdb, makeTx } from './helpers';

describe('the cache as a whole', () => {
  it("deleting a profile's cache removes its rows, refunds and views, and nothing of another profile", async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('clear', indexedDB, keyRange);
    const repo = createTransactionsRepo(db);
    const refunded = makeTx({
      refunds: [
        {
          refundTransactionNo: '900000000000000009',
          refundAmountMinor: 1,
          currency: 'USD',
          status: 'success',
        },
      ],
    });
    await repo.bulkUpsert('p1', [refunded, makeTx()], '2025-01-02T00:00:00.000Z');
    await repo.bulkUpsert('p2', [makeTx()], '2025-01-02T00:00:00.000Z');
    await createMetaRepo(db).set('p1', 'transactions.view', { a: 1 });
    await createMetaRepo(db).set('p2', 'transactions.view', { b: 2 });

    await createCacheAdmin(db).clearProfile('p1');
    expect(await repo.all('p1')).toEqual([]);
    expect(await repo.findLocal('p1', '900000000000000009')).toBeUndefined();
    expect(await createMetaRepo(db).get('p1', 'transactions.view')).toBeUndefined();
    expect(await repo.all('p2')).toHaveLength(1);
    expect(await createMetaRepo(db).get('p2', 'transactions.view')).toEqual({ b: 2 });
    db.close();
  });

  it('a cache written by a newer version is refused with words that say so, and Reset opens an empty one', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const newer = new Dexie('newer', { indexedDB, IDBKeyRange: keyRange });
    newer.version(DB_VERSION + 1).stores({ ...SCHEMA_V5, extra: 'id' });
    await newer.open();
    await newer.table('transactions').put({ ...makeTx(), profileId: 'p1', fetchedAt: 't' });
    newer.close();

    const db = openDb('newer', indexedDB, keyRange);
    expect(await openCache(db)).toMatch(/newer version of Refund Desk/);

    await resetLocalCache(db);
    expect(db.verno).toBe(DB_VERSION);
    expect(await openCache(db)).toBeUndefined();
    expect(await createTransactionsRepo(db).all('p1')).toEqual([]);
    db.close();
  });
});
