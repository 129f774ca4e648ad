import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { isoInZone, wallClock } from '../../../shared/domain/zones';

// Named zones with daylight saving of one hour, of half an hour (Lord Howe), odd offsets (St John's,
// Chatham's +12:45) and none (Kolkata).
const ZONES = [
  'Europe/Berlin',
  'America/New_York',
  'Australia/Lord_Howe',
  'America/St_Johns',
  'Pacific/Chatham',
  'Asia/Kolkata',
];

/** The wall clock straight from Intl, field by field: what wallClock must always agree with. */
const formats = new Map<string, Intl.DateTimeFormat>();
function intlWallClock(ms: number, iana: string) {
  const f =
    formats.get(iana) ??
    new Intl.DateTimeFormat('en-US', {
      timeZone: iana,
      hourCycle: 'h23',
      year: 'numeric',
      month: 'numeric',
      day: 'numeric',
      hour: 'numeric',
      minute: 'numeric',
      second: 'numeric',
    });
  formats.set(iana, f);
  const p = Object.fromEntries(f.formatToParts(ms).map((x) => [x.type, Number(x.value)]));
  const asUtc = Date.UTC(p['year']!, p['month']! - 1, p['day'], p['hour'], p['minute'], p['second']);
  return {
    year: p['year'],
    month: p['month'],
    day: p['day'],
    hour: p['hour'],
    minute: p['minute'],
    second: p['second'],
    offsetMinutes: Math.round((asUtc - Math.floor(ms / 1000) * 1000) / 60_000),
  };
}

const HOUR = 3_600_000;
const from = Date.parse('2024-01-01T00:00:00Z');
const to = Date.parse('2026-01-01T00:00:00Z');

/** The instants where a zone's offset changes in [from, to), found minute by minute from Intl. */
function transitions(iana: string): number[] {
  const out: number[] = [];
  for (let h = from; h < to; h += HOUR) {
    if (intlWallClock(h, iana).offsetMinutes === intlWallClock(h + HOUR, iana).offsetMinutes) continue;
    for (let m = h; m <= h + HOUR; m += 60_000) {
      if (intlWallClock(m, iana).offsetMinutes !== intlWallClock(h, iana).offsetMinutes) {
        out.push(m);
        break;
      }
    }
  }
  return out;
}

describe('wall clocks in named zones', () => {
  it('agree with Intl at every daylight-saving change, to the millisecond either side', () => {
    for (const iana of ZONES) {
      const changes = transitions(iana);
      if (iana !== 'Asia/Kolkata') expect(changes.length, iana).toBeGreaterThanOrEqual(4);
      for (const t of changes) {
        // Later instants of the same hours first, so a cached hour is then read back for earlier ones.
        for (const d of [HOUR - 1, 1_800_000, 1000, 1, 0, -1, -1000, -1_800_000, -HOUR]) {
          expect(wallClock(t + d, iana), `${iana} ${new Date(t + d).toISOString()}`).toEqual(
            intlWallClock(t + d, iana),
          );
        }
      }
    }
  });

  it('agree with Intl at any instant, in any order', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: from - 400 * 86_400_000, max: to }),
        fc.constantFrom(...ZONES),
        (ms, iana) => {
          expect(wallClock(ms, iana)).toEqual(intlWallClock(ms, iana));
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('write ISO text with the offset of the instant, on both sides of a change', () => {
    expect(isoInZone('2025-03-30T00:59:59.999Z', 'Europe/Berlin')).toBe('2025-03-30T01:59:59+01:00');
    expect(isoInZone('2025-03-30T01:00:00.000Z', 'Europe/Berlin')).toBe('2025-03-30T03:00:00+02:00');
    expect(isoInZone('2025-04-05T14:59:59Z', 'Australia/Lord_Howe')).toBe('2025-04-06T01:59:59+11:00');
    expect(isoInZone('2025-04-05T15:00:00Z', 'Australia/Lord_Howe')).toBe('2025-04-06T01:30:00+10:30');
  });

  it('write exactly the wall clock and offset wallClock gives, at any instant JavaScript can hold', () => {
    // isoInZone takes a shortcut for the hours whose offset it knows (exports call it for every time
    // cell); its text must be the general one everywhere: years of any width, before 1970, fixed zones.
    const two = (n: number) => String(n).padStart(2, '0');
    const general = (ms: number, iana: string) => {
      const w = wallClock(ms, iana);
      const local = `${w.year}-${two(w.month)}-${two(w.day)}T${two(w.hour)}:${two(w.minute)}:${two(w.second)}`;
      if (w.offsetMinutes === 0 && (iana === 'UTC' || iana === 'Etc/UTC')) return `${local}Z`;
      const abs = Math.abs(w.offsetMinutes);
      return `${local}${w.offsetMinutes < 0 ? '-' : '+'}${two(Math.floor(abs / 60))}:${two(abs % 60)}`;
    };
    const MAX = 8.64e15;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ min: from - 400 * 86_400_000, max: to }),
          fc.integer({ min: -MAX, max: MAX }),
          fc.integer({ min: MAX - 2 * HOUR, max: MAX }),
          fc.integer({ min: -MAX, max: -MAX + 2 * HOUR }),
        ),
        fc.constantFrom(...ZONES, 'UTC', 'Etc/UTC', 'Etc/GMT-8', 'Africa/Monrovia'),
        (ms, iana) => {
          expect(isoInZone(new Date(ms).toISOString(), iana)).toBe(general(ms, iana));
        },
      ),
      { numRuns: 3000 },
    );
  });
});
