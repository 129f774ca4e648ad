import { describe, expect, it } from 'vitest';
import { jobEta } from '../../../../renderer/src/features/transactions/job-eta';

const running = (done: number, total: number) => ({ status: 'running' as const, done, total, startedAt: 0 });

describe('the time left of a long job', () => {
  it('is its pace so far times what is left, in the largest unit that reads well', () => {
    // 100 of 1,000 in 10 s: 90 s to go.
    expect(jobEta(running(100, 1_000), 10_000)).toBe('about 2 min left');
    // 50 of 60 in 25 s: 5 s to go.
    expect(jobEta(running(50, 60), 25_000)).toBe('about 5 s left');
    // 1 of 200 in 30 s: 99.5 min to go.
    expect(jobEta(running(1, 200), 30_000)).toBe('about 1 h 40 min left');
    // Almost done never reads as zero.
    expect(jobEta(running(999, 1_000), 10_000)).toBe('about 1 s left');
  });

  it('promises nothing before the first item, within the first second, or once the job is over', () => {
    expect(jobEta(running(0, 100), 60_000)).toBeUndefined();
    expect(jobEta(running(10, 100), 900)).toBeUndefined();
    expect(jobEta(running(100, 100), 60_000)).toBeUndefined();
    expect(jobEta({ ...running(10, 100), status: 'cancelled' }, 60_000)).toBeUndefined();
  });
});
