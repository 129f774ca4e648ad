// @vitest-environment jsdom
import { describe, expect, it } from 'vitest';
import { createFakeBridge } from '../../../fakes/bridge';
import { harness } from './harness';
import { makeTx } from '../db/helpers';
import { createCacheOwner, transactionKeys } from '../../../../renderer/src/db/owner';
import type { ListRow } from '../../../../renderer/src/db/list-row';
import { readListRows } from '../../../../renderer/src/db/read-list';
import { statsOf } from '../../../../renderer/src/db/list-stats';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';

const B = '2025-01-02T00:00:00.000Z';

describe('reading the whole cache', () => {
  it('reads every row of the profile a page at a time, in number order, with the stats of all of them', async () => {
    const { db, cache } = harness(createFakeBridge({}).bridge, 'read-pages');
    const txs = Array.from({ length: 23 }, (_, i) =>
      makeTx({ currency: i % 3 ? 'USD' : 'JPY', vendor: i % 2 ? 'alipay' : 'wechatpay' }),
    );
    await cache.store('p1', txs.slice().reverse(), B);
    await cache.store('p2', [makeTx()], B);
    const asked: Array<string | undefined> = [];
    const repo = createTransactionsRepo(db);
    const rows = await readListRows(
      { page: (p, after, limit) => (asked.push(after), repo.page(p, after, limit)) },
      'p1',
      5,
    );
    expect(rows.map((r) => r.transactionNo)).toEqual(txs.map((t) => t.transactionNo).sort());
    // 23 rows in pages of 5: five pages, each after the last number of the one before.
    expect(asked).toEqual([undefined, ...[4, 9, 14, 19].map((i) => rows[i]!.transactionNo)]);
    const s = statsOf(rows);
    expect([s.count, [...s.currencies].sort(), [...s.vendors].sort()]).toEqual([
      23,
      ['JPY', 'USD'],
      ['alipay', 'wechatpay'],
    ]);
    expect(s.sums.get('JPY')?.allCount).toBe(8);
  });

  it('a write that lands between two pages of the read, behind the page being read, is in the list once read', async () => {
    const { db, client } = harness(createFakeBridge({}).bridge, 'read-while-written');
    const cache = createCacheOwner(db, client, undefined, { readPage: 2 });
    await cache.store(
      'p1',
      ['200', '300', '400', '500', '600', '700'].map((no) => makeTx({ transactionNo: no })),
      B,
    );
    // Numbered below every page still to come: only the merge at the end can bring it into the list.
    const late = makeTx({ transactionNo: '100', reference: 'LANDED-LATE' });
    const read = client.fetchQuery(cache.rowsQuery('p1'));
    await cache.store('p1', [late], '2025-01-03T00:00:00.000Z');
    await read;
    const rows = client.getQueryData<ListRow[]>(transactionKeys.rows('p1'));
    // Merged as every write into a loaded list is (mergeRows: new numbers after the others).
    expect(rows?.map((r) => r.transactionNo).sort()).toEqual([
      '100',
      '200',
      '300',
      '400',
      '500',
      '600',
      '700',
    ]);
  });
});
