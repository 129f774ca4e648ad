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
  it('upserts a looked-up transaction with its refunds, profileId and fetchedAt', async () => {
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
    await repo.upsert('p1', tx, '2025-02-01T00:00:00.000Z');
    const got = await repo.get('p1', tx.transactionNo);
    expect(got).toMatchObject({
      profileId: 'p1',
      fetchedAt: '2025-02-01T00:00:00.000Z',
      amountMinor: tx.amountMinor,
    });
    expect(await repo.refundsOf('p1', tx.transactionNo)).toEqual([
      expect.objectContaining({
        refundTransactionNo: '300000000000000001',
        transactionNo: tx.transactionNo,
        profileId: 'p1',
      }),
    ]);
    // A later fetch replaces the row rather than duplicating it.
    await repo.upsert('p1', { ...tx, status: 'reversed' }, '2025-02-02T00:00:00.000Z');
    expect(await repo.count('p1')).toBe(1);
    expect((await repo.get('p1', tx.transactionNo))?.status).toBe('reversed');
    db.close();
  });

  it('keeps two profiles apart even for the same transaction number', async () => {
    const { db, repo } = setup();
    const tx = makeTx();
    await repo.upsert('p1', tx, '2025-02-01T00:00:00.000Z');
    await repo.upsert('p2', { ...tx, amountMinor: 5 }, '2025-02-01T00:00:00.000Z');
    expect((await repo.get('p1', tx.transactionNo))?.amountMinor).toBe(tx.amountMinor);
    expect((await repo.get('p2', tx.transactionNo))?.amountMinor).toBe(5);
    expect(await repo.all('p1')).toHaveLength(1);
    await repo.clearProfile('p2');
    expect(await repo.count('p2')).toBe(0);
    expect(await repo.count('p1')).toBe(1);
    expect(await repo.findLocal('p2', tx.transactionNo)).toBeUndefined();
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
    expect(await repo.count('p1')).toBe(250);
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
    await repo.upsert('p1', tx, '2025-02-01T00:00:00.000Z');
    expect((await repo.findLocal('p1', tx.transactionNo))?.kind).toBe('transactionNo');
    expect((await repo.findLocal('p1', ' ORDER-77 '))?.kind).toBe('reference');
    const byRefund = await repo.findLocal('p1', '399999999999999999');
    expect(byRefund?.kind).toBe('refundTransactionNo');
    expect(byRefund?.transaction.transactionNo).toBe(tx.transactionNo);
    expect(await repo.findLocal('p1', 'nope')).toBeUndefined();
    db.close();
  });

  it('reads a date slice through the createdAt index and reports the newest and stalest fetches', async () => {
    const { db, repo } = setup();
    const a = makeTx({ createdAt: '2025-03-01T10:00:00.000Z' });
    const b = makeTx({ createdAt: '2025-03-05T10:00:00.000Z' });
    const c = makeTx({ createdAt: '2025-03-09T10:00:00.000Z' });
    await repo.upsert('p1', a, '2025-03-10T00:00:00.000Z');
    await repo.upsert('p1', b, '2025-03-12T00:00:00.000Z');
    await repo.upsert('p1', c, '2025-03-11T00:00:00.000Z');
    await repo.upsert('p2', makeTx({ createdAt: '2025-03-05T11:00:00.000Z' }), '2025-04-01T00:00:00.000Z');
    const slice = await repo.createdBetween('p1', '2025-03-02T00:00:00.000Z', '2025-03-09T23:59:59.999Z');
    expect(slice.map((t) => t.transactionNo).sort()).toEqual([b.transactionNo, c.transactionNo].sort());
    expect(await repo.newestFetchedAt('p1')).toBe('2025-03-12T00:00:00.000Z');
    expect(await repo.newestFetchedAt('p3')).toBeUndefined();
    expect(await repo.stalest('p1', 2)).toEqual([a.transactionNo, c.transactionNo]);
    db.close();
  });
});
