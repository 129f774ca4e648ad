// @vitest-environment jsdom
import { act, cleanup, render, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import type { RefundDeskDb } from '../../../../renderer/src/db/schema';
import { useReconRun } from '../../../../renderer/src/features/reconciliation/use-recon-run';
import { LiveCacheUpdates } from '../../../../renderer/src/features/transactions/LiveCacheUpdates';
import type { ListRow } from '../../../../renderer/src/db/list-row';
import { useStore, useTransactionJobs } from '../../../../renderer/src/features/transactions/mutations';
import {
  FIRST_PAGE_ROWS,
  transactionKeys,
  useCachedRows,
  useListRows,
} from '../../../../renderer/src/features/transactions/queries';
import type { Output } from '../../../../shared/ipc/contract';
import type { ReconItem } from '../../../../shared/recon/match';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { makeTx } from '../db/helpers';
import { deferred, harness, intent, twoProfiles } from './harness';

afterEach(cleanup);

const rowsOf = (db: RefundDeskDb, profileId: string) =>
  db.transactions.where('profileId').equals(profileId).count();

describe('writes into the cache', () => {
  it('a push while the rows query is absent never creates a partial list: the list opens with every cached row', async () => {
    const { bridge } = createFakeBridge({});
    const { wrapper, client, cache } = harness(bridge);
    await cache.store('p1', [makeTx(), makeTx(), makeTx()], '2025-01-02T00:00:00.000Z');
    const store = renderHook(() => useStore('p1'), { wrapper });
    await act(() => store.result.current([makeTx()], '2025-01-03T00:00:00.000Z'));
    expect(client.getQueryData(transactionKeys.rows('p1'))).toBeUndefined();
    const rows = renderHook(() => useCachedRows('p1'), { wrapper });
    await waitFor(() => expect(rows.result.current.data).toHaveLength(4));
  });

  it('a real refunds.updated push through LiveCacheUpdates while the list is not loaded stores the payment but creates no one-row list', async () => {
    const paid = makeTx({ transactionNo: '297553638300708562' });
    const fake = createFakeBridge({
      'profiles.list': () => ok(twoProfiles()),
      'transactions.refresh': (input) =>
        ok({
          profileId: input.profileId,
          fetchedAt: '2026-11-24T10:00:06.000Z',
          items: [{ transactionNo: paid.transactionNo, ok: true as const, transaction: paid }],
        }),
    });
    const { wrapper, client, cache, db } = harness(fake.bridge);
    await cache.store('P-A', [makeTx(), makeTx(), makeTx()], '2026-11-24T09:00:00.000Z');
    render(<LiveCacheUpdates />, { wrapper });
    // Listening starts once the active profile is known.
    await waitFor(() => expect(fake.calls.some((c) => c.channel === 'profiles.list')).toBe(true));
    await waitFor(() => {
      fake.emit('refunds.updated', intent({ transactionNo: paid.transactionNo }));
      expect(fake.calls.some((c) => c.channel === 'transactions.refresh')).toBe(true);
    });
    await waitFor(async () => expect(await rowsOf(db, 'P-A')).toBe(4));
    expect(fake.calls.find((c) => c.channel === 'transactions.refresh')?.input).toEqual({
      profileId: 'P-A',
      transactionNos: [paid.transactionNo],
    });
    expect(client.getQueryData(transactionKeys.rows('P-A'))).toBeUndefined();
    const rows = renderHook(() => useCachedRows('P-A'), { wrapper });
    await waitFor(() => expect(rows.result.current.data).toHaveLength(4));
  });

  it('the list opens with its newest screen, says it is not complete, and is never complete with fewer rows than cached', async () => {
    const { bridge } = createFakeBridge({});
    const { wrapper, cache } = harness(bridge);
    const txs = Array.from({ length: FIRST_PAGE_ROWS + 40 }, () => makeTx());
    await cache.store('p1', txs, '2025-01-02T00:00:00.000Z');
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
    const { wrapper, db } = harness(fake.bridge);
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
    expect(await rowsOf(db, 'p1')).toBe(0);
    expect(fake.calls.filter((c) => c.channel === 'transactions.refresh')).toHaveLength(1);
  });

  it('a sync by date stops when its screen unmounts (a profile switch): the window on its way is not written, no further window is asked', async () => {
    const pending: ReturnType<typeof deferred<Output<'transactions.sync'>>>[] = [];
    const fake = createFakeBridge({
      'transactions.sync': () => {
        const d = deferred<Output<'transactions.sync'>>();
        pending.push(d);
        return d.promise.then(ok);
      },
    });
    const { wrapper, db } = harness(fake.bridge);
    const jobs = renderHook(() => useTransactionJobs('p1'), { wrapper });
    // 31 days: three windows of at most 15 days.
    await act(async () => {
      expect(await jobs.result.current.sync('2025-01-01', '2025-01-31')).toBeUndefined();
    });
    await waitFor(() => expect(pending).toHaveLength(1));
    expect(fake.calls[0]?.input).toMatchObject({ profileId: 'p1', endDate: '20250131' });
    jobs.unmount();
    pending[0]!.resolve({
      supported: true,
      profileId: 'p1',
      fetchedAt: '2025-02-01T00:00:00.000Z',
      transactions: [makeTx(), makeTx()],
    });
    // Give the job every chance to write or to ask for the next window.
    await new Promise((r) => setTimeout(r, 50));
    expect(await rowsOf(db, 'p1')).toBe(0);
    expect(fake.calls.filter((c) => c.channel === 'transactions.sync')).toHaveLength(1);
  });

  it('Cancel during a sync stops the write of the window on its way after the chunk under way; that window counts as not done', async () => {
    const pending: ReturnType<typeof deferred<Output<'transactions.sync'>>>[] = [];
    const fake = createFakeBridge({
      'transactions.sync': () => {
        const d = deferred<Output<'transactions.sync'>>();
        pending.push(d);
        return d.promise.then(ok);
      },
    });
    const { wrapper, db } = harness(fake.bridge);
    const jobs = renderHook(() => useTransactionJobs('p1'), { wrapper });
    await act(async () => {
      expect(await jobs.result.current.sync('2025-01-01', '2025-01-31')).toBeUndefined();
    });
    await waitFor(() => expect(pending).toHaveLength(1));
    const many = Array.from({ length: 2_500 }, () => makeTx());
    act(() => {
      pending[0]!.resolve({
        supported: true,
        profileId: 'p1',
        fetchedAt: '2025-02-01T00:00:00.000Z',
        transactions: many,
      });
      jobs.result.current.cancel();
    });
    await waitFor(() => expect(jobs.result.current.job).toMatchObject({ status: 'cancelled' }));
    expect(jobs.result.current.job?.message).toMatch(/^Cancelled after 0 of 3\./);
    // Written in whole chunks, never all of the window; no further window was asked for.
    expect([0, 1_000, 2_000]).toContain(await rowsOf(db, 'p1'));
    expect(fake.calls.filter((c) => c.channel === 'transactions.sync')).toHaveLength(1);
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
    const { wrapper, db } = harness(fake.bridge);
    const jobs = renderHook(() => useTransactionJobs('p1'), { wrapper });
    await act(() => jobs.result.current.refresh([tx.transactionNo]));
    expect(await rowsOf(db, 'p1')).toBe(0);
    expect(await rowsOf(db, 'p2')).toBe(0);
    expect(jobs.result.current.job).toMatchObject({ status: 'stopped' });
  });

  it('a reconciliation run’s answers are in the loaded Transactions list as soon as its report is read, without re-reading the cache', async () => {
    const checked = makeTx();
    const run: Output<'reconciliation.get'> = {
      runId: 'R1',
      profileId: 'P-A',
      profileName: 'Shop A',
      label: 'ledger.csv',
      createdAt: '2026-11-24T10:00:00.000Z',
      options: { days: 'service', timeZone: 'Etc/GMT-8', dateToleranceDays: 0, refundLookbackDays: 0 },
      dataRows: 1,
      progress: { state: 'completed', phase: 'done', done: 1, total: 1, failed: 0 },
    };
    const item: ReconItem = {
      line: 2,
      outcome: 'matched',
      matchedBy: 'transactionNo',
      service: {
        transactionNo: checked.transactionNo,
        amountMinor: checked.amountMinor,
        currency: checked.currency,
        status: checked.status,
        refundedMinor: 0,
        source: 'lookup',
        fetchedAt: '2026-11-24T10:00:03.000Z',
      },
      transaction: checked,
      deltas: [],
      detail: 'Matches.',
    };
    const fake = createFakeBridge({
      'reconciliation.create': () => ok({ runId: 'R1' }),
      'reconciliation.get': () => ok(run),
      'reconciliation.start': () => ok(run),
      'reconciliation.report': () =>
        ok({
          run,
          // The screen shows these; the cache takes nothing from them.
          facts: {} as Output<'reconciliation.report'>['facts'],
          summary: {} as Output<'reconciliation.report'>['summary'],
          statement: [],
          items: 1,
        }),
      'reconciliation.items': () => ok({ items: [item], total: 1, nextOffset: null }),
    });
    const { wrapper, client, cache } = harness(fake.bridge);
    await cache.store('P-A', [makeTx(), makeTx()], '2026-11-24T09:00:00.000Z');
    // The Transactions area was open earlier: its list is loaded, then the person went to Reconciliation.
    const list = renderHook(() => useCachedRows('P-A'), { wrapper });
    await waitFor(() => expect(list.result.current.data).toHaveLength(2));
    list.unmount();

    const recon = renderHook(() => useReconRun('P-A'), { wrapper });
    await act(() =>
      recon.result.current.start({
        profileId: 'P-A',
        label: 'ledger.csv',
        file: {
          name: 'ledger.csv',
          encoding: 'utf-8',
          delimiter: ',',
          dataRows: 1,
          decimal: '.',
          decimalSource: 'default',
          dateOrder: 'ymd',
          dateOrderSource: 'default',
        },
        mapping: { transactionNo: 'Transaction' },
        options: run.options,
        rows: [],
        unusable: [],
      }),
    );
    await waitFor(() => expect(recon.result.current.report?.items).toHaveLength(1));
    await waitFor(() =>
      expect(
        client.getQueryData<ListRow[]>(transactionKeys.rows('P-A'))?.map((r) => r.transactionNo),
      ).toContain(checked.transactionNo),
    );
    const rows = client.getQueryData<ListRow[]>(transactionKeys.rows('P-A'))!;
    expect(rows).toHaveLength(3);
    expect(rows.find((r) => r.transactionNo === checked.transactionNo)?.fetchedAt).toBe(
      '2026-11-24T10:00:03.000Z',
    );
    // Merged, not marked for a whole re-read of the cache.
    expect(client.getQueryState(transactionKeys.rows('P-A'))?.isInvalidated).toBe(false);
  });
});
