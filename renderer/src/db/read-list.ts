import { addToStats, emptyStats, rememberStats } from './list-stats';
import { type ListRow, toListRow } from './list-row';
import type { TransactionsRepo } from './transactions-repo';

/**
 * Rows per page of the whole-cache read: where it starts, and the bounds it adapts within. One getAll of
 * a million rows arrived in one 2.4 s task (the answer is deserialised on this thread as one piece); a
 * page is a task of its own. Pages start small, so the first screen stays responsive, and grow while a
 * page's task stays short, since each page costs a database round trip (at 5,000 rows a page, 100k rows
 * spent a third of their read waiting between pages).
 */
export const READ_PAGE = 2_000;
const MAX_PAGE = 40_000;
/**
 * Target of this thread's own work per page (decorating, stats), ms. Deserialising the page, in the
 * same task before it, costs about as much again (measured at 100k and 1M rows in Chromium): a page is
 * then a task of ~30–40 ms, well under the 50 ms of a long task on an idle machine.
 */
const TARGET_MS = 15;

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals, read a page at a time
 * in transaction-number order (list-stats.ts is gathered as the pages come, so nothing passes over the
 * million rows again for the filter's choices, the column widths or the unfiltered totals). The next
 * page is asked before this one is decorated, so the database reads it meanwhile. `pageSize` fixes the
 * page size (tests); otherwise it adapts.
 */
export async function readListRows(
  repo: Pick<TransactionsRepo, 'page'>,
  profileId: string,
  pageSize?: number,
): Promise<ListRow[]> {
  const rows: ListRow[] = [];
  const stats = emptyStats();
  let size = pageSize ?? READ_PAGE;
  let asked = size;
  let next = repo.page(profileId, undefined, asked);
  for (;;) {
    const page = await next;
    const last = page.at(-1);
    const more = page.length === asked && last !== undefined;
    const t0 = performance.now();
    if (more) {
      asked = size;
      next = repo.page(profileId, last.transactionNo, asked);
    }
    const from = rows.length;
    for (const tx of page) rows.push(toListRow(tx));
    addToStats(stats, rows, from);
    if (!more) break;
    if (pageSize === undefined) {
      const ms = Math.max(1, performance.now() - t0);
      // Grow at most fourfold per page, shrink at once when the machine is slow.
      size = Math.round(Math.min(MAX_PAGE, Math.max(READ_PAGE, page.length * Math.min(4, TARGET_MS / ms))));
    }
  }
  rememberStats(rows, stats);
  return rows;
}
