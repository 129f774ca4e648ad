import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { createLearnedLimitsFile } from '../../../electron/core/adapters/learned-limits-file';
import {
  type AdaptiveLimiter,
  createLimiters,
  learnedInMemory,
  type Slot,
} from '../../../electron/core/services/gateway/adaptive-limit';

/** A clock that moves only when the test says so. */
function fakeClock() {
  let now = Date.UTC(2026, 10, 24, 10);
  return { clock: { now: () => now }, advance: (ms: number) => void (now += ms) };
}

/** Fills the limit, lets `ms` pass, and answers every query in that time. */
async function answeredRound(l: AdaptiveLimiter, time: ReturnType<typeof fakeClock>, ms = 100) {
  const slots = (await Promise.all(Array.from({ length: l.state().limit }, () => l.acquire()))) as Slot[];
  time.advance(ms);
  for (const s of slots) {
    s.report({ outcome: 'answered', ms });
    s.release();
  }
}

/** One query that shows overload (a 5xx), started now. */
async function overloaded(l: AdaptiveLimiter, time: ReturnType<typeof fakeClock>) {
  const s = (await l.acquire())!;
  time.advance(50);
  s.report({ outcome: 'overloaded', ms: 50 });
  s.release();
}

const dataDir = () => mkdtempSync(join(tmpdir(), 'rd-learned-'));

describe('limiters start from what they last learned for the connection', () => {
  it('a connection with nothing learned starts at 8; one with a learned limit starts there, within [1, 32]', () => {
    const { clock } = fakeClock();
    const learned = learnedInMemory();
    learned.set('P-fast', 24);
    learned.set('P-huge', 500);
    learned.set('P-zero', 0);
    const limiterFor = createLimiters(clock, learned);
    expect(limiterFor('P-new').state().limit).toBe(8);
    expect(limiterFor('P-fast').state().limit).toBe(24);
    expect(limiterFor('P-huge').state().limit).toBe(32);
    expect(limiterFor('P-zero').state().limit).toBe(1);
    // One limiter per connection for the process: asked again, the same one.
    expect(limiterFor('P-fast')).toBe(limiterFor('P-fast'));
  });

  it('every growth and every cut is learned, per connection', async () => {
    const time = fakeClock();
    const learned = learnedInMemory();
    const limiterFor = createLimiters(time.clock, learned);
    const a = limiterFor('P-A');
    for (let i = 0; i < 4; i += 1) await answeredRound(a, time);
    expect(a.state().limit).toBe(12);
    expect(learned.get('P-A')).toBe(12);
    await overloaded(a, time);
    expect(a.state().limit).toBe(6);
    expect(learned.get('P-A')).toBe(6);
    expect(learned.get('P-B')).toBeUndefined();
  });

  it('what one process learned, the next starts from (a file in the data directory)', async () => {
    const dir = dataDir();
    const file = join(dir, 'learned-limits.json');
    const time = fakeClock();
    const first = createLimiters(time.clock, createLearnedLimitsFile(file, time.clock));
    const a = first('P-A');
    for (let i = 0; i < 10; i += 1) await answeredRound(a, time);
    expect(a.state().limit).toBe(18);
    expect(JSON.parse(readFileSync(file, 'utf8'))).toEqual({
      'P-A': { limit: 18, at: new Date(time.clock.now()).toISOString() },
    });

    // A restart (or a CLI command): a new process reads the file.
    const next = createLimiters(time.clock, createLearnedLimitsFile(file, time.clock));
    expect(next('P-A').state().limit).toBe(18);
    expect(next('P-B').state().limit).toBe(8);
    // An overloaded service is started on from the limit it was cut to.
    await overloaded(next('P-A'), time);
    const third = createLimiters(time.clock, createLearnedLimitsFile(file, time.clock));
    expect(third('P-A').state().limit).toBe(9);
  });

  it('a damaged or strange file is as good as none, and the next change writes it whole again', async () => {
    const time = fakeClock();
    for (const text of [
      '{not json',
      '[]',
      'null',
      '{"P-A":{"limit":"32"},"P-B":{"limit":-3},"P-C":{"limit":2.5}}',
    ]) {
      const file = join(dataDir(), 'learned-limits.json');
      writeFileSync(file, text);
      const limiterFor = createLimiters(time.clock, createLearnedLimitsFile(file, time.clock));
      for (const key of ['P-A', 'P-B', 'P-C']) expect(limiterFor(key).state().limit, text).toBe(8);
      await answeredRound(limiterFor('P-A'), time);
      expect(JSON.parse(readFileSync(file, 'utf8'))['P-A'].limit, text).toBe(9);
    }
  });

  it('a file that cannot be written leaves the learning in memory for the process', async () => {
    const time = fakeClock();
    const file = join(dataDir(), 'missing-folder', 'learned-limits.json');
    const learned = createLearnedLimitsFile(file, time.clock);
    const limiterFor = createLimiters(time.clock, learned);
    await answeredRound(limiterFor('P-A'), time);
    expect(limiterFor('P-A').state().limit).toBe(9);
    expect(learned.get('P-A')).toBe(9);
  });
});
