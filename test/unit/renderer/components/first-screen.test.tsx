// @vitest-environment jsdom
import { renderHook, waitFor } from '@testing-library/react';
import type { QueryClient } from '@tanstack/react-query';
import { describe, expect, it } from 'vitest';
import {
  FIRST_PAGE_ROWS,
  transactionKeys,
  useListRows,
} from '../../../../renderer/src/features/transactions/queries';
import { createFakeBridge } from '../../../fakes/bridge';
import { makeTx } from '../db/helpers';
import { harness } from './harness';

const AT = '2025-01-02T00:00:00.000Z';

/** Starts the whole-cache read of the profile and never lets it end: the list has only its first screen. */
const holdWholeRead = (client: QueryClient, profileId: string) =>
  void client.fetchQuery({
    queryKey: transactionKeys.rows(profileId),
    queryFn: () => new Promise<never>(() => {}),
  });

describe("the list's first screen", () => {
  it('of an empty cache is the whole list: complete (the empty state) without the whole-cache read', async () => {
    const { client, wrapper } = harness(createFakeBridge({}).bridge, 'first-empty');
    holdWholeRead(client, 'p1');
    const { result } = renderHook(() => useListRows('p1'), { wrapper });
    await waitFor(() => expect(result.current.complete).toBe(true));
    expect(result.current.rows).toEqual([]);
    expect(client.getQueryState(transactionKeys.rows('p1'))?.status).toBe('pending');
  });

  it('holding every row of a small cache is the whole list, newest first', async () => {
    const { client, wrapper, cache } = harness(createFakeBridge({}).bridge, 'first-small');
    const txs = [makeTx(), makeTx(), makeTx()];
    await cache.store('p1', txs, AT);
    await cache.store('p2', [makeTx()], AT);
    holdWholeRead(client, 'p1');
    const { result } = renderHook(() => useListRows('p1'), { wrapper });
    await waitFor(() => expect(result.current.complete).toBe(true));
    expect(result.current.rows?.map((r) => r.transactionNo)).toEqual(
      txs.map((t) => t.transactionNo).reverse(),
    );
  });

  it('is not the whole list when a row has no creation time (it is not in the index the screen reads)', async () => {
    const { client, wrapper, cache } = harness(createFakeBridge({}).bridge, 'first-undated');
    await cache.store('p1', [makeTx(), makeTx({ createdAt: undefined }), makeTx()], AT);
    holdWholeRead(client, 'p1');
    const { result } = renderHook(() => useListRows('p1'), { wrapper });
    await waitFor(() => expect(result.current.rows).toHaveLength(2));
    expect(result.current.complete).toBe(false);
  });

  it('is not the whole list when the cache holds more than a screen', async () => {
    const { client, wrapper, cache } = harness(createFakeBridge({}).bridge, 'first-more');
    await cache.store(
      'p1',
      Array.from({ length: FIRST_PAGE_ROWS + 1 }, () => makeTx()),
      AT,
    );
    holdWholeRead(client, 'p1');
    const { result } = renderHook(() => useListRows('p1'), { wrapper });
    await waitFor(() => expect(result.current.rows).toHaveLength(FIRST_PAGE_ROWS));
    expect(result.current.complete).toBe(false);
  });
});
