import { addToStats, emptyStats, rememberStats } from './list-stats';
import { type ListRow, toListRow } from './list-row';
import type { TransactionsRepo } from './transactions-repo';

/**
 * Rows per page of the whole-cache read. One getAll of a million rows arrived in one 2.4 s task
 * (the answer is deserialised on this thread as one piece); a page of this many is about 10–20 ms to
 * deserialise and as much again to decorate, so the page keeps painting and answering input while the
 * cache is read, at ~1 ms of database round trip per page.
 */
export const READ_PAGE = 5_000;

/**
 * Every cached row of the profile, decorated once for sorting/filtering/totals, read a page at a time
 * in transaction-number order (list-stats.ts is gathered as the pages come, so nothing passes over the
 * million rows again for the filter's choices, the column widths or the unfiltered totals). The next
 * page is asked before this one is decorated, so the database reads it meanwhile.
 */
export async function readListRows(
  repo: Pick<TransactionsRepo, 'page'>,
  profileId: string,
  pageSize = READ_PAGE,
): Promise<ListRow[]> {
  const rows: ListRow[] = [];
  const stats = emptyStats();
  let next = repo.page(profileId, undefined, pageSize);
  for (;;) {
    const page = await next;
    const last = page.at(-1);
    const more = page.length === pageSize && last !== undefined;
    if (more) next = repo.page(profileId, last.transactionNo, pageSize);
    const from = rows.length;
    for (const tx of page) rows.push(toListRow(tx));
    addToStats(stats, rows, from);
    if (!more) break;
  }
  rememberStats(rows, stats);
  return rows;
}
