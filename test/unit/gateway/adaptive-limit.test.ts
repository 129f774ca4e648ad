import { describe, expect, it } from 'vitest';
import { AppError } from '../../../shared/domain/errors';
import {
  type AdaptiveLimiter,
  type AdaptiveLimitOptions,
  createAdaptiveLimiter,
  outcomeOf,
  type Slot,
} from '../../../electron/core/services/gateway/adaptive-limit';
import { queryMany } from '../../../electron/core/services/gateway/batch';
import type { CallOptions, QueryKey } from '../../../electron/core/services/gateway/client';

/** A clock and a sleep that only move when the test says so. */
function fakeTime() {
  let now = 0;
  const timers: Array<{ at: number; resolve: () => void }> = [];
  return {
    clock: { now: () => now },
    sleep: (ms: number) => new Promise<void>((resolve) => timers.push({ at: now + ms, resolve })),
    async advance(ms: number) {
      now += ms;
      for (const t of timers.filter((x) => x.at <= now)) {
        timers.splice(timers.indexOf(t), 1);
        t.resolve();
      }
      await flush();
    },
  };
}
const flush = () => new Promise<void>((r) => setImmediate(r));

function setup(extra: Partial<AdaptiveLimitOptions> = {}) {
  const time = fakeTime();
  const limiter = createAdaptiveLimiter({
    clock: time.clock,
    sleep: time.sleep,
    random: () => 0.5,
    ...extra,
  });
  return { time, limiter };
}

/** Fills the limit, lets `ms` pass, and answers every query in that time. */
async function answeredRound(l: AdaptiveLimiter, time: ReturnType<typeof fakeTime>, ms: number) {
  const slots = (await Promise.all(Array.from({ length: l.state().limit }, () => l.acquire()))) as Slot[];
  await time.advance(ms);
  for (const s of slots) {
    s.report({ outcome: 'answered', ms });
    s.release();
  }
}

/** Resolves to 'granted' or 'waiting' without waiting for a grant. */
async function status(p: Promise<Slot | null>): Promise<'granted' | 'cancelled' | 'waiting'> {
  const r = await Promise.race([p, flush().then(() => 'waiting' as const)]);
  return r === 'waiting' ? r : r === null ? 'cancelled' : 'granted';
}

describe('adaptive limiter', () => {
  it('starts at 8 and grows by one per round while the round trip holds, up to the cap', async () => {
    const { time, limiter } = setup();
    expect(limiter.state().limit).toBe(8);
    await answeredRound(limiter, time, 100);
    expect(limiter.state().limit).toBe(9);
    await answeredRound(limiter, time, 100);
    expect(limiter.state().limit).toBe(10);
    for (let i = 0; i < 40; i += 1) await answeredRound(limiter, time, 100);
    expect(limiter.state()).toMatchObject({ limit: 32, peak: 32, grows: 24, inFlight: 0 });
    // At the cap, a 33rd query waits for a free slot.
    const held = await Promise.all(Array.from({ length: 32 }, () => limiter.acquire()));
    const extra = limiter.acquire();
    expect(await status(extra)).toBe('waiting');
    held[0]!.release('answered');
    expect(await status(extra)).toBe('granted');
  });

  it('stops growing when the median round trip rises past 1.5× the best', async () => {
    const { time, limiter } = setup();
    await answeredRound(limiter, time, 100);
    await answeredRound(limiter, time, 100);
    expect(limiter.state().limit).toBe(10);
    for (let i = 0; i < 5; i += 1) await answeredRound(limiter, time, 200);
    expect(limiter.state().limit).toBe(10);
    // Back to the old latency: it grows again.
    for (let i = 0; i < 3; i += 1) await answeredRound(limiter, time, 100);
    expect(limiter.state().limit).toBeGreaterThan(10);
  });

  it('does not grow a limit the work never fills', async () => {
    const { time, limiter } = setup();
    for (let i = 0; i < 40; i += 1) {
      const a = (await limiter.acquire())!;
      const b = (await limiter.acquire())!;
      await time.advance(100);
      for (const s of [a, b]) {
        s.report({ outcome: 'answered', ms: 100 });
        s.release();
      }
    }
    expect(limiter.state().limit).toBe(8);
  });

  it('halves on a 5xx, once per episode: the queries already in flight do not cut again', async () => {
    const { time, limiter } = setup();
    const slots = (await Promise.all(Array.from({ length: 8 }, () => limiter.acquire()))) as Slot[];
    await time.advance(50);
    for (const s of slots) s.report({ outcome: 'overloaded', ms: 50 });
    expect(limiter.state()).toMatchObject({ limit: 4, cuts: 1, overloaded: 8 });
    for (const s of slots) s.release();
    expect(limiter.state().inFlight).toBe(0);
  });

  it('pauses new queries after a cut for a jittered delay that doubles per cut until an answer', async () => {
    const { time, limiter } = setup({ random: () => 0.5 });
    const first = (await limiter.acquire())!;
    await time.advance(10);
    first.report({ outcome: 'overloaded', ms: 10 });
    first.release();
    // First pause: half of 200 ms fixed, half jittered (0.5 → 50): 150 ms.
    expect(limiter.state().pausedUntil).toBe(10 + 150);
    const waiting = limiter.acquire();
    await time.advance(149);
    expect(await status(waiting)).toBe('waiting');
    await time.advance(1);
    const second = await waiting;
    expect(second).not.toBeNull();
    await time.advance(5);
    second!.report({ outcome: 'overloaded', ms: 5 });
    // Second cut in a row: 400 ms step → 200 + 0.5 × 200.
    expect(limiter.state()).toMatchObject({ limit: 2, cuts: 2, pausedUntil: 165 + 300 });
    second!.release();

    // The jitter comes from the random source: another draw, another pause.
    const other = setup({ random: () => 0 });
    const s = (await other.limiter.acquire())!;
    await other.time.advance(10);
    s.report({ outcome: 'overloaded', ms: 10 });
    expect(other.limiter.state().pausedUntil).toBe(10 + 100);
  });

  it('an answer ends the episode: the next cut pauses for the first step again', async () => {
    const { time, limiter } = setup();
    const a = (await limiter.acquire())!;
    await time.advance(10);
    a.report({ outcome: 'overloaded', ms: 10 });
    a.release();
    await time.advance(150);
    const b = (await limiter.acquire())!;
    await time.advance(10);
    b.report({ outcome: 'answered', ms: 10 });
    b.release();
    const c = (await limiter.acquire())!;
    await time.advance(10);
    c.report({ outcome: 'overloaded', ms: 10 });
    expect(limiter.state().pausedUntil).toBe(time.clock.now() + 150);
    c.release();
  });

  it('never goes below its floor however many cuts', async () => {
    const { time, limiter } = setup({ min: 2 });
    for (let i = 0; i < 10; i += 1) {
      const s = (await limiter.acquire())!;
      await time.advance(1);
      s.report({ outcome: 'overloaded', ms: 1 });
      s.release();
      await time.advance(10_000);
    }
    expect(limiter.state()).toMatchObject({ limit: 2, cuts: 10 });
  });

  it('a cancelled wait resolves null and never takes a slot', async () => {
    const { limiter } = setup({ initial: 1 });
    const held = (await limiter.acquire())!;
    const ctl = new AbortController();
    const waiting = limiter.acquire(ctl.signal);
    expect(await status(waiting)).toBe('waiting');
    ctl.abort();
    expect(await waiting).toBeNull();
    held.release('answered');
    expect(limiter.state().inFlight).toBe(0);
    expect(await limiter.acquire(ctl.signal)).toBeNull();
  });

  it('a fixed limiter neither grows, cuts nor pauses', async () => {
    const { time, limiter } = setup({ initial: 3, min: 3, max: 3, adaptive: false });
    for (let i = 0; i < 10; i += 1) await answeredRound(limiter, time, 100);
    const s = (await limiter.acquire())!;
    s.report({ outcome: 'overloaded', ms: 1 });
    s.release();
    expect(limiter.state()).toMatchObject({ limit: 3, cuts: 0, pausedUntil: 0 });
  });

  it('reads the outcome of a query that reported no attempts from its error', () => {
    expect(outcomeOf(undefined)).toBe('answered');
    expect(outcomeOf(new AppError('unavailable', 'HTTP 503'))).toBe('overloaded');
    expect(outcomeOf(new AppError('timeout', 'slow'))).toBe('overloaded');
    expect(outcomeOf(new AppError('not_found', 'none'))).toBe('answered');
    expect(outcomeOf(new AppError('cancelled', 'stop'))).toBe('other');
  });
});

