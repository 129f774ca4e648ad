/**
 * Ledger dates as spreadsheets write them. Like the decimal separator, the order of day and month is
 * decided per file from its values (a 13th or later proves which part is the day) and shown before the
 * run; a file whose values all fit either order makes the person choose. A date is a calendar day: any
 * time of day after it is read past, because the ledger's day is what is compared.
 */
export const DATE_ORDERS = ['ymd', 'dmy', 'mdy'] as const;
export type DateOrder = (typeof DATE_ORDERS)[number];

export interface DateEvidence {
  order?: DateOrder;
  dmy: number;
  mdy: number;
  /** Day-first or month-first values whose parts are both ≤ 12. */
  ambiguous: number;
  examples: { dmy?: string; mdy?: string; ambiguous?: string };
  needsChoice: boolean;
}

const ISO = /^(\d{4})[-/.](\d{1,2})[-/.](\d{1,2})(?:$|[T ])/;
const COMPACT = /^(\d{4})(\d{2})(\d{2})$/;
const PARTS = /^(\d{1,2})([-/.])(\d{1,2})\2(\d{2}|\d{4})(?:$|[T ,])/;

const pad = (n: number) => String(n).padStart(2, '0');

function valid(y: number, m: number, d: number): string | undefined {
  const ms = Date.UTC(y, m - 1, d);
  const text = `${String(y).padStart(4, '0')}-${pad(m)}-${pad(d)}`;
  return m >= 1 && m <= 12 && new Date(ms).toISOString().slice(0, 10) === text ? text : undefined;
}

/** Which orders a day-or-month-first value allows; dots are day-first by convention (31.12.2025). */
function ordersOf(text: string): { dmy: boolean; mdy: boolean } | undefined {
  const m = PARTS.exec(text.trim());
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  if (m[2] === '.') return { dmy: true, mdy: false };
  return { dmy: b <= 12 && a <= 31, mdy: a <= 12 && b <= 31 };
}

/** Decides day/month order from a file's date values. */
export function detectDateOrder(values: Iterable<string>): DateEvidence {
  const ev = dateTally();
  let sawIso = false;
  for (const v of values) if (tallyDate(ev, v)) sawIso = true;
  return dateVerdict(ev, sawIso);
}

/** Evidence before any value: detectDateOrder is dateTally, tallyDate per value, dateVerdict. */
export function dateTally(): DateEvidence {
  return { dmy: 0, mdy: 0, ambiguous: 0, examples: {}, needsChoice: false };
}

/** Adds what one value says (in file order: the first of each kind is its example); true for year-first. */
export function tallyDate(ev: DateEvidence, v: string): boolean {
  const t = v.trim();
  if (t === '') return false;
  if (ISO.test(t) || COMPACT.test(t)) return true;
  const o = ordersOf(t);
  if (!o) return false;
  if (o.dmy && o.mdy) {
    ev.ambiguous += 1;
    ev.examples.ambiguous ??= t;
  } else if (o.dmy) {
    ev.dmy += 1;
    ev.examples.dmy ??= t;
  } else if (o.mdy) {
    ev.mdy += 1;
    ev.examples.mdy ??= t;
  }
  return false;
}

/** Decides from the tally of every value, and whether any was year-first. */
export function dateVerdict(ev: DateEvidence, sawIso: boolean): DateEvidence {
  if (ev.dmy > 0 && ev.mdy === 0) ev.order = 'dmy';
  else if (ev.mdy > 0 && ev.dmy === 0) ev.order = 'mdy';
  else if (ev.dmy === 0 && ev.mdy === 0 && ev.ambiguous === 0 && sawIso) ev.order = 'ymd';
  ev.needsChoice = ev.order === undefined && (ev.ambiguous > 0 || (ev.dmy > 0 && ev.mdy > 0));
  return ev;
}

