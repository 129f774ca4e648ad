// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { usePaymentRows } from '../../../../renderer/src/features/payments/queries';
import type { PaymentView } from '../../../../shared/ipc/contract/payments';
import type { Transaction } from '../../../../shared/domain/transaction';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { harness } from './harness';

afterEach(cleanup);

const payment = (over: Partial<PaymentView>): PaymentView => ({
  id: 'PY1',
  kind: 'link',
  state: 'succeeded',
  profileId: 'P-A',
  profileName: 'Shop A',
  environment: 'demo',
  operator: 'Ana',
  reference: 'PAY1',
  amountMinor: 4250,
  currency: 'USD',
  settleCurrency: 'USD',
  vendor: 'alipay',
  goods: [],
  saveCard: false,
  methodSaved: false,
  createdAt: '2026-11-22T10:00:00.000Z',
  updatedAt: '2026-11-22T10:05:00.000Z',
  transactionNo: '297553638300700001',
  ...over,
});
const tx = (transactionNo: string, refunded: number): Transaction => ({
  transactionNo,
  amountMinor: 4250,
  currency: 'USD',
  status: 'success',
  transactionType: 'payment',
  refunds: refunded
    ? [
        {
          refundTransactionNo: `3${transactionNo.slice(1)}`,
          refundAmountMinor: refunded,
          currency: 'USD',
          status: 'success',
        },
      ]
    : [],
});

describe('Payments joined with the cache (component, typed fake bridge)', () => {
  it('a paid payment shows its cached transaction’s refunds, and a later write (a refund) shows at once', async () => {
    const fake = createFakeBridge({});
    const { wrapper, cache } = harness(fake.bridge);
    await cache.store('P-A', [tx('297553638300700001', 0)], '2026-11-22T11:00:00.000Z');
    const payments = [
      payment({}),
      payment({ id: 'PY2', state: 'open', transactionNo: '297553638300700002' }),
    ];
    const { result } = renderHook(() => usePaymentRows('P-A', payments), { wrapper });
    await waitFor(() =>
      expect(result.current[0]!.refundSummary).toMatchObject({
        refunded: 'not_refunded',
        remainingMinor: 4250,
      }),
    );
    // An open payment has nothing to join; nothing is fetched for it.
    expect(result.current[1]!.refundSummary).toBeUndefined();

    // The refund dialog's refund lands in the cache (LiveCacheUpdates re-fetches the payment).
    await act(() => cache.store('P-A', [tx('297553638300700001', 1250)], '2026-11-22T11:05:00.000Z'));
    await waitFor(() =>
      expect(result.current[0]!.refundSummary).toEqual({
        refunded: 'partially_refunded',
        refundedMinor: 1250,
        remainingMinor: 3000,
        asOf: '2026-11-22T11:05:00.000Z',
      }),
    );
    expect(fake.calls.filter((c) => c.channel === 'transactions.refresh')).toEqual([]);
  });

  it('a paid payment the cache does not hold is fetched once through main, for its profile, into the cache', async () => {
    const fake = createFakeBridge({
      'transactions.refresh': (input) =>
        ok({
          profileId: input.profileId,
          fetchedAt: '2026-11-22T12:00:00.000Z',
          items: input.transactionNos.map((no) => ({
            transactionNo: no,
            ok: true as const,
            transaction: tx(no, 4250),
          })),
        }),
    });
    const { wrapper, cache } = harness(fake.bridge);
    const { result } = renderHook(() => usePaymentRows('P-A', [payment({})]), { wrapper });
    await waitFor(() =>
      expect(result.current[0]!.refundSummary).toMatchObject({ refunded: 'refunded', remainingMinor: 0 }),
    );
    expect(fake.calls.filter((c) => c.channel === 'transactions.refresh').map((c) => c.input)).toEqual([
      { profileId: 'P-A', transactionNos: ['297553638300700001'] },
    ]);
    // It is in Transactions' cache too.
    expect(await cache.freshOnes('P-A', ['297553638300700001'], Infinity)).toHaveLength(1);
  });
});