describe('queryMany with the adaptive limiter', () => {
  it('cuts its concurrency when the service answers 5xx, and starts nothing while it pauses', async () => {
    const time = fakeTime();
    const limiter = createAdaptiveLimiter({ clock: time.clock, sleep: time.sleep, random: () => 0 });
    let startedWhilePaused = 0;
    const gateway = {
      async queryTransaction(key: QueryKey, o: CallOptions = {}) {
        if (limiter.state().pausedUntil !== 0) startedWhilePaused += 1;
        await flush();
        const no = 'transactionNo' in key ? key.transactionNo : '';
        // Every 10th key meets a 503, as the transport would report it, and fails after its retries.
        if (Number(no) % 10 === 0) {
          o.onAttempt?.({ outcome: 'overloaded', ms: 0 });
          throw new AppError('unavailable', 'HTTP 503');
        }
        o.onAttempt?.({ outcome: 'answered', ms: 0 });
        return { transaction: { transactionNo: no } } as never;
      },
    };
    const run = queryMany(
      gateway,
      Array.from({ length: 100 }, (_, i) => ({ transactionNo: String(i + 1) })),
      { limiter },
    );
    // Drive the pauses until the batch ends.
    let finished = false;
    void run.then(() => (finished = true));
    for (let i = 0; i < 500 && !finished; i += 1) await time.advance(100);
    const out = await run;
    expect(out.filter((o) => !o.ok)).toHaveLength(10);
    expect(limiter.state().cuts).toBeGreaterThan(0);
    expect(limiter.state().limit).toBeLessThan(8);
    expect(startedWhilePaused).toBe(0);
  });

  it('cancel still stops the queued queries of an adaptive batch', async () => {
    const ctl = new AbortController();
    let calls = 0;
    const gateway = {
      async queryTransaction(key: QueryKey) {
        calls += 1;
        if (calls === 3) ctl.abort();
        await flush();
        return { transaction: { transactionNo: 'transactionNo' in key ? key.transactionNo : '' } } as never;
      },
    };
    const out = await queryMany(
      gateway,
      Array.from({ length: 50 }, (_, i) => ({ transactionNo: String(i) })),
      { signal: ctl.signal },
    );
    // Nothing starts after the cancel; the three begun finish (this gateway ignores the signal).
    expect(calls).toBe(3);
    expect(out.filter((o) => o.ok)).toHaveLength(3);
    expect(out.filter((o) => !o.ok && o.error.code === 'cancelled')).toHaveLength(47);
  });
});
