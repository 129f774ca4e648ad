import type { RefundDeskDb } from './schema';

/**
 * Small per-profile settings of the renderer (view state of a list, last sync). Values are stored as
 * given; readers validate them, because an older app version may have written another shape.
 */
export function createMetaRepo(db: RefundDeskDb) {
  const key = (profileId: string, name: string) => `${name}:${profileId}`;
  return {
    async get(profileId: string, name: string): Promise<unknown> {
      return (await db.meta.get(key(profileId, name)))?.value;
    },
    async set(profileId: string, name: string, value: unknown): Promise<void> {
      await db.meta.put({ key: key(profileId, name), value });
    },
  };
}
export type MetaRepo = ReturnType<typeof createMetaRepo>;
