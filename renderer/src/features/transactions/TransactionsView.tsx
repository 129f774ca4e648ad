import { useCallback, useDeferredValue, useMemo, useState } from 'react';
import { writeCsv } from '../../../../shared/csv/writer';
import { ColumnChooser } from './ColumnChooser';
import { COLUMNS, exportColumns, visibleColumns } from './columns';
import { OFFLINE_REASON, useConnectivity } from './connectivity';
import { DetailPanel } from './DetailPanel';
import { downloadText } from '../../lib/download';
import { exportFileName } from './download';
import { EmptyCache } from './EmptyCache';
import { FilterBar } from './FilterBar';
import { applyFilter, distinctValues } from './filters';
import { JobBar } from './JobBar';
import { useTransactionJobs } from './mutations';
import { OfflineBanner } from './OfflineBanner';
import { useCachedRows, useNewestFetch } from './queries';
import { SearchBox } from './SearchBox';
import { sortRows } from './sorting';
import { defaultSyncRange } from './sync-windows';
import { SyncPanel } from './SyncPanel';
import { totalsByCurrency } from './totals';
import { TotalsBar } from './TotalsBar';
import { TransactionTable } from './TransactionTable';
import { useViewState } from './use-view-state';

/** Most rows one bulk refresh sends (each is a signed query; stay polite with the service). */
export const MAX_BULK_REFRESH = 2_000;

interface Props {
  profile: { id: string; name: string; environment: string };
  onRefund?: (transactionNo: string) => void;
}

