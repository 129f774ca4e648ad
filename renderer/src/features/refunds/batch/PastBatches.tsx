import { useInfiniteQuery } from '@tanstack/react-query';
import type { BatchStatus } from '../../../../../shared/batch/execution';
import { errorOf, unwrap, useBridge } from '../../../lib/bridge';
import { useFormat } from '../../preferences/use-prefs';
import { TotalsList } from './totals';

const PAGE = 20;

/** A batch's state in words (the database's states; colour is never the only signal). */
const STATE_WORDS: Readonly<Record<BatchStatus['state'], string>> = {
  awaiting_approval: 'Awaiting approval',
  running: 'Running',
  paused: 'Paused',
  cancelled: 'Cancelled',
  finished: 'Finished',
  rejected: 'Rejected',
  expired: 'Expired',
};

/**
 * The profile's account's past refund batches (refunds.batchList), newest first, a page at a time:
 * state, who started it, when, its counts and totals per currency. "Open" shows a batch again — its
 * report (screen, CSV, Excel) once it has ended, its progress while it runs. In team mode every desk's.
 */
export function PastBatches({ profileId, onOpen }: { profileId: string; onOpen(batchId: string): void }) {
  const bridge = useBridge();
  const f = useFormat();
  const list = useInfiniteQuery({
    queryKey: ['refunds', 'batches', profileId],
    queryFn: ({ pageParam }) =>
      unwrap(
        bridge['refunds.batchList']({ profileId, limit: PAGE, ...(pageParam ? { before: pageParam } : {}) }),
      ),
    initialPageParam: '',
    getNextPageParam: (last) => last.next,
  });
  const batches = list.data?.pages.flatMap((p) => p.batches) ?? [];
  if (list.isSuccess && batches.length === 0) return null;
  return (
    <section className="recon-card" aria-labelledby="rb-past" data-testid="batch-past">
      <h2 id="rb-past">Past batches</h2>
      {list.isError && (
        <p role="alert" className="recon-error">
          The past batches could not be read: {errorOf(list.error).message}
        </p>
      )}
      <div className="recon-table-wrap" role="region" aria-labelledby="rb-past" tabIndex={0}>
        <table className="recon-table rb-past-table">
          <thead>
            <tr>
              <th scope="col">Batch</th>
              <th scope="col">State</th>
              <th scope="col">Started ({f.zoneLabel})</th>
              <th scope="col" className="num">
                Rows
              </th>
              <th scope="col" className="num">
                Refunded
              </th>
              <th scope="col" className="num">
                Refused or cancelled
              </th>
              <th scope="col">Total</th>
              <th scope="col">
                <span className="sr-only">Open</span>
              </th>
            </tr>
          </thead>
          <tbody>
            {batches.map((b) => (
              <tr key={b.batchId} data-batch-id={b.batchId} data-state={b.state}>
                <td>
                  <span className="mono">{b.batchId}</span>
                  <div className="small muted">{b.fileName}</div>
                </td>
                <td>
                  {STATE_WORDS[b.state]}
                  {b.state === 'rejected' && b.approval?.closedBy && (
                    <div className="small muted">by {b.approval.closedBy}</div>
                  )}
                </td>
                <td>
                  {f.dateTime(b.createdAt)}
                  <div className="small muted">
                    by {b.approval?.startedBy ?? (b.operator || 'an unnamed operator')}
                  </div>
                </td>
                <td className="num">{f.count(b.dataRows)}</td>
                <td className="num">{f.count(b.refunded)}</td>
                <td className="num">{f.count(b.refused + b.cancelled)}</td>
                <td>
                  <TotalsList totals={b.totals} block />
                </td>
                <td>
                  <OpenButton batch={b} onOpen={onOpen} />
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {list.hasNextPage && (
        <button type="button" onClick={() => void list.fetchNextPage()} disabled={list.isFetchingNextPage}>
          {list.isFetchingNextPage ? 'Loading…' : 'Older batches'}
        </button>
      )}
    </section>
  );
}

/** "Report" for a batch that ended, "Open" for one still running, paused or waiting (named with its id). */
function OpenButton({ batch: b, onOpen }: { batch: BatchStatus; onOpen(batchId: string): void }) {
  const open = b.state === 'running' || b.state === 'paused' || b.state === 'awaiting_approval';
  return (
    <button type="button" onClick={() => onOpen(b.batchId)}>
      {open ? 'Open' : 'Report'}
      <span className="sr-only"> {open ? `batch ${b.batchId}` : `of batch ${b.batchId}`}</span>
    </button>
  );
}
