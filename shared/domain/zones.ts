/**
 * The time zones a person can read times in: their computer's own, UTC, or the payment service's
 * UTC+8. Instants are stored as UTC ISO strings; these helpers only render them, in the screens and
 * in exports, always naming the zone. Pure: Intl for named zones, arithmetic for fixed offsets.
 */

export const ZONE_CHOICES = ['local', 'utc', 'service'] as const;
export type ZoneChoice = (typeof ZONE_CHOICES)[number];

/** A zone ready to format with: its IANA name and the short name headers and notes show. */
export interface Zone {
  choice: ZoneChoice;
  /** IANA name Intl understands ('UTC', 'Etc/GMT-8', 'Europe/Berlin'). */
  iana: string;
  /** What headers say: "UTC", "UTC+8", "Europe/Berlin". */
  label: string;
}

/** The service's zone. Etc/GMT-8 is POSIX-inverted: it means UTC+8, with no daylight saving. */
export const SERVICE_ZONE: Zone = { choice: 'service', iana: 'Etc/GMT-8', label: 'UTC+8' };
export const UTC_ZONE: Zone = { choice: 'utc', iana: 'UTC', label: 'UTC' };

/** The computer's own zone name ('UTC' where the runtime cannot tell). */
export function systemZoneName(): string {
  return Intl.DateTimeFormat().resolvedOptions().timeZone || 'UTC';
}

/** Resolves a choice to a zone. `local` reads the computer's zone unless one is given (tests). */
export function zoneFor(choice: ZoneChoice, localIana: string = systemZoneName()): Zone {
  if (choice === 'utc') return UTC_ZONE;
  if (choice === 'service') return SERVICE_ZONE;
  return { choice, iana: localIana, label: localIana };
}

/** Wall-clock fields of an instant in a zone, plus that zone's offset from UTC at that instant. */
export interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  second: number;
  offsetMinutes: number;
}

const FIXED: Readonly<Record<string, number>> = { UTC: 0, 'Etc/UTC': 0, 'Etc/GMT-8': 480 };

/** The offset of a zone that has one all year (UTC, the service's UTC+8), else undefined. */
export function fixedOffsetMinutes(iana: string): number | undefined {
  return FIXED[iana];
}

const partsFormats = new Map<string, Intl.DateTimeFormat>();

function partsFormat(iana: string): Intl.DateTimeFormat {
  let f = partsFormats.get(iana);
  if (!f) {
    f = new Intl.DateTimeFormat('en-US', {
      timeZone: iana,
      hourCycle: 'h23',
      year: 'numeric',
      month: '2-digit',
      day: '2-digit',
      hour: '2-digit',
      minute: '2-digit',
      second: '2-digit',
    });
    partsFormats.set(iana, f);
  }
  return f;
}

/** Wall clock of `ms` through Intl, with the zone's offset (to the second) at that instant. */
function wallClockIntl(ms: number, iana: string): Omit<WallClock, 'offsetMinutes'> & { offsetMs: number } {
  const p: Record<string, number> = {};
  for (const part of partsFormat(iana).formatToParts(ms))
    if (part.type !== 'literal') p[part.type] = Number(part.value);
  const w = {
    year: p['year'] ?? 1970,
    month: p['month'] ?? 1,
    day: p['day'] ?? 1,
    hour: p['hour'] ?? 0,
    minute: p['minute'] ?? 0,
    second: p['second'] ?? 0,
  };
  const asUtc = Date.UTC(w.year, w.month - 1, w.day, w.hour, w.minute, w.second);
  return { ...w, offsetMs: asUtc - Math.floor(ms / 1000) * 1000 };
}

const HOUR = 3_600_000;
const MAX_TIME = 8.64e15;
/** Per named zone: hour number → the zone's offset (ms) throughout that hour. */
const hourOffsets = new Map<string, Map<number, number>>();
const MAX_CACHED_HOURS = 200_000;

/**
 * The zone's offset (ms) throughout the hour holding `ms`, or undefined when it changes within that
 * hour. Intl's formatToParts costs microseconds, and an export or a list formats 100k instants of
 * the same few hundred hours: the offset is read at both ends of the hour once and reused — equal
 * ends mean no transition in between (zones never change twice within an hour).
 */
function hourOffset(ms: number, iana: string): number | undefined {
  const hour = Math.floor(ms / HOUR);
  let byHour = hourOffsets.get(iana);
  if (!byHour) hourOffsets.set(iana, (byHour = new Map()));
  let offset = byHour.get(hour);
  if (offset === undefined) {
    const start = wallClockIntl(hour * HOUR, iana).offsetMs;
    offset = start === wallClockIntl(hour * HOUR + HOUR - 1, iana).offsetMs ? start : NaN;
    if (byHour.size >= MAX_CACHED_HOURS) byHour.clear();
    byHour.set(hour, offset);
  }
  return Number.isNaN(offset) ? undefined : offset;
}

/** Wall-clock fields of `ms` shifted by a fixed offset. */
function shifted(ms: number, offsetMs: number): Omit<WallClock, 'offsetMinutes'> {
  const d = new Date(ms + offsetMs);
  return {
    year: d.getUTCFullYear(),
    month: d.getUTCMonth() + 1,
    day: d.getUTCDate(),
    hour: d.getUTCHours(),
    minute: d.getUTCMinutes(),
    second: d.getUTCSeconds(),
  };
}

