/**
 * A reconciliation's period and options. The person chooses the period as calendar days and says whose
 * days they are: the payment service's (UTC+8, as its statements and transaction list count them) or
 * their own local days. Everything else — the instants the period covers, the service's list windows,
 * the day a payment falls on — follows from that, the same way in the app and the CLI.
 */
import { z } from 'zod';
import { SERVICE_ZONE, dayStartInZone } from '../domain/zones';

export const DEFAULT_DATE_TOLERANCE_DAYS = 1;
export const DEFAULT_REFUND_LOOKBACK_DAYS = 90;
export const MAX_PERIOD_DAYS = 366;
export const MAX_TOLERANCE_DAYS = 31;
export const MAX_LOOKBACK_DAYS = 366;
/** The service's list takes at most this many calendar days per call (PROTOCOL: span ≤ 15 days). */
export const LIST_WINDOW_DAYS = 15;

const day = z.string().regex(/^\d{4}-\d{2}-\d{2}$/);

/** First and last day, inclusive, "YYYY-MM-DD". */
const periodSchema = z.object({ from: day, to: day }).strict();
export type ReconPeriod = z.infer<typeof periodSchema>;

const dayBasisSchema = z.enum(['service', 'local']);
export type DayBasis = z.infer<typeof dayBasisSchema>;

export const reconOptionsSchema = z
  .object({
    /** Omitted: only the ledger's rows are checked (one direction). */
    period: periodSchema.optional(),
    days: dayBasisSchema,
    /** IANA zone of local days (ignored for the service's days). */
    timeZone: z.string().min(1).max(64),
    /** Ledger date vs the service's payment day: how many days apart is still the same payment. */
    dateToleranceDays: z.number().int().min(0).max(MAX_TOLERANCE_DAYS),
    /** Refunds made in the period of payments made up to this many days before it are looked for. */
    refundLookbackDays: z.number().int().min(0).max(MAX_LOOKBACK_DAYS),
  })
  .strict();
export type ReconOptions = z.infer<typeof reconOptionsSchema>;

const DAY_MS = 86_400_000;

/** The IANA zone whose calendar days the run counts in. */
export function zoneOf(o: Pick<ReconOptions, 'days' | 'timeZone'>): string {
  return o.days === 'service' ? SERVICE_ZONE.iana : o.timeZone;
}

/** "the service's days (UTC+8)" / "local days (Europe/Berlin)". */
export function daysLabel(o: Pick<ReconOptions, 'days' | 'timeZone'>): string {
  return o.days === 'service' ? "the service's days (UTC+8)" : `local days (${o.timeZone})`;
}

/** Short zone name for sentences: "UTC+8" / "Europe/Berlin". */
export function zoneLabel(o: Pick<ReconOptions, 'days' | 'timeZone'>): string {
  return o.days === 'service' ? SERVICE_ZONE.label : o.timeZone;
}

/** The instants a period covers: [startMs, endMs). */
export function periodRange(o: ReconOptions): { startMs: number; endMs: number } | undefined {
  if (!o.period) return undefined;
  const zone = zoneOf(o);
  const startMs = dayStartInZone(o.period.from, zone);
  const endMs = dayStartInZone(o.period.to, zone, 1);
  if (startMs === undefined || endMs === undefined) return undefined;
  return { startMs, endMs };
}

/** What is wrong with the options, in words; empty when they can be used. */
export function optionIssues(o: ReconOptions): string[] {
  const issues: string[] = [];
  if (o.days === 'local') {
    try {
      new Intl.DateTimeFormat('en-US', { timeZone: o.timeZone });
    } catch {
      issues.push(`“${o.timeZone}” is not a time zone.`);
    }
  }
  if (o.period) {
    const range = issues.length === 0 ? periodRange(o) : undefined;
    if (!range && issues.length === 0) issues.push('Choose a valid first and last day of the period.');
    else if (range && range.endMs <= range.startMs) issues.push('The period ends before it starts.');
    else if (range && (range.endMs - range.startMs) / DAY_MS > MAX_PERIOD_DAYS + 1)
      issues.push(`A period may span at most ${MAX_PERIOD_DAYS} days.`);
  }
  if (
    !Number.isInteger(o.dateToleranceDays) ||
    o.dateToleranceDays < 0 ||
    o.dateToleranceDays > MAX_TOLERANCE_DAYS
  )
    issues.push(`The date tolerance must be 0 to ${MAX_TOLERANCE_DAYS} days.`);
  if (
    !Number.isInteger(o.refundLookbackDays) ||
    o.refundLookbackDays < 0 ||
    o.refundLookbackDays > MAX_LOOKBACK_DAYS
  )
    issues.push(`The refund look-back must be 0 to ${MAX_LOOKBACK_DAYS} days.`);
  return issues;
}

/** The UTC+8 calendar day an instant falls on, as a day number (days since 1970-01-01). */
const serviceDayNo = (ms: number) => Math.floor((ms + 8 * 3_600_000) / DAY_MS);
const compact = (dayNo: number) => new Date(dayNo * DAY_MS).toISOString().slice(0, 10).replaceAll('-', '');

/**
 * The service's list windows ("YYYYMMDD" UTC+8 days, inclusive, at most LIST_WINDOW_DAYS each) that
 * cover the period and the refund look-back before it, oldest first.
 */
export function listWindows(o: ReconOptions): Array<{ startDate: string; endDate: string }> {
  const range = periodRange(o);
  if (!range) return [];
  const first = serviceDayNo(range.startMs) - o.refundLookbackDays;
  const last = serviceDayNo(range.endMs - 1);
  const windows: Array<{ startDate: string; endDate: string }> = [];
  for (let start = first; start <= last; start += LIST_WINDOW_DAYS) {
    windows.push({
      startDate: compact(start),
      endDate: compact(Math.min(last, start + LIST_WINDOW_DAYS - 1)),
    });
  }
  return windows;
}