export const DATE_ORDER_LABELS: Readonly<Record<DateOrder, string>> = {
  ymd: 'year first (2025-04-30)',
  dmy: 'day first (30/04/2025)',
  mdy: 'month first (04/30/2025)',
};

const DAYS_IN_MONTH = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
const ISO_DIGITS = [0, 1, 2, 3, 5, 6, 8, 9];
const digitAt = (t: string, i: number) => t.charCodeAt(i) - 0x30;
const yearAt = (t: string) => digitAt(t, 0) * 1000 + digitAt(t, 1) * 100 + digitAt(t, 2) * 10 + digitAt(t, 3);
const twoAt = (t: string, i: number) => digitAt(t, i) * 10 + digitAt(t, i + 1);

/** "dddd-dd-dd" at the start of `t`. */
function startsWithDayShape(t: string): boolean {
  if (t.charCodeAt(4) !== 0x2d || t.charCodeAt(7) !== 0x2d) return false;
  for (const i of ISO_DIGITS) {
    const c = digitAt(t, i);
    if (!(c >= 0 && c <= 9)) return false;
  }
  return true;
}

/** Exactly "dddd-dd-dd": how most ledgers write dates, read without a pattern or a Date. */
export const isIsoDayShape = (t: string) => t.length === 10 && startsWithDayShape(t);

/**
 * The day of a "dddd-dd-dd" text when it is a real calendar day, else undefined — what valid() says
 * for it (years below 100 included: Date.UTC reads them as 19xx, so valid() never accepts them).
 */
function isoDay(t: string): string | undefined {
  const y = yearAt(t);
  return y >= 100 && realDay(y, twoAt(t, 5), twoAt(t, 8)) ? t : undefined;
}

/**
 * A ledger date → "YYYY-MM-DD", or undefined when it is not a date. Year-first forms (ISO, 2025/04/30,
 * 20250430) are read whatever the order; day/month forms use `order` (ymd there falls back to dmy only
 * for dotted dates). Two-digit years are 20yy.
 */
export function parseLedgerDate(raw: string, order: DateOrder): string | undefined {
  const t = raw.trim();
  if (isIsoDayShape(t)) return isoDay(t);
  const iso = ISO.exec(t) ?? COMPACT.exec(t);
  if (iso) return valid(Number(iso[1]), Number(iso[2]), Number(iso[3]));
  const m = PARTS.exec(t);
  if (!m) return undefined;
  const a = Number(m[1]);
  const b = Number(m[3]);
  const y = m[4]!.length === 2 ? 2000 + Number(m[4]) : Number(m[4]);
  const dayFirst = order === 'dmy' || (order === 'ymd' && m[2] === '.');
  if (order === 'ymd' && m[2] !== '.') return undefined;
  return dayFirst ? valid(y, b, a) : valid(y, a, b);
}

/** Whether y-m-d is a day of the (proleptic Gregorian) calendar, as Date counts them. */
function realDay(y: number, m: number, d: number): boolean {
  const leap = m === 2 && ((y % 4 === 0 && y % 100 !== 0) || y % 400 === 0);
  return m >= 1 && m <= 12 && d >= 1 && d <= (DAYS_IN_MONTH[m - 1] ?? 0) + (leap ? 1 : 0);
}

/** Days since 1970-01-01 of a real day (the civil-calendar arithmetic; proleptic Gregorian like Date). */
function civilDay(year: number, m: number, d: number): number {
  const y = m <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (m > 2 ? m - 3 : m + 9) + 2) / 5) + d - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/**
 * Days since 1970-01-01 of a calendar day "YYYY-MM-DD": Date.parse(`${day}T00:00:00Z`) / 86,400,000,
 * from the digits for a real day, else left to Date.parse (which rolls 02-30 over to March, or says
 * NaN).
 */
export function epochDay(day: string): number {
  if (isIsoDayShape(day)) {
    const y = yearAt(day);
    const m = twoAt(day, 5);
    const d = twoAt(day, 8);
    if (realDay(y, m, d)) return civilDay(y, m, d);
  }
  return Date.parse(`${day}T00:00:00Z`) / 86_400_000;
}

