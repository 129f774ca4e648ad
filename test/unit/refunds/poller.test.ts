import { describe, expect, it } from 'vitest';
import { createRefundPoller } from '../../../electron/core/services/refunds/poller';
import type { RefundService } from '../../../electron/core/services/refunds/service';
import { createFakeLogger } from '../../fakes/logger';

/** A manual timer: tests step time explicitly, so the backoff schedule is observable and deterministic. */
function manualTimers() {
  const pending: { fn: () => void; ms: number; cancelled: boolean }[] = [];
  return {
    pending,
    setTimer: (fn: () => void, ms: number) => {
      const t = { fn, ms, cancelled: false };
      pending.push(t);
      return { cancel: () => void (t.cancelled = true) };
    },
    /** Fires the next timer still armed; arming is async (it asks the store), so let it settle first. */
    async fireNext() {
      await new Promise((r) => setTimeout(r, 0));
      const t = pending.find((x) => !x.cancelled);
      if (!t) return undefined;
      t.cancelled = true;
      t.fn();
      await new Promise((r) => setTimeout(r, 0));
      return t.ms;
    },
  };
}

describe('refund poller', () => {
  it('polls with backoff while refunds are accepted, and stops when none are left', async () => {
    let accepted = 3;
    let tracks = 0;
    const service = {
      unfinished: async () => (accepted > 0 ? [{ state: 'accepted' }] : []),
      track: async () => {
        tracks += 1;
        accepted -= 1;
        return [];
      },
    } as unknown as RefundService;
    const timers = manualTimers();
    const poller = createRefundPoller(service, createFakeLogger(), {
      scheduleMs: [10, 20, 40],
      setTimer: timers.setTimer,
    });
    poller.kick();
    expect(await timers.fireNext()).toBe(10);
    expect(await timers.fireNext()).toBe(20);
    expect(await timers.fireNext()).toBe(40);
    expect(tracks).toBe(3);
    expect(await timers.fireNext()).toBeUndefined();
  });

  it('kick() restarts from the fastest step, and stop() cancels', async () => {
    const service = {
      unfinished: async () => [{ state: 'accepted' }],
      track: async () => [],
    } as unknown as RefundService;
    const timers = manualTimers();
    const poller = createRefundPoller(service, createFakeLogger(), {
      scheduleMs: [10, 20, 40],
      setTimer: timers.setTimer,
    });
    poller.kick();
    await timers.fireNext();
    poller.kick();
    expect(await timers.fireNext()).toBe(10);
    poller.stop();
    expect(await timers.fireNext()).toBeUndefined();
  });

  it('many kicks while a poll at the fastest step is due read the unfinished list once and do not push the poll back', async () => {
    let reads = 0;
    let tracks = 0;
    const service = {
      unfinished: async () => {
        reads += 1;
        return [{ state: 'accepted' }];
      },
      track: async () => {
        tracks += 1;
        return [];
      },
    } as unknown as RefundService;
    const timers = manualTimers();
    const poller = createRefundPoller(service, createFakeLogger(), {
      scheduleMs: [10, 20, 40],
      setTimer: timers.setTimer,
    });
    // A batch: one kick per row, some while the first arming still reads the list.
    poller.kick();
    poller.kick();
    await new Promise((r) => setTimeout(r, 0));
    for (let i = 0; i < 998; i += 1) poller.kick();
    await new Promise((r) => setTimeout(r, 0));
    expect(reads).toBe(1);
    expect(timers.pending.filter((t) => !t.cancelled).map((t) => t.ms)).toEqual([10]);
    // The poll comes at the fastest step; after it, a kick restarts the schedule again.
    expect(await timers.fireNext()).toBe(10);
    expect(tracks).toBe(1);
    poller.kick();
    expect(await timers.fireNext()).toBe(10);
    expect(tracks).toBe(2);
  });
});
