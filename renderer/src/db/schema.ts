import Dexie, { type DexieOptions, type EntityTable } from 'dexie';
import type { RefundRecord, Transaction } from '../../../shared/domain/transaction';

/**
 * The renderer's cache (README, "How the cache stays current"). Everything here can be rebuilt from the
 * service, so a broken database may be reset — never the refund journal, which lives in main.
 * Every record carries profileId and fetchedAt; keys are compound with profileId so two merchants'
 * data never mix.
 */
export interface CachedTransaction extends Transaction {
  profileId: string;
  fetchedAt: string;
}
export interface CachedRefund extends RefundRecord {
  profileId: string;
  transactionNo: string;
  fetchedAt: string;
}
export interface MetaEntry {
  key: string;
  value: unknown;
}

export type RefundDeskDb = Dexie & {
  transactions: EntityTable<CachedTransaction>;
  refunds: EntityTable<CachedRefund>;
  meta: EntityTable<MetaEntry, 'key'>;
};

export const DB_NAME = 'refund-desk';

/** Rows written before fetchedAt was guaranteed read as "fetched at an unknown time, long ago". */
export const UNKNOWN_FETCHED_AT = '1970-01-01T00:00:00.000Z';

/** Version 1's stores, kept verbatim: Dexie upgrades an old database step by step from them. */
export const SCHEMA_V1 = {
  transactions:
    '[profileId+transactionNo], [profileId+reference], [profileId+status], [profileId+currency], [profileId+vendor], [profileId+createdAt], [profileId+amountMinor], profileId',
  refunds:
    '[profileId+refundTransactionNo], [profileId+transactionNo], [profileId+refundReference], profileId',
  lookups: '++id, [profileId+at], profileId',
  meta: 'key',
} as const;

/**
 * Version 2 adds [profileId+fetchedAt] (the offline banner's "data as of" is the newest fetch; bulk
 * refresh picks the stalest rows) and [profileId+query] on lookups (recent searches without a scan).
 */
export const SCHEMA_V2 = {
  ...SCHEMA_V1,
  transactions: `${SCHEMA_V1.transactions}, [profileId+fetchedAt]`,
  refunds: `${SCHEMA_V1.refunds}, [profileId+fetchedAt]`,
  lookups: `${SCHEMA_V1.lookups}, [profileId+query]`,
} as const;

/**
 * Version 3 added reconciliation runs (keyed by main's job id). They became records in main's database
 * (ledger, service data, every item, summary) and the store was never written again; v5 drops it.
 */
export const SCHEMA_V3 = { ...SCHEMA_V2, reconRuns: 'jobId, [profileId+createdAt]' } as const;

/**
 * Version 4 drops the status/currency/vendor/amount indexes of v1: the list holds a profile's rows in
 * memory and filters there (91 ms over 100k rows), so nothing ever queried them, while every write paid
 * for them (`npm run bench -- renderer`, median of 3: 100k-row write 15.4 s → 9.8 s). Kept: the primary key,
 * reference (lookups offline), createdAt (date slices), fetchedAt (data age), profileId.
 */
export const SCHEMA_V4 = {
  ...SCHEMA_V3,
  transactions:
    '[profileId+transactionNo], [profileId+reference], [profileId+createdAt], [profileId+fetchedAt], profileId',
} as const;

/**
 * Version 5 drops two stores nothing read: `lookups` (a row written on every search, never shown or
 * queried) and `reconRuns` (unused since runs live in main's database). Everything else is as in v4.
 */
export const SCHEMA_V5 = {
  transactions: SCHEMA_V4.transactions,
  refunds: SCHEMA_V4.refunds,
  meta: SCHEMA_V4.meta,
} as const;

/** The current schema version (tests open older versions and upgrade to this). */
export const DB_VERSION = 5;

/**
 * Versioned schema. Each version is kept so Dexie can upgrade any older database step by step; a
 * migration test opens a database written at every older version.
 */
export function openDb(
  name: string = DB_NAME,
  indexedDB?: DexieOptions['indexedDB'],
  keyRange?: DexieOptions['IDBKeyRange'],
): RefundDeskDb {
  const db = new Dexie(
    name,
    indexedDB && keyRange ? { indexedDB, IDBKeyRange: keyRange } : undefined,
  ) as RefundDeskDb;
  db.version(1).stores(SCHEMA_V1);
  db.version(2)
    .stores(SCHEMA_V2)
    .upgrade(async (tx) => {
      // v1 did not enforce fetchedAt; a row without it would be invisible to the new index and would
      // make the data-age banner lie. Mark such rows as the oldest possible fetch instead.
      const backfill = (row: { fetchedAt?: string }) => {
        if (typeof row.fetchedAt !== 'string' || row.fetchedAt === '') row.fetchedAt = UNKNOWN_FETCHED_AT;
      };
      await tx.table('transactions').toCollection().modify(backfill);
      await tx.table('refunds').toCollection().modify(backfill);
    });
  db.version(3).stores(SCHEMA_V3);
  db.version(4).stores(SCHEMA_V4);
  // null deletes a store (with its rows) when an older database is upgraded.
  db.version(5).stores({ ...SCHEMA_V5, lookups: null, reconRuns: null });
  return db;
}
