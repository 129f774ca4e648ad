import Dexie from 'dexie';
import { describe, expect, it } from 'vitest';
import {
  DB_VERSION,
  openDb,
  SCHEMA_V1,
  SCHEMA_V2,
  SCHEMA_V3,
  SCHEMA_V4,
  SCHEMA_V5,
  UNKNOWN_FETCHED_AT,
} from '../../../../renderer/src/db/schema';
import { createMetaRepo } from '../../../../renderer/src/db/meta-repo';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { freshIdb, makeTx } from './helpers';

/** Every version's stores, in order: a database of each is written and opened with today's schema. */
const SCHEMAS: ReadonlyArray<Record<string, string>> = [
  SCHEMA_V1,
  SCHEMA_V2,
  SCHEMA_V3,
  SCHEMA_V4,
  SCHEMA_V5,
];

const FETCHED = '2025-01-02T00:00:00.000Z';

/** What a database of `version` held, written exactly as that version of the app wrote it. */
async function writeOld(name: string, version: number, idb: ReturnType<typeof freshIdb>) {
  const old = new Dexie(name, { indexedDB: idb.indexedDB, IDBKeyRange: idb.keyRange });
  for (let v = 1; v <= version; v += 1) old.version(v).stores(SCHEMAS[v - 1]!);
  const refunded = makeTx({
    amountMinor: 4250,
    refunds: [
      {
        refundTransactionNo: '900000000000000001',
        refundReference: 'RD0MWX5ABC',
        refundAmountMinor: 1250,
        currency: 'USD',
        status: 'success',
      },
    ],
  });
  const plain = makeTx();
  const other = makeTx({ currency: 'EUR' });
  const rows = [
    { ...refunded, profileId: 'p1', fetchedAt: FETCHED },
    { ...plain, profileId: 'p1', fetchedAt: '2025-01-01T00:00:00.000Z' },
    { ...other, profileId: 'p2', fetchedAt: FETCHED },
  ];
  await old.table('transactions').bulkPut(rows);
  // Version 1 did not enforce fetchedAt: such a row is backfilled on the way up.
  const { fetchedAt: _none, ...unstamped } = { ...makeTx(), profileId: 'p1', fetchedAt: '' };
  if (version === 1) await old.table('transactions').put(unstamped);
  await old.table('refunds').put({
    ...refunded.refunds[0]!,
    profileId: 'p1',
    transactionNo: refunded.transactionNo,
    fetchedAt: FETCHED,
  });
  await old.table('meta').bulkPut([
    { key: 'transactions.view:p1', value: { hiddenColumns: ['vendor'] } },
    { key: 'recon.mapping:p2', value: { amount: 'Total' } },
  ]);
  // The stores v5 drops, with rows in them.
  await old
    .table('lookups')
    .add({ profileId: 'p1', query: 'INV-1', kind: 'reference', at: FETCHED, outcome: 'found' });
  if (version >= 3)
    await old.table('reconRuns').put({
      jobId: 'job-1',
      profileId: 'p1',
      label: 'ledger.csv',
      createdAt: FETCHED,
      mapping: {},
      rows: [],
      problems: [],
    });
  const kept = {
    transactions: await old.table('transactions').toArray(),
    refunds: await old.table('refunds').toArray(),
    meta: await old.table('meta').toArray(),
  };
  expect(old.verno).toBe(version);
  old.close();
  return { kept, refunded, plain, other, unstamped: version === 1 ? unstamped : undefined };
}

const byKey = <T>(rows: T[], key: (r: T) => string) => [...rows].sort((a, b) => key(a).localeCompare(key(b)));

describe('cache schema migration', () => {
  it('has a schema for every version up to the current one', () => {
    expect(SCHEMAS).toHaveLength(DB_VERSION);
  });

  for (let version = 1; version < DB_VERSION; version += 1) {
    it(`a version ${version} database opens at version ${DB_VERSION}: payments, refunds and settings kept as they were, the unused lookups and reconRuns stores gone`, async () => {
      const idb = freshIdb();
      const name = `mig-v${version}`;
      const { kept, refunded, plain, other, unstamped } = await writeOld(name, version, idb);

      const db = openDb(name, idb.indexedDB, idb.keyRange);
      await db.open();
      expect(db.verno).toBe(DB_VERSION);
      expect([...db.backendDB().objectStoreNames].sort()).toEqual(['meta', 'refunds', 'transactions']);

      // Nothing else lost: every record as it was (a v1 row without fetchedAt reads as fetched long ago).
      const txKey = (r: { profileId: unknown; transactionNo: unknown }) =>
        `${r.profileId}|${r.transactionNo}`;
      const expected = kept.transactions.map((r) =>
        typeof r.fetchedAt === 'string' ? r : { ...r, fetchedAt: UNKNOWN_FETCHED_AT },
      );
      expect(byKey(await db.transactions.toArray(), txKey)).toEqual(byKey(expected, txKey));
      expect(await db.refunds.toArray()).toEqual(kept.refunds);
      expect(byKey(await db.meta.toArray(), (m) => m.key)).toEqual(byKey(kept.meta, (m) => String(m.key)));

      // And every index today's code reads answers over the upgraded data.
      const repo = createTransactionsRepo(db);
      expect((await repo.all('p1')).map((r) => r.transactionNo).sort()).toEqual(
        [refunded.transactionNo, plain.transactionNo, ...(unstamped ? [unstamped.transactionNo] : [])].sort(),
      );
      expect((await repo.all('p2')).map((r) => r.transactionNo)).toEqual([other.transactionNo]);
      expect(await repo.findLocal('p1', '900000000000000001')).toMatchObject({ kind: 'refundTransactionNo' });
      expect(await repo.findLocal('p1', 'RD0MWX5ABC')).toMatchObject({ kind: 'refundReference' });
      expect(await repo.findLocal('p1', refunded.reference!)).toMatchObject({ kind: 'reference' });
      expect(await repo.findLocal('p2', refunded.transactionNo)).toBeUndefined();
      expect(await repo.newestFetchedAt('p1')).toBe(FETCHED);
      expect((await repo.newest('p1', 1)).map((r) => r.transactionNo)).toEqual([
        [refunded, plain, ...(unstamped ? [unstamped] : [])].sort((a, b) =>
          b.createdAt!.localeCompare(a.createdAt!),
        )[0]!.transactionNo,
      ]);
      expect((await repo.byNumbers('p1', [plain.transactionNo])).map((r) => r.fetchedAt)).toEqual([
        '2025-01-01T00:00:00.000Z',
      ]);
      if (unstamped) {
        const oldest = await db.transactions
          .where('[profileId+fetchedAt]')
          .between(['p1', Dexie.minKey], ['p1', Dexie.maxKey])
          .first();
        expect(oldest?.transactionNo).toBe(unstamped.transactionNo);
      }
      expect(await createMetaRepo(db).get('p1', 'transactions.view')).toEqual({ hiddenColumns: ['vendor'] });

      // The upgraded database takes new writes like a new one.
      await repo.bulkUpsert('p1', [makeTx()], '2025-02-01T00:00:00.000Z');
      expect(await repo.newestFetchedAt('p1')).toBe('2025-02-01T00:00:00.000Z');
      db.close();
    });
  }

  it('opens a brand-new database at the current version, with only the stores it uses', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('new', indexedDB, keyRange);
    await db.open();
    expect(db.verno).toBe(DB_VERSION);
    expect([...db.backendDB().objectStoreNames].sort()).toEqual(['meta', 'refunds', 'transactions']);
    db.close();
  });
});
