import type { Clock } from '../../electron/core/services/ports';

/** A clock tests move by hand. */
export function createFakeClock(
  start = Date.UTC(2026, 0, 15, 4, 0, 0),
): Clock & { advance(ms: number): void; set(ms: number): void } {
  let now = start;
  return {
    now: () => now,
    advance: (ms) => void (now += ms),
    set: (ms) => void (now = ms),
  };
}
