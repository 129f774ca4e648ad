import { displayMoney } from '../../../../shared/domain/money';

const dateTime = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hour12: false,
});

const dateTimeShort = new Intl.DateTimeFormat(undefined, {
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  hour12: false,
});

/** Local time to the minute, for list cells (the detail panel shows seconds). */
export function formatLocalShort(iso: string | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : dateTimeShort.format(ms);
}

/** A UTC ISO instant in the person's local time ("" when absent or unreadable). */
export function formatLocal(iso: string | undefined): string {
  if (!iso) return '';
  const ms = Date.parse(iso);
  return Number.isNaN(ms) ? '' : dateTime.format(ms);
}

/** The local zone's name and offset, e.g. "Europe/Berlin, UTC+1", for "times are local" notes. */
export function localZoneLabel(now: Date = new Date()): string {
  const zone = Intl.DateTimeFormat().resolvedOptions().timeZone;
  const minutes = -now.getTimezoneOffset();
  const sign = minutes >= 0 ? '+' : '−';
  const h = Math.floor(Math.abs(minutes) / 60);
  const m = Math.abs(minutes) % 60;
  return `${zone}, UTC${sign}${h}${m ? `:${String(m).padStart(2, '0')}` : ''}`;
}

/** "just now", "5 minutes ago", "3 hours ago", "2 days ago" — the data's age in words. */
export function formatAge(iso: string | undefined, nowMs: number): string {
  if (!iso) return 'never';
  const ms = Date.parse(iso);
  if (Number.isNaN(ms) || ms <= 0) return 'at an unknown time';
  const s = Math.max(0, Math.round((nowMs - ms) / 1000));
  if (s < 60) return 'just now';
  const plural = (n: number, unit: string) => `${n} ${unit}${n === 1 ? '' : 's'} ago`;
  if (s < 3600) return plural(Math.floor(s / 60), 'minute');
  if (s < 86_400) return plural(Math.floor(s / 3600), 'hour');
  return plural(Math.floor(s / 86_400), 'day');
}

/** Money for display; never throws on a bad currency (falls back to code + plain digits). */
export function money(amountMinor: number, currency: string): string {
  try {
    return displayMoney(amountMinor, currency);
  } catch {
    return `${currency} ${amountMinor}`;
  }
}

/** formatAge against the current time (for event handlers; components use useNow to re-render). */
export function formatAgeNow(iso: string | undefined): string {
  return formatAge(iso, Date.now());
}