const INSTANT_DIGITS = [11, 12, 14, 15, 17, 18, 20, 21, 22];
function instantDigits(iso: string): boolean {
  for (const i of INSTANT_DIGITS) {
    const c = digitAt(iso, i);
    if (!(c >= 0 && c <= 9)) return false;
  }
  return true;
}

/**
 * Date.parse of an instant, read from the digits when it is written as toISOString writes it
 * ("2025-06-01T04:00:00.000Z", as the service's times are stored), else by Date.parse.
 */
export function instantMs(iso: string): number {
  if (
    iso.length === 24 &&
    startsWithDayShape(iso) &&
    iso.charCodeAt(10) === 0x54 &&
    iso.charCodeAt(13) === 0x3a &&
    iso.charCodeAt(16) === 0x3a &&
    iso.charCodeAt(19) === 0x2e &&
    iso.charCodeAt(23) === 0x5a &&
    instantDigits(iso)
  ) {
    const y = yearAt(iso);
    const m = twoAt(iso, 5);
    const d = twoAt(iso, 8);
    const h = twoAt(iso, 11);
    const min = twoAt(iso, 14);
    const s = twoAt(iso, 17);
    if (realDay(y, m, d) && h <= 23 && min <= 59 && s <= 59)
      return (
        civilDay(y, m, d) * 86_400_000 +
        h * 3_600_000 +
        min * 60_000 +
        s * 1000 +
        digitAt(iso, 20) * 100 +
        twoAt(iso, 21)
      );
  }
  return Date.parse(iso);
}

/** Whole days from calendar day `a` to `b` ("YYYY-MM-DD"). */
export function daysBetween(a: string, b: string): number {
  return Math.round((Date.parse(`${b}T00:00:00Z`) - Date.parse(`${a}T00:00:00Z`)) / 86_400_000);
}

/** Instants whose toISOString has a four-digit year ("0000-01-01T…" to "9999-12-31T…"). */
export const ISO_INSTANTS = { from: -62_167_219_200_000, to: 253_402_300_800_000 };

const TWO = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/**
 * `new Date(ms).toISOString()` for a whole number of ms in ISO_INSTANTS, by the civil-calendar
 * arithmetic (a fifth of its time: the list's times are made again for every payment a report item
 * holds). test/unit/recon/dates-iso.property.test.ts holds the two to the same text.
 */
export function isoInstant(ms: number): string {
  const days = Math.floor(ms / 86_400_000);
  let rest = ms - days * 86_400_000;
  const z = days + 719_468;
  const era = Math.floor(z / 146_097);
  const dayOfEra = z - era * 146_097;
  const yearOfEra = Math.floor(
    (dayOfEra -
      Math.floor(dayOfEra / 1460) +
      Math.floor(dayOfEra / 36_524) -
      Math.floor(dayOfEra / 146_096)) /
      365,
  );
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const mp = Math.floor((5 * dayOfYear + 2) / 153);
  const d = dayOfYear - Math.floor((153 * mp + 2) / 5) + 1;
  const m = mp < 10 ? mp + 3 : mp - 9;
  const y = yearOfEra + era * 400 + (m <= 2 ? 1 : 0);
  const h = Math.floor(rest / 3_600_000);
  rest -= h * 3_600_000;
  const min = Math.floor(rest / 60_000);
  rest -= min * 60_000;
  const sec = Math.floor(rest / 1000);
  const milli = rest - sec * 1000;
  return `${TWO[Math.floor(y / 100)]!}${TWO[y % 100]!}-${TWO[m]!}-${TWO[d]!}T${TWO[h]!}:${TWO[min]!}:${TWO[sec]!}.${milli < 100 ? (milli < 10 ? '00' : '0') : ''}${milli}Z`;
}
