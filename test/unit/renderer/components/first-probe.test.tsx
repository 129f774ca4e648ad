// @vitest-environment jsdom
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { cleanup, renderHook, waitFor } from '@testing-library/react';
import type { ReactNode } from 'react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { transactionKeys } from '../../../../renderer/src/features/transactions/queries';
import {
  FIRST_SCREEN_WAIT_MS,
  useConnectivityState,
} from '../../../../renderer/src/features/transactions/use-connectivity-state';
import { BridgeContext } from '../../../../renderer/src/lib/bridge';
import { createFakeBridge } from '../../../fakes/bridge';

/**
 * The first connectivity probe (profiles.testConnection, which makes the Demo sandbox generate its data)
 * waits for the list's first screen to be read from the cache: the page idles while IndexedDB opens and
 * answers, and a probe then took CPU from the first screen (issue 30).
 */
function setup() {
  const fake = createFakeBridge({});
  const client = new QueryClient({ defaultOptions: { queries: { retry: false } } });
  const wrapper = ({ children }: { children: ReactNode }) => (
    <BridgeContext.Provider value={fake.bridge}>
      <QueryClientProvider client={client}>{children}</QueryClientProvider>
    </BridgeContext.Provider>
  );
  renderHook(() => useConnectivityState('p1'), { wrapper });
  const probes = () => fake.calls.filter((c) => c.channel === 'profiles.testConnection');
  return { client, probes };
}

describe('the first connectivity probe', () => {
  afterEach(() => {
    cleanup();
    vi.useRealTimers();
  });

  it('is not sent while the first screen is being read, and is sent once it has been', async () => {
    const { client, probes } = setup();
    await new Promise((r) => setTimeout(r, 50));
    expect(probes()).toEqual([]);
    client.setQueryData(transactionKeys.firstPage('p1'), { rows: [], more: false });
    await waitFor(() => expect(probes()).toHaveLength(1));
    expect(probes()[0]!.input).toEqual({ id: 'p1' });
  });

  it('is sent at once when the first screen was read before the screen mounted', async () => {
    const fake = createFakeBridge({});
    const client = new QueryClient();
    client.setQueryData(transactionKeys.firstPage('p1'), { rows: [], more: false });
    renderHook(() => useConnectivityState('p1'), {
      wrapper: ({ children }: { children: ReactNode }) => (
        <BridgeContext.Provider value={fake.bridge}>
          <QueryClientProvider client={client}>{children}</QueryClientProvider>
        </BridgeContext.Provider>
      ),
    });
    await waitFor(() =>
      expect(fake.calls.filter((c) => c.channel === 'profiles.testConnection')).toHaveLength(1),
    );
  });

  it('is sent anyway when the cache never answers, after FIRST_SCREEN_WAIT_MS', async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    const { probes } = setup();
    await vi.advanceTimersByTimeAsync(FIRST_SCREEN_WAIT_MS - 10);
    expect(probes()).toEqual([]);
    await vi.advanceTimersByTimeAsync(20);
    expect(probes()).toHaveLength(1);
  });
});
