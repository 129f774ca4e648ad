// @vitest-environment jsdom
import { act, cleanup, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it } from 'vitest';
import { useViewState } from '../../../../renderer/src/features/transactions/use-view-state';
import { VIEW_STATE_KEY } from '../../../../renderer/src/features/transactions/view-state';
import { createFakeBridge } from '../../../fakes/bridge';
import { harness } from './harness';

afterEach(cleanup);

/** A column dragged, then the page closes (or the list goes) before the save delay has passed. */
async function dragThen(leave: (unmount: () => void) => void, name: string) {
  const { wrapper, cache } = harness(createFakeBridge({}).bridge, name);
  const { result, unmount } = renderHook(() => useViewState('P-A'), { wrapper });
  await waitFor(() => expect(result.current.isLoaded).toBe(true));
  act(() => result.current.update((v) => ({ ...v, columnWidths: { amount: 222 } })));
  // Right after: the page's scripts stop (or the list is gone), so a save still waiting never runs.
  leave(unmount);
  await waitFor(async () => expect(await cache.setting('P-A', VIEW_STATE_KEY)).toBeTruthy());
  expect(await cache.setting('P-A', VIEW_STATE_KEY)).toMatchObject({ columnWidths: { amount: 222 } });
}

describe('the list’s remembered view is not lost when the page closes right after a change', () => {
  it('a column width dragged just before the page goes away is written at once', async () => {
    await dragThen((unmount) => {
      window.dispatchEvent(new Event('pagehide'));
      unmount();
    }, 'flush-pagehide');
  });
  it('and when the list closes (a profile switch) before the delay', async () => {
    await dragThen((unmount) => unmount(), 'flush-unmount');
  });
});
