import Dexie, { type EntityTable } from 'dexie';
import type { RefundRecord, Transaction } from '../../../shared/domain/transaction';

/**
 * The renderer's cache (DESIGN.md "Data"). Everything here can be rebuilt from the service, so a broken
 * database may be reset — never the refund journal, which lives in main.
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
export interface LookupEntry {
  id?: number;
  profileId: string;
  query: string;
  kind: string;
  at: string;
  outcome: string;
}
export interface MetaEntry {
  key: string;
  value: unknown;
}

export type RefundDeskDb = Dexie & {
  transactions: EntityTable<CachedTransaction>;
  refunds: EntityTable<CachedRefund>;
  lookups: EntityTable<LookupEntry, 'id'>;
  meta: EntityTable<MetaEntry, 'key'>;
};

export const DB_NAME = 'refund-desk';

/**
 * Versioned schema. Each version is kept so Dexie can upgrade any older database step by step; a
 * migration test opens a database written at every older version.
 */
export function openDb(name: string = DB_NAME, indexedDB?: IDBFactory, keyRange?: typeof IDBKeyRange): RefundDeskDb {
  const db = new Dexie(name, indexedDB && keyRange ? { indexedDB, IDBKeyRange: keyRange } : undefined) as RefundDeskDb;
  db.version(1).stores({
    transactions:
      '[profileId+transactionNo], [profileId+reference], [profileId+status], [profileId+currency], [profileId+vendor], [profileId+createdAt], [profileId+amountMinor], profileId',
    refunds: '[profileId+refundTransactionNo], [profileId+transactionNo], [profileId+refundReference], profileId',
    lookups: '++id, [profileId+at], profileId',
    meta: 'key',
  });
  return db;
}
