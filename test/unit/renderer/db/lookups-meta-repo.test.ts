import { describe, expect, it } from 'vitest';
import { createLookupsRepo } from '../../../../renderer/src/db/lookups-repo';
import { createMetaRepo } from '../../../../renderer/src/db/meta-repo';
import { openDb } from '../../../../renderer/src/db/schema';
import { freshIdb } from './helpers';

describe('lookup history and meta', () => {
  it('lists a profile’s recent lookups newest first, never another profile’s', async () => {
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
    expect((await repo.recent('p1')).map((e) => e.query)).toEqual(['B', 'A']);
    expect((await repo.recent('p1', 1)).map((e) => e.query)).toEqual(['B']);
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