/** Wall clock of `ms` (epoch milliseconds) in `iana`. */
export function wallClock(ms: number, iana: string): WallClock {
  const fixed = FIXED[iana];
  if (fixed !== undefined) return { ...shifted(ms, fixed * 60_000), offsetMinutes: fixed };
  // Within an hour of the end of JavaScript time the hour's far end is not a date: read it directly.
  const offsetMs = Math.abs(ms) < MAX_TIME - HOUR ? hourOffset(ms, iana) : undefined;
  const exact = offsetMs === undefined ? wallClockIntl(ms, iana) : undefined;
  const w = exact ?? shifted(ms, offsetMs ?? 0);
  const offset = exact?.offsetMs ?? offsetMs ?? 0;
  return {
    year: w.year,
    month: w.month,
    day: w.day,
    hour: w.hour,
    minute: w.minute,
    second: w.second,
    offsetMinutes: Math.round(offset / 60_000),
  };
}

const pad = (n: number, w = 2) => String(n).padStart(w, '0');

/** "UTC", "UTC+8", "UTC−3:30" (a real minus sign, as people write it). */
export function offsetLabel(minutes: number): string {
  if (minutes === 0) return 'UTC';
  const sign = minutes > 0 ? '+' : '−';
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  return `UTC${sign}${h}${m ? `:${pad(m)}` : ''}`;
}

/**
 * An instant as ISO-8601 in a zone, with its offset: "2025-03-01T14:05:06+08:00", or "…Z" in UTC.
 * Machines read it unambiguously; people see the wall clock of the zone they chose.
 */
export function isoInZone(iso: string, iana: string): string {
  const ms = Date.parse(iso);
  if (Number.isNaN(ms)) return iso;
  // Exports write this for every time cell (a million rows, three columns): when the zone's offset is
  // known for the hour, the text is the local hour's (made once per hour, as below) and two-digit
  // minutes and seconds, instead of a Date's six fields read and padded for every cell.
  const fixed = FIXED[iana];
  const offsetMs =
    fixed !== undefined ? fixed * 60_000 : Math.abs(ms) < MAX_TIME - HOUR ? hourOffset(ms, iana) : undefined;
  if (offsetMs !== undefined && Math.abs(ms + offsetMs) < MAX_TIME - HOUR) {
    const local = ms + offsetMs;
    const hour = Math.floor(local / HOUR);
    const inHour = local - hour * HOUR;
    return (
      localHourText(hour) +
      TWO_DIGITS[Math.floor(inHour / 60_000)]! +
      ':' +
      TWO_DIGITS[Math.floor((inHour % 60_000) / 1000)]! +
      offsetSuffix(Math.round(offsetMs / 60_000), iana)
    );
  }
  const w = wallClock(ms, iana);
  const local = `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:${pad(w.minute)}:${pad(w.second)}`;
  return local + offsetSuffix(w.offsetMinutes, iana);
}

const TWO_DIGITS = Array.from({ length: 60 }, (_, i) => pad(i));
/** Local hour number → its text up to the minutes ("2025-03-01T14:"), as the general path writes it. */
const hourTexts = new Map<number, string>();

function localHourText(hour: number): string {
  let text = hourTexts.get(hour);
  if (text === undefined) {
    const w = shifted(hour * HOUR, 0);
    text = `${w.year}-${pad(w.month)}-${pad(w.day)}T${pad(w.hour)}:`;
    if (hourTexts.size >= MAX_CACHED_HOURS) hourTexts.clear();
    hourTexts.set(hour, text);
  }
  return text;
}

const suffixes = new Map<number, string>();

/** "Z" in UTC, else the offset as ISO-8601 writes it: "+08:00", "-03:30". */
function offsetSuffix(offsetMinutes: number, iana: string): string {
  if (offsetMinutes === 0 && (iana === 'UTC' || iana === 'Etc/UTC')) return 'Z';
  let text = suffixes.get(offsetMinutes);
  if (text === undefined) {
    const abs = Math.abs(offsetMinutes);
    text = `${offsetMinutes < 0 ? '-' : '+'}${pad(Math.floor(abs / 60))}:${pad(abs % 60)}`;
    suffixes.set(offsetMinutes, text);
  }
  return text;
}

/** "YYYY-MM-DD" of an instant in a zone. */
export function dayInZone(ms: number, iana: string): string {
  const w = wallClock(ms, iana);
  return `${w.year}-${pad(w.month)}-${pad(w.day)}`;
}

const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * Epoch ms of 00:00 on a calendar day ("YYYY-MM-DD") in a zone, plus `days`; undefined when the text is
 * not a real date. Two correction rounds settle daylight-saving edges.
 */
export function dayStartInZone(text: string, iana: string, days = 0): number | undefined {
  const m = DAY.exec(text);
  if (!m) return undefined;
  const base = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  if (new Date(base).toISOString().slice(0, 10) !== text) return undefined;
  const wanted = base + days * 86_400_000;
  let guess = wanted;
  for (let i = 0; i < 2; i += 1) guess = wanted - wallClock(guess, iana).offsetMinutes * 60_000;
  return guess;
}
