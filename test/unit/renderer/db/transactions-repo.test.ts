import { describe, expect, it } from 'vitest';
import { openDb } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { freshIdb, makeTx } from './helpers';

function setup() {
  const { indexedDB, keyRange } = freshIdb();
  const db = openDb('t', indexedDB, keyRange);
  return { db, repo: createTransactionsRepo(db) };
}

describe('transactions repository', () => {
  it('stores a fetched transaction with its refunds, profileId and fetchedAt; a later fetch replaces it', async () => {
    const { db, repo } = setup();
    const tx = makeTx({
      refunds: [
        {
          refundTransactionNo: '300000000000000001',
          refundReference: 'RD1',
          refundAmountMinor: 200,
          currency: 'USD',
          status: 'success',
        },
      ],
    });
    await repo.bulkUpsert('p1', [tx], '2025-02-01T00:00:00.000Z');
    expect(await repo.all('p1')).toEqual([
      expect.objectContaining({
        profileId: 'p1',
        fetchedAt: '2025-02-01T00:00:00.000Z',
        amountMinor: tx.amountMinor,
      }),
    ]);
    expect(
      await db.refunds.where('[profileId+transactionNo]').equals(['p1', tx.transactionNo]).toArray(),
    ).toEqual([
      expect.objectContaining({
        refundTransactionNo: '300000000000000001',
        transactionNo: tx.transactionNo,
        profileId: 'p1',
      }),
    ]);
    await repo.bulkUpsert('p1', [{ ...tx, status: 'reversed' }], '2025-02-02T00:00:00.000Z');
    const rows = await repo.all('p1');
    expect(rows).toHaveLength(1);
    expect(rows[0]?.status).toBe('reversed');
    db.close();
  });

  it('keeps two profiles apart even for the same transaction number', async () => {
    const { db, repo } = setup();
    const tx = makeTx();
    await repo.bulkUpsert('p1', [tx], '2025-02-01T00:00:00.000Z');
    await repo.bulkUpsert('p2', [{ ...tx, amountMinor: 5 }], '2025-02-01T00:00:00.000Z');
    expect((await repo.byNumbers('p1', [tx.transactionNo])).map((t) => t.amountMinor)).toEqual([
      tx.amountMinor,
    ]);
    expect((await repo.byNumbers('p2', [tx.transactionNo])).map((t) => t.amountMinor)).toEqual([5]);
    expect(await repo.all('p1')).toHaveLength(1);
    expect(await repo.byNumbers('p3', [tx.transactionNo])).toEqual([]);
    expect(await repo.findLocal('p3', tx.transactionNo)).toBeUndefined();
    db.close();
  });

  it('writes in chunks and reports progress', async () => {
    const { db, repo } = setup();
    const txs = Array.from({ length: 250 }, () => makeTx());
    const seen: number[] = [];
    await repo.bulkUpsert('p1', txs, '2025-02-01T00:00:00.000Z', {
      chunkSize: 100,
      onChunk: (w) => seen.push(w),
    });
    expect(seen).toEqual([100, 200, 250]);
    expect(await repo.all('p1')).toHaveLength(250);
    db.close();
  });

  it('finds a cached transaction by number, reference or refund number and says which', async () => {
    const { db, repo } = setup();
    const tx = makeTx({
      reference: 'ORDER-77',
      refunds: [
        {
          refundTransactionNo: '399999999999999999',
          refundAmountMinor: 1,
          currency: 'USD',
          status: 'pending',
        },
      ],
    });
    await repo.bulkUpsert('p1', [tx], '2025-02-01T00:00:00.000Z');
    expect((await repo.findLocal('p1', tx.transactionNo))?.kind).toBe('transactionNo');
    expect((await repo.findLocal('p1', ' ORDER-77 '))?.kind).toBe('reference');
    const byRefund = await repo.findLocal('p1', '399999999999999999');
    expect(byRefund?.kind).toBe('refundTransactionNo');
    expect(byRefund?.transaction.transactionNo).toBe(tx.transactionNo);
    expect(await repo.findLocal('p1', 'nope')).toBeUndefined();
    db.close();
  });

  it('reads the cached ones of a list of numbers and reports the newest fetch of a profile', async () => {
    const { db, repo } = setup();
    const a = makeTx();
    const b = makeTx();
    await repo.bulkUpsert('p1', [a], '2025-03-10T00:00:00.000Z');
    await repo.bulkUpsert('p1', [b], '2025-03-12T00:00:00.000Z');
    await repo.bulkUpsert('p2', [makeTx()], '2025-04-01T00:00:00.000Z');
    const found = await repo.byNumbers('p1', [b.transactionNo, '123', a.transactionNo]);
    expect(found.map((t) => t.transactionNo).sort()).toEqual([a.transactionNo, b.transactionNo].sort());
    expect(await repo.newestFetchedAt('p1')).toBe('2025-03-12T00:00:00.000Z');
    expect(await repo.newestFetchedAt('p3')).toBeUndefined();
    db.close();
  });
});
