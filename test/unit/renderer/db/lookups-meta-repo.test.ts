import { describe, expect, it } from 'vitest';
import { createLookupsRepo } from '../../../../renderer/src/db/lookups-repo';
import { createMetaRepo } from '../../../../renderer/src/db/meta-repo';
import { openDb } from '../../../../renderer/src/db/schema';
import { freshIdb } from './helpers';

describe('lookup history and meta', () => {
  it('records each lookup under its profile', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('l', indexedDB, keyRange);
    const repo = createLookupsRepo(db);
    await repo.add({
      profileId: 'p1',
      query: 'A',
      kind: 'reference',
      at: '2025-01-01T00:00:00.000Z',
      outcome: 'found',
    });
    await repo.add({
      profileId: 'p1',
      query: 'B',
      kind: 'reference',
      at: '2025-01-03T00:00:00.000Z',
      outcome: 'not_found',
    });
    await repo.add({
      profileId: 'p2',
      query: 'C',
      kind: 'reference',
      at: '2025-01-04T00:00:00.000Z',
      outcome: 'found',
    });
    const of = async (profileId: string) =>
      (await db.lookups.where('profileId').equals(profileId).sortBy('at')).map((e) => e.query);
    expect(await of('p1')).toEqual(['A', 'B']);
    expect(await of('p2')).toEqual(['C']);
    db.close();
  });

  it('stores values per profile', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('m', indexedDB, keyRange);
    const meta = createMetaRepo(db);
    await meta.set('p1', 'view', { a: 1 });
    expect(await meta.get('p1', 'view')).toEqual({ a: 1 });
    expect(await meta.get('p2', 'view')).toBeUndefined();
    db.close();
  });
});
