import { QueryClient } from '@tanstack/react-query';
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import type { Transaction } from '../../../../shared/domain/transaction';
import { createCacheWriter } from '../../../../renderer/src/db/cache-writer';
import {
  listRowsOf,
  MERGE_SLICE,
  mergeRows,
  mergeWrittenInSlices,
} from '../../../../renderer/src/db/list-merge';
import { createCacheOwner, transactionKeys } from '../../../../renderer/src/db/owner';
import { openDb } from '../../../../renderer/src/db/schema';
import type { ListRow } from '../../../../renderer/src/db/list-row';
import { freshIdb, makeTx } from './helpers';

const A = '2025-03-01T00:00:00.000Z';
const B = '2025-03-02T00:00:00.000Z';

describe('merging a write into the loaded list', () => {
  it('a slice at a time gives exactly the one-go merge, whatever overlaps or repeats', async () => {
    const pool = Array.from({ length: 12 }, () => makeTx());
    const pick = fc.array(fc.nat(11), { maxLength: 14 }).map((is) => is.map((i) => pool[i]!));
    await fc.assert(
      fc.asyncProperty(pick, pick, async (before, written) => {
        const current = listRowsOf(before, 'p', A);
        let pauses = 0;
        const { merged, fresh } = await mergeWrittenInSlices(current, written, 'p', B, async () => {
          pauses += 1;
        });
        expect(merged).toEqual(mergeRows(current, listRowsOf(written, 'p', B)));
        expect(fresh).toEqual(listRowsOf(written, 'p', B));
        expect(pauses).toBe(0);
      }),
    );
  });

  it('pauses between slices of a large write, which still merges exactly', async () => {
    const before = Array.from({ length: MERGE_SLICE + 10 }, () => makeTx());
    const written = [...before.slice(0, MERGE_SLICE), ...Array.from({ length: 3 }, () => makeTx())];
    const current = listRowsOf(before, 'p', A);
    let pauses = 0;
    const { merged } = await mergeWrittenInSlices(current, written, 'p', B, async () => {
      pauses += 1;
    });
    expect(pauses).toBe(2); // one after the first slice of written rows, one after the first of the list
    expect(merged).toEqual(mergeRows(current, listRowsOf(written, 'p', B)));
    expect(merged).toHaveLength(MERGE_SLICE + 13);
  });

  it('the owner merges a large write without holding the page, keeps what lands meanwhile, and keeps call order', async () => {
    const { indexedDB, keyRange } = freshIdb();
    const db = openDb('m', indexedDB, keyRange);
    const client = new QueryClient();
    const key = transactionKeys.rows('p');
    client.setQueryData(key, [] as ListRow[]);
    // No worker: the page writes (the fallback), so the test is about the merge alone. The turns the page
    // got are noted when the big write has been stored, before its merge starts.
    const writer = createCacheWriter(db);
    let turnsAtStored = -1;
    let turns = 0;
    const owner = createCacheOwner(db, client, {
      ...writer,
      write: async (...args: Parameters<typeof writer.write>) => {
        const out = await writer.write(...args);
        if (args[1].length > 1) turnsAtStored = turns;
        return out;
      },
    });
    const big: Transaction[] = Array.from({ length: MERGE_SLICE * 2 + 1 }, () => makeTx());
    const early = { ...big[7]!, status: 'pending' } as Transaction;

    // While the large merge pauses, a lookup's row lands in the list.
    const lookedUp = makeTx();
    let turnsAtMerged = -1;
    const bigWrite = owner.store('p', big, A).then((o) => ((turnsAtMerged = turns), o));
    const tick = setInterval(() => {
      turns += 1;
      if (turnsAtStored >= 0 && turns === turnsAtStored + 1) {
        const cur = client.getQueryData<ListRow[]>(key) ?? [];
        client.setQueryData(key, mergeRows(cur, listRowsOf([lookedUp], 'p', B)));
      }
    }, 0);
    // A later fetch of one of the big write's payments, stored after it: its answer must win.
    const later = owner.store('p', [{ ...early, status: 'success' }], B);
    await Promise.all([bigWrite, later]);
    clearInterval(tick);

    const rows = client.getQueryData<ListRow[]>(key)!;
    // The page had turns while the merge ran (the one-go merge ran within a single task).
    expect(turnsAtStored).toBeGreaterThanOrEqual(0);
    expect(turnsAtMerged).toBeGreaterThan(turnsAtStored);
    expect(rows).toHaveLength(big.length + 1);
    expect(rows.some((r) => r.transactionNo === lookedUp.transactionNo)).toBe(true);
    const seventh = rows.find((r) => r.transactionNo === big[7]!.transactionNo)!;
    expect([seventh.status, seventh.fetchedAt]).toEqual(['success', B]);
    db.close();
  });
});
