import { addToStats, emptyStats, rememberStats } from './list-stats';
import { type ListRow, toListRow } from './list-row';
import type { TransactionsRepo } from './transactions-repo';

/**
 * Rows per page of the whole-cache read: where it starts, and the bounds it adapts within. One getAll of
 * a million rows arrived in one 2.4 s task (the answer is deserialised on this thread as one piece); a
 * page is a task of its own. Pages start small, so the first screen stays responsive, and grow while a
 * page's tasks stay short, since each page costs a database round trip (at 5,000 rows a page, 100k rows
 * spent a third of their read waiting between pages).
 */
export const READ_PAGE = 2_000;
const MAX_PAGE = 40_000;
/**
 * Target of each of a page's two tasks on this thread, ms: taking the page out of the database
 * (deserialising it: `takeMs`) and decorating it (list rows, stats). The pages used to be sized by the
 * decorating alone, assuming deserialising cost about as much again and ran in the same task; traced at
 * 1M rows, it cost two to four times as much, so pages grew to 40,000 rows and their tasks (with the
 * young-generation collections of what they allocated) passed 100 ms. Now both are timed, they run in
 * tasks of their own, and a page grows only while the slower of the two stays under this.
 */
const TARGET_MS = 25;

/** Lets the page paint and handle input between taking a page and decorating it. */
const yieldToPage = () => new Promise<void>((r) => setTimeout(r, 0));

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
    const { rows: page, takeMs } = await next;
    const last = page.at(-1);
    const more = page.length === asked && last !== undefined;
    if (more) {
      asked = size;
      next = repo.page(profileId, last.transactionNo, asked);
    }
    // Deserialising the page was this task's work; decorating it is the next one's.
    if (page.length > 0) await yieldToPage();
    const t0 = performance.now();
    const from = rows.length;
    for (const tx of page) rows.push(toListRow(tx));
    addToStats(stats, rows, from);
    if (!more) break;
    if (pageSize === undefined) {
      const ms = Math.max(1, takeMs, performance.now() - t0);
      // Grow at most fourfold per page, shrink at once when the machine is slow.
      size = Math.round(Math.min(MAX_PAGE, Math.max(READ_PAGE, page.length * Math.min(4, TARGET_MS / ms))));
    }
  }
  rememberStats(rows, stats);
  return rows;
}
