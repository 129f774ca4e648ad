// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '../../../fakes/bridge';
import { harness } from './harness';
import { makeTx } from '../db/helpers';
import { createCacheOwner } from '../../../../renderer/src/db/owner';
import { listSummaryKey, summaryOf } from '../../../../renderer/src/db/list-summary';
import { putChunkRaw } from '../../../../renderer/src/db/raw-put';
import { totalsFromStats } from '../../../../renderer/src/features/transactions/totals';

const B = '2025-01-02T00:00:00.000Z';

describe('the list summary (count and totals before the last row is read)', () => {
  it('is stored by a complete read, read back before any row, and deleted by the next write', async () => {
    const { db, client, cache } = harness(createFakeBridge({}).bridge, 'summary-cycle');
    await cache.store(
      'p1',
      [
        makeTx({ amountMinor: 1000 }),
        makeTx({ amountMinor: 250, currency: 'JPY' }),
        makeTx({ amountMinor: 700, status: 'failed' }),
      ],
      B,
    );
    expect(await client.fetchQuery(cache.summaryQuery('p1'))).toBeNull();
    await client.fetchQuery(cache.rowsQuery('p1'));
    const fresh = createCacheOwner(db, client);
    client.removeQueries();
    const summary = await client.fetchQuery(fresh.summaryQuery('p1'));
    expect(summary?.count).toBe(3);
    expect(totalsFromStats(summary!.stats, 'net')?.map((t) => [t.currency, t.count, t.netMinor])).toEqual([
      ['JPY', 1, 250],
      ['USD', 1, 1000],
    ]);
    expect(totalsFromStats(summary!.stats, 'all')?.find((t) => t.currency === 'USD')?.grossMinor).toBe(1700);

    await cache.store('p1', [makeTx()], B);
    // The owner forgets the one it read, and the stored one is gone with the write.
    expect(client.getQueryData(['transactions', 'p1', 'summary'])).toBeNull();
    expect(await db.meta.get(listSummaryKey('p1'))).toBeUndefined();
  });

  it('is not stored when a write came while the rows were being read', async () => {
    const { db, client } = harness(createFakeBridge({}).bridge, 'summary-race');
    const cache = createCacheOwner(db, client, undefined, { readPage: 2 });
    await cache.store(
      'p1',
      ['200', '300', '400', '500'].map((no) => makeTx({ transactionNo: no })),
      B,
    );
    const read = client.fetchQuery(cache.rowsQuery('p1'));
    await cache.store('p1', [makeTx({ transactionNo: '100' })], B);
    await read;
    expect(summaryOf((await db.meta.get(listSummaryKey('p1')))?.value)).toBeNull();
  });

  it("is deleted by the bulk writer's raw chunks too, and only the written profile's", async () => {
    const { db, client, cache } = harness(createFakeBridge({}).bridge, 'summary-raw');
    await cache.store('p1', [makeTx()], B);
    await cache.store('p2', [makeTx()], B);
    await client.fetchQuery(cache.rowsQuery('p1'));
    await client.fetchQuery(cache.rowsQuery('p2'));
    expect(summaryOf((await db.meta.get(listSummaryKey('p1')))?.value)?.count).toBe(1);
    await db.open();
    await putChunkRaw(db.backendDB(), 'p1', [makeTx()], B);
    expect(await db.meta.get(listSummaryKey('p1'))).toBeUndefined();
    expect(summaryOf((await db.meta.get(listSummaryKey('p2')))?.value)?.count).toBe(1);
  });
});
