import type { LookupEntry, RefundDeskDb } from './schema';

/** Lookup history per profile: what was searched, how it was recognised and how it ended. */
export function createLookupsRepo(db: RefundDeskDb) {
  return {
    async add(entry: Omit<LookupEntry, 'id'>): Promise<void> {
      await db.lookups.add(entry);
    },
  };
}
export type LookupsRepo = ReturnType<typeof createLookupsRepo>;
