import { describe, expect, it } from 'vitest';
import { createMetaRepo } from '../../../../renderer/src/db/meta-repo';
import { openDb } from '../../../../renderer/src/db/schema';
import { freshIdb } from './helpers';

describe('meta', () => {
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
