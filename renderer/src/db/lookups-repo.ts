import Dexie from 'dexie';
import type { LookupEntry, RefundDeskDb } from './schema';

/** Lookup history per profile: what was searched, how it was recognised and how it ended. */
export function createLookupsRepo(db: RefundDeskDb) {
  return {
    async add(entry: Omit<LookupEntry, 'id'>): Promise<void> {
      await db.lookups.add(entry);
    },
    /** Most recent first. */
    recent(profileId: string, limit = 20): Promise<LookupEntry[]> {
      return db.lookups
        .where('[profileId+at]')
        .between([profileId, Dexie.minKey], [profileId, Dexie.maxKey])
        .reverse()
        .limit(limit)
        .toArray();
    },
    /** Every earlier search for exactly this text in this profile. */
    forQuery(profileId: string, query: string): Promise<LookupEntry[]> {
      return db.lookups.where('[profileId+query]').equals([profileId, query]).toArray();
    },
  };
}
export type LookupsRepo = ReturnType<typeof createLookupsRepo>;