/** The transactions workspace for one profile: search, list, filters, totals, detail, jobs, export. */
export function TransactionsView({ profile, onRefund }: Props) {
  const conn = useConnectivity();
  const rowsQ = useCachedRows(profile.id);
  const newest = useNewestFetch(profile.id);
  const { view, update } = useViewState(profile.id);
  const jobs = useTransactionJobs(profile.id);
  const [activeNo, setActiveNo] = useState<string | null>(null);
  const [detailNo, setDetailNo] = useState<string | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [syncOpen, setSyncOpen] = useState(false);

  const all = useMemo(() => rowsQ.data ?? [], [rowsQ.data]);
  // Sort everything once per sort change; filtering keeps that order, so typing a filter never re-sorts.
  const sortedAll = useMemo(() => sortRows(all, view.sorting, COLUMNS), [all, view.sorting]);
  const filter = useDeferredValue(view.filter);
  const shown = useMemo(() => applyFilter(sortedAll, filter), [sortedAll, filter]);
  const totals = useMemo(() => totalsByCurrency(shown), [shown]);
  const currencies = useMemo(() => distinctValues(all, (r) => r.currency), [all]);
  const vendors = useMemo(() => distinctValues(all, (r) => r.vendor), [all]);
  const columns = useMemo(() => visibleColumns(view.hiddenColumns), [view.hiddenColumns]);
  const detail = detailNo ? all.find((r) => r.transactionNo === detailNo) : undefined;
  const offline = conn.state === 'offline';
  const busy = jobs.isRunning;

  const onSort = useCallback(
    (id: string) =>
      update((v) => {
        const cur = v.sorting[0];
        return {
          ...v,
          sorting: [{ id, desc: cur?.id === id ? !cur.desc : id === 'createdAt' || id === 'amount' }],
        };
      }),
    [update],
  );
  const open = useCallback((no: string) => {
    setActiveNo(no);
    setDetailNo(no);
  }, []);
  const toggle = useCallback(
    (no: string) =>
      setSelected((s) => {
        const n = new Set(s);
        if (n.has(no)) n.delete(no);
        else n.add(no);
        return n;
      }),
    [],
  );
  const toggleAll = useCallback(
    () =>
      setSelected((s) =>
        shown.length > 0 && shown.every((r) => s.has(r.transactionNo))
          ? new Set()
          : new Set(shown.map((r) => r.transactionNo)),
      ),
    [shown],
  );

  const refreshTargets = selected.size > 0 ? [...selected] : shown.map((r) => r.transactionNo);
  const exportView = () =>
    downloadText(exportFileName(profile.name), writeCsv(exportColumns(columns), shown));
  const loadDemo = () => {
    const r = defaultSyncRange(Date.now());
    jobs.sync(r.from, r.to);
  };

  return (
    <div
      className="tx-workspace"
      data-testid="transactions"
      onKeyDown={(e) => e.key === 'Escape' && detailNo && setDetailNo(null)}
    >
      <div className="tx-toolbar">
        <SearchBox profileId={profile.id} onFound={open} />
        <div className="tx-actions">
          <button
            type="button"
            onClick={() => setSyncOpen((o) => !o)}
            disabled={offline || busy}
            title={offline ? OFFLINE_REASON : 'Fetch every payment in a date range'}
          >
            Sync by date…
          </button>
          <button
            type="button"
            onClick={() => void jobs.refresh(refreshTargets.slice(0, MAX_BULK_REFRESH))}
            disabled={offline || busy || refreshTargets.length === 0}
            title={
              offline
                ? OFFLINE_REASON
                : refreshTargets.length > MAX_BULK_REFRESH
                  ? `Refreshes the first ${MAX_BULK_REFRESH}`
                  : 'Ask the service for the current state of these rows'
            }
            data-testid="bulk-refresh"
          >
            {selected.size > 0 ? `Refresh selected (${selected.size})` : `Refresh shown (${shown.length})`}
          </button>
          <button
            type="button"
            onClick={exportView}
            disabled={shown.length === 0}
            title="Export the rows shown, in this order, with the visible columns"
            data-testid="export"
          >
            Export CSV
          </button>
          <ColumnChooser
            hidden={view.hiddenColumns}
            onChange={(h) => update((v) => ({ ...v, hiddenColumns: h }))}
          />
        </div>
      </div>
      <OfflineBanner conn={conn} newestFetch={newest.data} />
      {syncOpen && <SyncPanel onStart={(f, t) => jobs.sync(f, t)} onClose={() => setSyncOpen(false)} />}
      {jobs.job && <JobBar job={jobs.job} onCancel={jobs.cancel} onDismiss={jobs.dismiss} />}
      {rowsQ.isPending ? (
        <p className="muted" role="status">
          Reading the local cache…
        </p>
      ) : rowsQ.isError ? (
        <div className="tx-outcome problem" role="alert">
          The local cache cannot be read ({rowsQ.error.message}). It holds only copies of service data; reload
          the app, and if this persists reset the cache.
        </div>
      ) : all.length === 0 ? (
        <EmptyCache
          isDemo={profile.environment === 'demo'}
          isOffline={offline}
          isBusy={busy}
          onLoadDemo={loadDemo}
          onSync={() => setSyncOpen(true)}
        />
      ) : (
        <>
          <FilterBar
            filter={view.filter}
            onChange={(f) => update((v) => ({ ...v, filter: f }))}
            currencies={currencies}
            vendors={vendors}
          />
          <TotalsBar shown={shown.length} cached={all.length} totals={totals} />
          <div className={`tx-main${detail ? ' with-detail' : ''}`}>
            {shown.length === 0 ? (
              <div className="empty-state small" data-testid="tx-no-match">
                <h2>No cached transaction matches these filters</h2>
                <p>
                  Clear or loosen the filters. A payment that was never fetched can be looked up in the box
                  above.
                </p>
              </div>
            ) : (
              <TransactionTable
                rows={shown}
                columns={columns}
                sorting={view.sorting}
                onSort={onSort}
                activeNo={activeNo}
                onActivate={setActiveNo}
                onOpen={open}
                selected={selected}
                onToggle={toggle}
                onToggleAll={toggleAll}
              />
            )}
            {detail && (
              <DetailPanel
                row={detail}
                onClose={() => setDetailNo(null)}
                onRefresh={() => void jobs.refresh([detail.transactionNo])}
                isRefreshing={busy}
                {...(onRefund ? { onRefund: () => onRefund(detail.transactionNo) } : {})}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}
