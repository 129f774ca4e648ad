// @vitest-environment jsdom
import { act, cleanup, render, renderHook, screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it } from 'vitest';
import type { RefundDeskDb } from '../../../../renderer/src/db/schema';
import { ResetCache } from '../../../../renderer/src/features/settings/ResetCache';
import { useDeleteProfile } from '../../../../renderer/src/features/settings/mutations';
import { transactionKeys, useCachedRows } from '../../../../renderer/src/features/transactions/queries';
import { createFakeBridge, ok } from '../../../fakes/bridge';
import { makeTx } from '../db/helpers';
import { harness } from './harness';

afterEach(cleanup);

const rowsOf = (db: RefundDeskDb, profileId: string) =>
  db.transactions.where('profileId').equals(profileId).count();

describe('the local cache as a whole (component, typed fake bridge)', () => {
  it('deleting a profile deletes what this computer cached for it — rows, settings and its loaded list — and nothing of another profile', async () => {
    const fake = createFakeBridge({
      'profiles.delete': () => ok({ deleted: true as const }),
    });
    const { wrapper, client, cache, db } = harness(fake.bridge);
    await cache.store('P-B', [makeTx(), makeTx()], '2026-11-24T09:00:00.000Z');
    await cache.store('P-A', [makeTx()], '2026-11-24T09:00:00.000Z');
    await cache.saveSetting('P-B', 'transactions.view', { hiddenColumns: [] });
    await cache.saveSetting('P-A', 'transactions.view', { hiddenColumns: ['vendor'] });
    const list = renderHook(() => useCachedRows('P-B'), { wrapper });
    await waitFor(() => expect(list.result.current.data).toHaveLength(2));
    list.unmount();

    const del = renderHook(() => useDeleteProfile(), { wrapper });
    await act(() => del.result.current.mutateAsync('P-B'));

    expect(fake.calls.find((c) => c.channel === 'profiles.delete')?.input).toEqual({ id: 'P-B' });
    expect(await rowsOf(db, 'P-B')).toBe(0);
    expect(await db.refunds.where('profileId').equals('P-B').count()).toBe(0);
    expect(await cache.setting('P-B', 'transactions.view')).toBeUndefined();
    expect(client.getQueryData(transactionKeys.rows('P-B'))).toBeUndefined();
    expect(await rowsOf(db, 'P-A')).toBe(1);
    expect(await cache.setting('P-A', 'transactions.view')).toEqual({ hiddenColumns: ['vendor'] });
  });

  it('“Reset local cache” says the journal and audit are untouched, asks once more, deletes the cache of every profile and starts the app over', async () => {
    const fake = createFakeBridge({});
    const { wrapper, cache, db } = harness(fake.bridge);
    await cache.store('P-A', [makeTx(), makeTx()], '2026-11-24T09:00:00.000Z');
    await cache.store('P-B', [makeTx()], '2026-11-24T09:00:00.000Z');
    let reloaded = 0;
    render(<ResetCache reload={() => (reloaded += 1)} />, { wrapper });
    const section = screen.getByRole('region', { name: 'Reset local cache' });
    expect(section.textContent).toMatch(
      /refund journal and audit log are kept by the app itself and are not touched/,
    );

    await userEvent.click(screen.getByRole('button', { name: 'Reset local cache…' }));
    // One click is not enough: nothing is deleted yet.
    expect(await rowsOf(db, 'P-A')).toBe(2);
    await userEvent.click(screen.getByRole('button', { name: 'Delete the local cache and reload' }));
    await waitFor(() => expect(reloaded).toBe(1));
    expect(await rowsOf(db, 'P-A')).toBe(0);
    expect(await rowsOf(db, 'P-B')).toBe(0);
    // Nothing of main's was asked for or touched.
    expect(fake.calls).toEqual([]);
  });
});
