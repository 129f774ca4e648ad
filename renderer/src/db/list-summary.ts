import { z } from 'zod';
import { emptyStats, type ListStats } from './list-stats';

/**
 * The count and per-currency sums of a profile's whole cache, kept in `meta` so that a list opened
 * again shows its count and totals before its last row is read (at 1M rows, seconds before). It is
 * only ever true: every write of the profile's transactions deletes it in the same IndexedDB
 * transaction (raw-put, the repository), and a whole-cache read stores it again only when no write
 * came between the start of the read and its end (the `reading` mark it left is still there).
 */
export const LIST_SUMMARY = 'list-summary';
export const listSummaryKey = (profileId: string) => `${LIST_SUMMARY}:${profileId}`;

const sums = z.object({
  allCount: z.number().int().nonnegative(),
  allGross: z.number().int(),
  allRefunded: z.number().int(),
  successCount: z.number().int().nonnegative(),
  successGross: z.number().int(),
  successRefunded: z.number().int(),
});

/** What is stored: a finished summary, or the mark of a read under way. */
export const storedSummarySchema = z.union([
  z.object({
    count: z.number().int().nonnegative(),
    sums: z.array(z.tuple([z.string().min(1).max(16), sums])),
    unsafe: z.boolean(),
  }),
  z.object({ reading: z.string() }),
]);
export type StoredSummary = z.infer<typeof storedSummarySchema>;

/** A finished summary as the stats the list computes from rows (only the count and sums are known). */
export interface ListSummary {
  count: number;
  stats: ListStats;
}

/** The summary in a stored value, or null for none, a read's mark, or a value of another shape. */
export function summaryOf(value: unknown): ListSummary | null {
  const parsed = storedSummarySchema.safeParse(value);
  if (!parsed.success || 'reading' in parsed.data) return null;
  const stats = emptyStats();
  stats.count = parsed.data.count;
  stats.unsafe = parsed.data.unsafe;
  for (const [currency, s] of parsed.data.sums) stats.sums.set(currency, { ...s });
  return { count: parsed.data.count, stats };
}

/** What is stored of the stats of a whole read. */
export function toStored(stats: ListStats): StoredSummary {
  return { count: stats.count, sums: [...stats.sums].map(([c, s]) => [c, { ...s }]), unsafe: stats.unsafe };
}
