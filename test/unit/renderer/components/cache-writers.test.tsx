// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { act, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { describe, expect, it } from 'vitest';
import { DbContext } from '../../../../renderer/src/db/context';
import { openDb, type RefundDeskDb } from '../../../../renderer/src/db/schema';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import {
  type Connectivity,
  ConnectivityContext,
} from '../../../../renderer/src/features/transactions/connectivity';
import { useStore, useTransactionJobs } from '../../../../renderer/src/features/transactions/mutations';
import {
  FIRST_PAGE_ROWS,
  transactionKeys,
  useCachedRows,
  useListRows,
} from '../../../../renderer/src/features/transactions/queries';
import type { Bridge, Output } from '../../../../shared/ipc/contract';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { freshIdb, makeTx } from '../db/helpers';

function setup(bridge: Bridge) {
  const { indexedDB, keyRange } = freshIdb();
  const db: RefundDeskDb = openDb('writers', indexedDB, keyRange);
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const connectivity: Connectivity = {
    state: 'online',
    report: () => {},
    recheck: () => {},
    isChecking: false,
  };
  const wrapper = ({ children }: { children: ReactNode }) => (
    <BridgeContext.Provider value={bridge}>
      <DbContext.Provider value={db}>
        <QueryClientProvider client={client}>
          <ConnectivityContext.Provider value={connectivity}>{children}</ConnectivityContext.Provider>
        </QueryClientProvider>
      </DbContext.Provider>
    </BridgeContext.Provider>
  );
  return { db, client, wrapper, repo: createTransactionsRepo(db) };
}

/** A promise the test settles when it wants (a reply still on its way). */
function deferred<T>() {
  let resolve!: (v: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

describe('writes into the cache', () => {
  it('a push while the rows query is absent never creates a partial list: the list opens with every cached row', async () => {
    const { bridge } = createFakeBridge({});
    const { wrapper, client, repo } = setup(bridge);
    await repo.bulkUpsert('p1', [makeTx(), makeTx(), makeTx()], '2025-01-02T00:00:00.000Z');
    const store = renderHook(() => useStore('p1'), { wrapper });
    await act(() => store.result.current([makeTx()], '2025-01-03T00:00:00.000Z'));
    expect(client.getQueryData(transactionKeys.rows('p1'))).toBeUndefined();
    const rows = renderHook(() => useCachedRows('p1'), { wrapper });
    await waitFor(() => expect(rows.result.current.data).toHaveLength(4));
  });

  it('the list opens with its newest screen, says it is not complete, and is never complete with fewer rows than cached', async () => {
    const { bridge } = createFakeBridge({});
    const { wrapper, repo } = setup(bridge);
    const txs = Array.from({ length: FIRST_PAGE_ROWS + 40 }, () => makeTx());
    await repo.bulkUpsert('p1', txs, '2025-01-02T00:00:00.000Z');
    const seen: Array<{ rows: number; complete: boolean; newest?: string }> = [];
    renderHook(
      () => {
        const r = useListRows('p1');
        if (r.rows) seen.push({ rows: r.rows.length, complete: r.complete, newest: r.rows[0]?.createdAt });
        return r;
      },
      { wrapper },
    );
    await waitFor(() => expect(seen.at(-1)).toMatchObject({ rows: txs.length, complete: true }));
    const first = seen[0];
    // The first screen came first, alone: the newest rows by creation time, newest first.
    expect(first).toEqual({
      rows: FIRST_PAGE_ROWS,
      complete: false,
      newest: txs
        .map((t) => t.createdAt ?? '')
        .sort()
        .at(-1),
    });
    expect(seen.filter((s) => s.complete && s.rows !== txs.length)).toEqual([]);
  });

  it('a bulk refresh stops when its screen unmounts (a profile switch): the reply on its way is not written, no further chunk is asked', async () => {
    const pending: ReturnType<typeof deferred<Output<'transactions.refresh'>>>[] = [];
    const fake = createFakeBridge({
      'transactions.refresh': () => {
        const d = deferred<Output<'transactions.refresh'>>();
        pending.push(d);
        return d.promise.then(ok);
      },
    });
    const { wrapper, repo } = setup(fake.bridge);
    const ids = Array.from({ length: 45 }, (_, i) =>
      makeTx({ transactionNo: `30000000000000${String(i).padStart(4, '0')}` }),
    );
    const jobs = renderHook(() => useTransactionJobs('p1'), { wrapper });
    let done: Promise<void> | undefined;
    act(() => {
      done = jobs.result.current.refresh(ids.map((t) => t.transactionNo));
    });
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(fake.calls[0]?.input).toMatchObject({ profileId: 'p1' });
    jobs.unmount();
    pending[0]!.resolve({
      profileId: 'p1',
      fetchedAt: '2025-01-03T00:00:00.000Z',
      items: ids
        .slice(0, 20)
        .map((t) => ({ transactionNo: t.transactionNo, ok: true as const, transaction: t })),
    });
    await done;
    expect(await repo.count('p1')).toBe(0);
    expect(fake.calls.filter((c) => c.channel === 'transactions.refresh')).toHaveLength(1);
  });

  it('a reply that names another profile than the one asked for is not written', async () => {
    const tx = makeTx();
    const fake = createFakeBridge({
      'transactions.refresh': () =>
        ok({
          profileId: 'p2',
          fetchedAt: '2025-01-03T00:00:00.000Z',
          items: [{ transactionNo: tx.transactionNo, ok: true as const, transaction: tx }],
        }),
    });
    const { wrapper, repo } = setup(fake.bridge);
    const jobs = renderHook(() => useTransactionJobs('p1'), { wrapper });
    await act(() => jobs.result.current.refresh([tx.transactionNo]));
    expect(await repo.count('p1')).toBe(0);
    expect(await repo.count('p2')).toBe(0);
    expect(jobs.result.current.job).toMatchObject({ status: 'stopped' });
  });
});
