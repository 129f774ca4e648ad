import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import { createCacheAdmin, openCache, resetLocalCache } from '../../../../renderer/src/db/cache';
import { createLookupsRepo } from '../../../../renderer/src/db/lookups-repo';
import { createMetaRepo } from '../../../../renderer/src/db/meta-repo';
import {
  DB_VERSION,
  openDb,
  SCHEMA_V1,
  SCHEMA_V2,
  SCHEMA_V3,
  SCHEMA_V4,
} from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { freshIdb, makeTx } from './helpers';

const SCHEMAS = [SCHEMA_V1, SCHEMA_V2, SCHEMA_V3, SCHEMA_V4];

describe('cache migrations from every earlier version', () => {
  it('has a schema for every version up to the current one', () => {
    expect(SCHEMAS).toHaveLength(DB_VERSION);
  });

  for (let version = 1; version < DB_VERSION; version += 1) {
    it(`a version ${version} database opens at version ${DB_VERSION} with its rows, refunds and lookups`, async () => {
      const { indexedDB, keyRange } = freshIdb();
      const old = new Dexie(`v${version}`, { indexedDB, IDBKeyRange: keyRange });
      for (let v = 1; v <= version; v += 1) old.version(v).stores(SCHEMAS[v - 1]!);
      const tx = makeTx({
        refunds: [
          {
            refundTransactionNo: '900000000000000001',
            refundAmountMinor: 100,
            currency: 'USD',
            status: 'success',
          },
        ],
      });
      await old.table('transactions').put({ ...tx, profileId: 'p1', fetchedAt: '2025-01-02T00:00:00.000Z' });
      await old.table('refunds').put({
        ...tx.refunds[0],
        profileId: 'p1',
        transactionNo: tx.transactionNo,
        fetchedAt: '2025-01-02T00:00:00.000Z',
      });
      await old.table('lookups').add({
        profileId: 'p1',
        query: 'INV-1',
        kind: 'reference',
        at: '2025-01-02T00:00:00.000Z',
        outcome: 'found',
      });
      old.close();

      const db = openDb(`v${version}`, indexedDB, keyRange);
      await db.open();
      expect(db.verno).toBe(DB_VERSION);
      const repo = createTransactionsRepo(db);
      expect((await repo.all('p1')).map((r) => r.transactionNo)).toEqual([tx.transactionNo]);
      expect(await repo.findLocal('p1', '900000000000000001')).toMatchObject({ kind: 'refundTransactionNo' });
      expect(await repo.newestFetchedAt('p1')).toBe('2025-01-02T00:00:00.000Z');
      expect(await db.lookups.where('profileId').equals('p1').count()).toBe(1);
      db.close();
    });
  }
});

describe('the cache as a whole', () => {
  it("deleting a profile's cache removes its rows, refunds, lookups and views, and nothing of another profile", async () => {
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
    await createLookupsRepo(db).add({
      profileId: 'p1',
      query: 'x',
      kind: 'reference',
      at: 't',
      outcome: 'found',
    });
    await createMetaRepo(db).set('p1', 'transactions.view', { a: 1 });
    await createMetaRepo(db).set('p2', 'transactions.view', { b: 2 });

    await createCacheAdmin(db).clearProfile('p1');
    expect(await repo.all('p1')).toEqual([]);
    expect(await repo.findLocal('p1', '900000000000000009')).toBeUndefined();
    expect(await db.lookups.where('profileId').equals('p1').count()).toBe(0);
    expect(await createMetaRepo(db).get('p1', 'transactions.view')).toBeUndefined();
    expect(await repo.all('p2')).toHaveLength(1);
    expect(await createMetaRepo(db).get('p2', 'transactions.view')).toEqual({ b: 2 });
    db.close();
  });

  it('a cache written by a newer version is refused with words that say so, and Reset opens an empty one', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const newer = new Dexie('newer', { indexedDB, IDBKeyRange: keyRange });
    newer.version(DB_VERSION + 1).stores({ ...SCHEMA_V4, extra: 'id' });
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
