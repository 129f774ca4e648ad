import type { Transaction } from '../../../shared/domain/transaction';
import { type ListRow, toListRow } from './list-row';

/**
 * Rows handled per task when a large write is merged into a loaded list. Decorating and merging cost
 * about 1.5 µs a row, so a slice is a few milliseconds; a 100k-row sync merged in one go was a task of
 * 100–200 ms at its end.
 */
export const MERGE_SLICE = 5_000;

/** Replaces or adds rows by transactionNo in an already-loaded list (keeps untouched rows identical). */
export function mergeRows(current: readonly ListRow[] | undefined, fresh: readonly ListRow[]): ListRow[] {
  const byNo = new Map(fresh.map((r) => [r.transactionNo, r]));
  const out = (current ?? []).map((r) => {
    const f = byNo.get(r.transactionNo);
    if (f) byNo.delete(r.transactionNo);
    return f ?? r;
  });
  for (const r of byNo.values()) out.push(r);
  return out;
}

/** The list rows of a write (copies, decorated), in the order written. */
export const listRowsOf = (written: readonly Transaction[], profileId: string, fetchedAt: string) =>
  written.map((t) => toListRow({ ...t, profileId, fetchedAt }));

/**
 * The same as `mergeRows(current, listRowsOf(written, …))`, a slice at a time with `pause()` between
 * slices, so the page paints and answers input while a large write is merged. Returns the fresh rows
 * too: when the list changed during a pause, the caller merges them again into what is there now.
 */
export async function mergeWrittenInSlices(
  current: readonly ListRow[],
  written: readonly Transaction[],
  profileId: string,
  fetchedAt: string,
  pause: () => Promise<void>,
): Promise<{ merged: ListRow[]; fresh: ListRow[] }> {
  const fresh: ListRow[] = [];
  const byNo = new Map<string, ListRow>();
  for (let i = 0; i < written.length; i += 1) {
    const row = toListRow({ ...written[i]!, profileId, fetchedAt });
    fresh.push(row);
    byNo.set(row.transactionNo, row);
    if ((i + 1) % MERGE_SLICE === 0) await pause();
  }
  const merged: ListRow[] = [];
  for (let i = 0; i < current.length; i += 1) {
    const r = current[i]!;
    const f = byNo.get(r.transactionNo);
    if (f) byNo.delete(r.transactionNo);
    merged.push(f ?? r);
    if ((i + 1) % MERGE_SLICE === 0) await pause();
  }
  for (const r of byNo.values()) merged.push(r);
  return { merged, fresh };
}
