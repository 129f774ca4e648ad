import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import type { Transaction } from '../../../shared/domain/transaction';
import type { QueriedTransaction, QueryKey } from '../../../electron/core/services/gateway/client';
import { createTransactionLookup } from '../../../electron/core/services/transactions/lookup';
import { createFakeClock } from '../../fakes/clock';

const PAY: Transaction = {
  transactionNo: '297553638300708562',
  reference: 'INV-1',
  amountMinor: 1000,
  currency: 'USD',
  status: 'success',
  transactionType: 'payment',
  refunds: [
    { refundTransactionNo: '397553638300708563', refundAmountMinor: 300, currency: 'USD', status: 'success' },
  ],
};
const REFUND: Transaction = {
  ...PAY,
  transactionNo: '397553638300708563',
  transactionType: 'refund',
  amountMinor: 300,
  refunds: [],
};

/** A fake gateway answering from a table keyed like "transactionNo:123". */
function fakeGateway(table: Record<string, QueriedTransaction | AppError>) {
  const calls: string[] = [];
  return {
    calls,
    client: {
      queryTransaction: async (key: QueryKey): Promise<QueriedTransaction> => {
        const [k, v] = Object.entries(key)[0] as [string, string];
        calls.push(`${k}:${v}`);
        const hit = table[`${k}:${v}`];
        if (hit instanceof AppError) throw hit;
        if (!hit) throw new AppError('not_found', 'no record', { details: { ret_code: '000021' } });
        return hit;
      },
    },
  };
}

const lookupWith = (gw: ReturnType<typeof fakeGateway>) =>
  createTransactionLookup({
    gateway: async () => ({ profileId: 'P1', client: gw.client }),
    clock: createFakeClock(),
  });

describe('transactions.lookup', () => {
  it('finds a payment by transactionNo with the remaining refundable amount', async () => {
    const gw = fakeGateway({ [`transactionNo:${PAY.transactionNo}`]: { transaction: PAY } });
    const r = await lookupWith(gw).lookup('P1', `  ${PAY.transactionNo} `);
    expect(r).toMatchObject({
      profileId: 'P1',
      kind: 'transactionNo',
      remainingRefundableMinor: 700,
      fetchedAt: expect.stringMatching(/Z$/),
    });
  });

  it('falls back to refundTransactionNo and returns the original payment', async () => {
    const gw = fakeGateway({
      [`refundTransactionNo:${REFUND.transactionNo}`]: {
        transaction: REFUND,
        originalTransactionNo: PAY.transactionNo,
      },
      [`transactionNo:${PAY.transactionNo}`]: { transaction: PAY },
    });
    const r = await lookupWith(gw).lookup('P1', REFUND.transactionNo);
    expect(r).toMatchObject({
      kind: 'refundTransactionNo',
      matchedRefundTransactionNo: REFUND.transactionNo,
      transaction: { transactionNo: PAY.transactionNo },
    });
    expect(gw.calls).toEqual([
      `transactionNo:${REFUND.transactionNo}`,
      `refundTransactionNo:${REFUND.transactionNo}`,
      `transactionNo:${PAY.transactionNo}`,
    ]);
  });

  it('tries a numeric reference last, then says not found', async () => {
    const gw = fakeGateway({ 'reference:123456789012345678': { transaction: PAY } });
    expect((await lookupWith(gw).lookup('P1', '123456789012345678')).kind).toBe('reference');
    const none = fakeGateway({});
    await expect(lookupWith(none).lookup('P1', '999999999999999999')).rejects.toMatchObject({
      code: 'not_found',
    });
    expect(none.calls).toHaveLength(3);
  });

  it('finds a refund by its own reference through candidate payments, verified at the service', async () => {
    const withRef: Transaction = {
      ...PAY,
      refunds: [{ ...PAY.refunds[0]!, refundReference: 'RF-0101-1' }],
    };
    const other = { ...PAY, transactionNo: '297553638300708999' };
    const gw = fakeGateway({
      [`transactionNo:${other.transactionNo}`]: { transaction: other },
      [`transactionNo:${PAY.transactionNo}`]: { transaction: withRef },
    });
    const r = await lookupWith(gw).lookup('P1', 'RF-0101-1', [other.transactionNo, PAY.transactionNo]);
    expect(r).toMatchObject({
      kind: 'refundReference',
      matchedRefundTransactionNo: '397553638300708563',
      transaction: { transactionNo: PAY.transactionNo },
    });
    // The service is asked for the reference first; a candidate counts only when its refundInfo carries it.
    expect(gw.calls).toEqual([
      'reference:RF-0101-1',
      `transactionNo:${other.transactionNo}`,
      `transactionNo:${PAY.transactionNo}`,
    ]);
    await expect(lookupWith(gw).lookup('P1', 'RF-NOPE', [PAY.transactionNo])).rejects.toMatchObject({
      code: 'not_found',
    });
  });

  it('a network failure is never reported as "not found"', async () => {
    const gw = fakeGateway({ [`transactionNo:${PAY.transactionNo}`]: new AppError('network', 'down') });
    await expect(lookupWith(gw).lookup('P1', PAY.transactionNo)).rejects.toMatchObject({ code: 'network' });
    expect(gw.calls).toHaveLength(1);
  });

  it('refresh keeps order and isolates failures', async () => {
    const gw = fakeGateway({ [`transactionNo:${PAY.transactionNo}`]: { transaction: PAY } });
    const r = await lookupWith(gw).refresh('P1', [PAY.transactionNo, '100000000000000001']);
    expect(r.items.map((i) => i.ok)).toEqual([true, false]);
    expect(r.items[1]).toMatchObject({ ok: false, error: { code: 'not_found' } });
  });
});
