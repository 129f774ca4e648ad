// @vitest-environment jsdom
import { useQuery } from '@tanstack/react-query';
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { teamStatusQuery } from '../../../../renderer/src/features/shell/team';
import { warmStart } from '../../../../renderer/src/app/warm-start';
import { createTransactionsRepo } from '../../../../renderer/src/db/transactions-repo';
import { transactionKeys } from '../../../../renderer/src/db/owner';
import { profileKeys, useActiveProfile } from '../../../../renderer/src/features/profiles/queries';
import { appHealthQuery, appInfoQuery } from '../../../../renderer/src/features/shell/queries';
import { refundsListQuery } from '../../../../renderer/src/features/refunds/queries';
import { useViewState } from '../../../../renderer/src/features/transactions/use-view-state';
import { VIEW_STATE_KEY } from '../../../../renderer/src/features/transactions/view-state';
import { createFakeBridge } from '../../../fakes/bridge';
import { makeTx } from '../db/helpers';
import { harness, twoProfiles } from './harness';

afterEach(cleanup);

const FETCHED = '2026-11-24T10:00:00.000Z';

async function seeded(name: string) {
  const fake = createFakeBridge({ 'profiles.list': async () => ({ ok: true, value: twoProfiles() }) });
  const h = harness(fake.bridge, name);
  await createTransactionsRepo(h.db).bulkUpsert('P-A', [makeTx(), makeTx(), makeTx()], FETCHED);
  await createTransactionsRepo(h.db).bulkUpsert('P-B', [makeTx()], FETCHED);
  await h.cache.saveSetting('P-A', VIEW_STATE_KEY, { sorting: [{ id: 'amount', desc: true }] });
  h.client.clear();
  return { fake, ...h };
}

describe('warm start: the landing list is read while the app loads', () => {
  it("reads the active profile's view, data age, first screen, summary and then every row, in that order", async () => {
    const { fake, client, cache } = await seeded('warm-order');
    await warmStart(fake.bridge, client, cache);
    await waitFor(() => expect(client.getQueryData(transactionKeys.rows('P-A'))).toHaveLength(3));
    // The query cache keeps queries in the order they were asked: the big read goes last, so IndexedDB
    // (which answers in order) never makes the small reads wait behind it.
    const asked = client
      .getQueryCache()
      .getAll()
      .map((q) => (q.queryKey[0] === 'transactions' ? q.queryKey.slice(2) : q.queryKey).join(':'));
    // First what main's bootstrap brought (one round), then the cache's reads.
    expect(asked).toEqual([
      'profiles:list',
      'app:info',
      // The desk's team state (the header's who-am-I, the read-only banner).
      'team:status',
      // Health as main's bootstrap asks it (no profile): what the header asks before it knows the profile.
      'app:health:',
      // The active profile's health, under the key the header's indicator asks with for it.
      'app:health:P-A',
      // The active profile's refund intents (the landing list marks unknown refund outcomes).
      'refunds:list:P-A',
      `setting:${VIEW_STATE_KEY}`,
      'newest-fetch',
      'first-page',
      // The whole cache's count and sums (list-summary.ts): one small record, before the big read.
      'summary',
      'rows',
    ]);
    expect(client.getQueryData(profileKeys.list)).toEqual(twoProfiles());
    expect(client.getQueryData(transactionKeys.setting('P-A', VIEW_STATE_KEY))).toEqual({
      sorting: [{ id: 'amount', desc: true }],
    });
    // Only the active profile is read.
    expect(client.getQueryData(transactionKeys.rows('P-B'))).toBeUndefined();
  });

  it('reads nothing from a cache the open check refuses, and nothing without an active profile', async () => {
    const refused = await seeded('warm-refused');
    await warmStart(refused.fake.bridge, refused.client, {
      ...refused.cache,
      open: async () => 'written by a newer version',
    });
    expect(refused.client.getQueryData(transactionKeys.rows('P-A'))).toBeUndefined();

    const none = await seeded('warm-none');
    const bridge = createFakeBridge({
      'profiles.list': async () => ({ ok: true, value: { ...twoProfiles(), activeProfileId: null } }),
    }).bridge;
    await warmStart(bridge, none.client, none.cache);
    expect(
      none.client
        .getQueryCache()
        .getAll()
        .map((q) => q.queryKey[0]),
    ).toEqual(['profiles', 'app', 'team', 'app']);
  });

  it('a failing main process is left for the screens: warm start settles without throwing', async () => {
    const h = await seeded('warm-failing');
    const failing = createFakeBridge({}).bridge; // every channel answers with an error envelope
    await expect(warmStart(failing, h.client, h.cache)).resolves.toBeUndefined();
    expect(h.client.getQueryData(transactionKeys.rows('P-A'))).toBeUndefined();
  });
});

