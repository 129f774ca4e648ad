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

/** formatAge against the current time (for event handlers; components use useNow to re-render). */
export function formatAgeNow(iso: string | undefined): string {
  return formatAge(iso, Date.now());
}
