import { SYNC_MAX_SPAN_DAYS } from '../../../../shared/ipc/contract/transactions-batch';

const DAY_MS = 86_400_000;
/** The longest range one sync may cover (windows are walked one by one). */
export const SYNC_MAX_RANGE_DAYS = 366;

/** "YYYY-MM-DD" (a service calendar day) → epoch ms of that day at 00:00 UTC (pure date arithmetic). */
function dayMs(text: string): number | undefined {
  const m = /^(\d{4})-(\d{2})-(\d{2})$/.exec(text);
  if (!m) return undefined;
  const ms = Date.UTC(Number(m[1]), Number(m[2]) - 1, Number(m[3]));
  return new Date(ms).toISOString().slice(0, 10) === text ? ms : undefined;
}

const compact = (ms: number) => new Date(ms).toISOString().slice(0, 10).replaceAll('-', '');

/**
 * Splits an inclusive range of service calendar days into trans-list windows (YYYYMMDD pairs) of at
 * most SYNC_MAX_SPAN_DAYS days each, newest window first so the most recent data lands first.
 */
export function splitSyncWindows(
  from: string,
  to: string,
  /** Today as a service calendar day: a range may not end after it (there is nothing to fetch yet). */
  today?: string,
): { windows: { startDate: string; endDate: string }[] } | { error: string } {
  const a = dayMs(from);
  const b = dayMs(to);
  if (a === undefined || b === undefined) return { error: 'Choose a start and an end date.' };
  if (b < a) return { error: 'The end date is before the start date.' };
  if (today && to > today)
    return { error: `The range cannot end in the future: today is ${today} in service time (UTC+8).` };
  if ((b - a) / DAY_MS + 1 > SYNC_MAX_RANGE_DAYS)
    return { error: `Sync at most ${SYNC_MAX_RANGE_DAYS} days at a time.` };
  const windows: { startDate: string; endDate: string }[] = [];
  // Inclusive windows of SYNC_MAX_SPAN_DAYS calendar days stay within the service's span limit.
  for (let end = b; end >= a; end -= SYNC_MAX_SPAN_DAYS * DAY_MS) {
    const start = Math.max(a, end - (SYNC_MAX_SPAN_DAYS - 1) * DAY_MS);
    windows.push({ startDate: compact(start), endDate: compact(end) });
  }
  return { windows };
}

const serviceDay = (ms: number) => new Date(ms + 8 * 3_600_000).toISOString().slice(0, 10);

/** Today as a service (UTC+8) calendar day, "YYYY-MM-DD". */
export function serviceToday(nowMs: number): string {
  return serviceDay(nowMs);
}

/** Today and 14 days before, as service (UTC+8) calendar days "YYYY-MM-DD": the default sync range. */
export function defaultSyncRange(nowMs: number): { from: string; to: string } {
  return { from: serviceDay(nowMs - (SYNC_MAX_SPAN_DAYS - 1) * DAY_MS), to: serviceDay(nowMs) };
}