describe('start-up: one round to main', () => {
  it('warm start asks main once (app.bootstrap); the shell and the landing list mounting after it ask nothing more', async () => {
    const { fake, client, cache, wrapper } = await seeded('one-round');
    await warmStart(fake.bridge, client, cache);
    await waitFor(() => expect(client.getQueryData(transactionKeys.rows('P-A'))).toHaveLength(3));
    // What the shell reads as it mounts: the active profile, the app's facts, its health, the team state.
    const { result } = renderHook(
      () => {
        const bridge = fake.bridge;
        return [
          useActiveProfile(),
          useQuery(appInfoQuery(bridge)),
          // The header's indicator asks for the active profile's health.
          useQuery(appHealthQuery(bridge, 'P-A')),
          // The header's who-am-I and the read-only banner (a single desk here).
          useQuery(teamStatusQuery(bridge)),
          // The landing list's refund intents (a refund with an unknown outcome marks its payment).
          useQuery(refundsListQuery(bridge, { profileId: 'P-A' })),
        ] as const;
      },
      { wrapper },
    );
    expect(result.current[0].profile?.id).toBe('P-A');
    expect(result.current[1].data?.name).toBe('Refund Desk');
    expect(result.current[2].data?.status).toBe('ok');
    expect(result.current[3].data).toEqual({ mode: 'single' });
    expect(result.current[4].data).toEqual([]);
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(fake.calls.map((c) => c.channel)).toEqual(['app.bootstrap']);
  });

  it('a shell that mounts while app.bootstrap is still on its way waits for it: no second round', async () => {
    const { client, cache, wrapper } = await seeded('one-round-early');
    // Main answers the bootstrap only when the test says (a fresh data directory still migrating).
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((r) => (answer = r));
    const fake = createFakeBridge({
      'profiles.list': async () => ({ ok: true, value: twoProfiles() }),
    });
    const bootstrap = fake.bridge['app.bootstrap'];
    const bridge = {
      ...fake.bridge,
      'app.bootstrap': async () => {
        const reply = bootstrap();
        await answered;
        return reply;
      },
    } as typeof fake.bridge;
    const started = warmStart(bridge, client, cache);
    // The shell as it mounts before main has answered: it knows no profile yet.
    const { result } = renderHook(
      () =>
        [
          useActiveProfile(),
          useQuery(appInfoQuery(bridge)),
          useQuery(appHealthQuery(bridge, undefined)),
          useQuery(teamStatusQuery(bridge)),
        ] as const,
      { wrapper },
    );
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(result.current[0].isPending).toBe(true);
    answer();
    await started;
    await waitFor(() => expect(result.current[0].profile?.id).toBe('P-A'));
    expect(result.current[1].data?.name).toBe('Refund Desk');
    expect(result.current[2].data?.status).toBe('ok');
    expect(result.current[3].data).toEqual({ mode: 'single' });
    await act(() => new Promise((r) => setTimeout(r, 50)));
    expect(fake.calls.map((c) => c.channel)).toEqual(['app.bootstrap']);
  });

  it('should app.bootstrap fail, the shell that waited on it asks its own calls', async () => {
    const { client, cache, wrapper } = await seeded('one-round-failed');
    const fake = createFakeBridge({
      'profiles.list': async () => ({ ok: true, value: twoProfiles() }),
      'app.bootstrap': async () => ({
        ok: false,
        error: { code: 'internal', message: 'no', retryable: false, correlationId: 'c' },
      }),
    });
    const started = warmStart(fake.bridge, client, cache);
    const { result } = renderHook(() => useActiveProfile(), { wrapper });
    await started;
    await waitFor(() => expect(result.current.profile?.id).toBe('P-A'));
    expect(fake.calls.map((c) => c.channel)).toEqual(
      expect.arrayContaining(['app.bootstrap', 'profiles.list', 'app.info', 'team.status', 'app.health']),
    );
  });
});

describe("the list's view", () => {
  it('is the stored one from the first render when it was read ahead', async () => {
    const { fake, client, cache, wrapper } = await seeded('view-ahead');
    await warmStart(fake.bridge, client, cache);
    await waitFor(() => expect(client.getQueryData(transactionKeys.rows('P-A'))).toBeDefined());
    const { result } = renderHook(() => useViewState('P-A'), { wrapper });
    expect(result.current.isLoaded).toBe(true);
    expect(result.current.view.sorting).toEqual([{ id: 'amount', desc: true }]);
  });

  it('a change made before the stored view arrives wins over it, and is saved', async () => {
    const { wrapper, cache } = await seeded('view-race');
    const { result } = renderHook(() => useViewState('P-A'), { wrapper });
    expect(result.current.isLoaded).toBe(false);
    act(() => result.current.update((v) => ({ ...v, filter: { ...v.filter, text: 'ABC' } })));
    await waitFor(() => expect(result.current.isLoaded).toBe(true));
    expect(result.current.view.filter.text).toBe('ABC');
    await waitFor(async () =>
      expect(await cache.setting('P-A', VIEW_STATE_KEY)).toMatchObject({ filter: { text: 'ABC' } }),
    );
  });
});
