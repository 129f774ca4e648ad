import { useQuery } from '@tanstack/react-query';
import { useCallback, useDeferredValue, useMemo, useRef, useState } from 'react';
import { environmentLabel } from '../../../../shared/domain/labels';
import type { Environment } from '../../../../shared/domain/profile';
import { exportCommands, useAppNav, useCommands } from '../../app/nav';
import { useBridge } from '../../lib/bridge';
import { refundsListQuery } from '../refunds/queries';
import { downloadExport } from '../../lib/download';
import { ConfirmDialog } from '../../lib/ui/ConfirmDialog';
import { ExportButtons } from '../../lib/ui/ExportButtons';
import { usePrefs } from '../preferences/use-prefs';
import { ColumnChooser } from './ColumnChooser';
import { COLUMNS, exportColumns, visibleColumns } from './columns';
import { OFFLINE_REASON, useConnectivity } from './connectivity';
import { DetailPanel } from './DetailPanel';
import { EmptyCache } from './EmptyCache';
import { FilterBar } from './FilterBar';
import { EMPTY_FILTER, filterMask, isFilterActive, pickRows } from './filters';
import { statsOf } from '../../db/owner';
import { JobBar } from './JobBar';
import { ResetCache } from '../settings/ResetCache';
import { useTransactionJobs } from './mutations';
import { OfflineBanner } from './OfflineBanner';
import { uncertainByPayment, uncertainFor } from './open-refunds';
import { useListRows, useNewestFetch } from './queries';
import { SearchBox } from './SearchBox';
import { sortOrder } from './sorting';
import { defaultSyncRange } from './sync-windows';
import { SyncPanel } from './SyncPanel';
import { totalsByCurrency, totalsFromStats } from './totals';
import { TotalsBar } from './TotalsBar';
import { TransactionTable } from './TransactionTable';
import { useViewState } from './use-view-state';
import type { ListRow } from '../../db/owner';

/** Most rows one bulk refresh sends (each is a signed query; stay polite with the service). */
export const MAX_BULK_REFRESH = 2_000;
/** Above this many rows, a refresh against a real service asks first. */
export const CONFIRM_REFRESH_ABOVE = 200;
/** Why whole-list actions wait while only the first screen of rows has been read. */
const READING_REASON = 'Still reading the local cache';

interface Props {
  profile: { id: string; name: string; environment: Environment };
  onRefund?: (transactionNo: string) => void;
}

/** The transactions workspace for one profile: search, list, filters, totals, detail, jobs, exports. */
export function TransactionsView({ profile, onRefund }: Props) {
  const conn = useConnectivity();
  const { format } = usePrefs();
  const { view, update } = useViewState(profile.id);
  const rowsQ = useListRows(profile.id, view.sorting);
  const newest = useNewestFetch(profile.id);
  const jobs = useTransactionJobs(profile.id);
  const nav = useAppNav();
  // This desk's refunds (live through refunds.updated): one sent without a known outcome makes the
  // cached "Refundable" of its payment uncertain, in the row and in the detail panel.
  const intents = useQuery(refundsListQuery(useBridge(), { profileId: profile.id }));
  const uncertain = useMemo(() => uncertainByPayment(intents.data ?? []), [intents.data]);
  const [activeNo, setActiveNo] = useState<string | null>(null);
  const [detailNo, setDetailNo] = useState<string | null>(null);
  // The row a look-up found: scrolled into view every time, even when it was the active row already.
  const [reveal, setReveal] = useState<{ transactionNo: string; seq: number } | null>(null);
  const [selected, setSelected] = useState<ReadonlySet<string>>(new Set());
  const [syncOpen, setSyncOpen] = useState(false);
  const [confirmRefresh, setConfirmRefresh] = useState<string[] | null>(null);
  const gridRef = useRef<HTMLDivElement>(null);
  const searchRef = useRef<HTMLInputElement>(null);
  // Where focus was when the detail opened: it goes back there when the detail closes.
  const detailOpener = useRef<HTMLElement | null>(null);

  const all = useMemo(() => rowsQ.rows ?? [], [rowsQ.rows]);
  // Until every row is read the list holds only its newest screen: nothing may act on it as the whole.
  const complete = rowsQ.complete;
  // What is known of every row (filter choices, column widths, unfiltered totals), gathered as they were read.
  const stats = useMemo(() => statsOf(all), [all]);
  // The order once per sort change, as row indexes (typed keys, radix sort); the filter is applied in the
  // order rows are held and then read through that order, so typing a filter never re-sorts.
  const order = useMemo(() => sortOrder(all, view.sorting, COLUMNS), [all, view.sorting]);
  const filter = useDeferredValue(view.filter);
  const currencies = useMemo(() => [...stats.currencies].sort(), [stats]);
  const vendors = useMemo(() => [...stats.vendors].sort(), [stats]);
  const mask = useMemo(
    () =>
      filterMask(all, filter, {
        zone: format.zone.iana,
        cachedCurrencies: currencies,
        locale: format.locale,
      }),
    [all, filter, format.zone.iana, format.locale, currencies],
  );
  const shown = useMemo(() => pickRows(all, order, mask), [all, order, mask]);
  const totals = useMemo(
    () =>
      (mask ? undefined : totalsFromStats(stats, view.totalsBasis)) ??
      totalsByCurrency(all, view.totalsBasis, mask),
    [all, mask, stats, view.totalsBasis],
  );
  // While the rows are still being read, the count and totals of every cached row are known already when
  // nothing is filtered (the summary the last complete read stored, deleted by any write since).
  const summary = rowsQ.summary && !isFilterActive(view.filter) ? rowsQ.summary : null;
  const summaryTotals = useMemo(
    () => (summary ? totalsFromStats(summary.stats, view.totalsBasis) : undefined),
    [summary, view.totalsBasis],
  );
  const columns = useMemo(() => visibleColumns(view.hiddenColumns), [view.hiddenColumns]);
  const detail = detailNo ? all.find((r) => r.transactionNo === detailNo) : undefined;
  const offline = conn.state === 'offline';
  const busy = jobs.isRunning;
  const sortSpec = COLUMNS.find((c) => c.id === view.sorting[0]?.id);
  const shownCurrencies = useMemo(
    () => (mask ? currenciesOf(all, mask) : stats.currencies.size),
    [all, mask, stats],
  );

  const onSort = useCallback(
    (id: string) =>
      update((v) => {
        const cur = v.sorting[0];
        const newestFirst = id === 'createdAt' || id === 'paidAt' || id === 'fetchedAt';
        const biggestFirst = id === 'amount' || id === 'refunded' || id === 'remaining';
        return { ...v, sorting: [{ id, desc: cur?.id === id ? !cur.desc : newestFirst || biggestFirst }] };
      }),
    [update],
  );
  const open = useCallback((no: string) => {
    if (document.activeElement instanceof HTMLElement && !document.activeElement.closest('.tx-detail'))
      detailOpener.current = document.activeElement;
    setActiveNo(no);
    setDetailNo(no);
  }, []);
  const closeDetail = useCallback(() => {
    setDetailNo(null);
    const back = detailOpener.current?.isConnected ? detailOpener.current : gridRef.current;
    // Only where focus was lost with the detail (it sits on <body>): if the person already moved it
    // elsewhere before this frame, taking it back would send their next keys to the wrong place.
    requestAnimationFrame(() => {
      const now = document.activeElement;
      if (!now || now === document.body || !now.isConnected) back?.focus();
    });
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

  // How many rows a refresh would take; the list of their numbers is made only when one starts (making
  // it on every render copied 100k numbers each time the list changed).
  const refreshCount = selected.size > 0 ? selected.size : shown.length;
  const isLive = profile.environment !== 'demo';
  const startRefresh = () => {
    const all = selected.size > 0 ? [...selected] : shown.map((r) => r.transactionNo);
    const targets = all.slice(0, MAX_BULK_REFRESH);
    if (isLive && targets.length > CONFIRM_REFRESH_ABOVE) setConfirmRefresh(targets);
    else void jobs.refresh(targets);
  };
  const exportView = (kind: 'csv' | 'xlsx') =>
    downloadExport(kind, {
      area: 'transactions',
      profileName: profile.name,
      sheetName: 'Transactions',
      columns: exportColumns(columns),
      rows: shown,
      zone: format.zone,
      excelDateFormat: format.excelDateFormat,
    });
  const loadDemo = () => {
    const r = defaultSyncRange(Date.now());
    jobs.sync(r.from, r.to);
  };
  const refreshLabel =
    selected.size > 0
      ? `Refresh selected (${format.count(selected.size)})`
      : `Refresh shown (${format.count(shown.length)})`;

  useCommands('transactions', [
    {
      id: 'tx.sync',
      title: 'Sync by date…',
      group: 'Transactions',
      keywords: 'fetch range days download',
      ...(offline ? { disabledReason: OFFLINE_REASON } : busy ? { disabledReason: 'A job is running' } : {}),
      run: () => setSyncOpen(true),
    },
    {
      id: 'tx.refresh',
      title: refreshLabel,
      group: 'Transactions',
      keywords: 'refresh update bulk',
      ...(offline
        ? { disabledReason: OFFLINE_REASON }
        : !complete
          ? { disabledReason: READING_REASON }
          : refreshCount === 0
            ? { disabledReason: 'No rows shown' }
            : {}),
      run: startRefresh,
    },
    ...exportCommands({
      id: 'tx.export',
      what: 'the view',
      group: 'Transactions',
      empty: !complete ? READING_REASON : shown.length === 0 ? 'No rows shown' : undefined,
      run: exportView,
    }),
    {
      id: 'tx.clear',
      title: 'Clear filters',
      group: 'Transactions',
      keywords: 'reset filter',
      run: () => update((v) => ({ ...v, filter: EMPTY_FILTER })),
    },
    {
      id: 'tx.list',
      title: 'Go to the list (keyboard)',
      group: 'Transactions',
      keywords: 'grid rows focus',
      run: () => gridRef.current?.focus(),
    },
  ]);

  return (
    <div
      className="tx-workspace"
      data-testid="transactions"
      onKeyDown={(e) => {
        // Esc from the list (or anywhere on the screen outside a pop-over) closes the detail panel.
        if (e.key === 'Escape' && detailNo) closeDetail();
      }}
    >
      <div className="tx-toolbar">
        <SearchBox
          profileId={profile.id}
          onFound={(no) => {
            open(no);
            setReveal((r) => ({ transactionNo: no, seq: (r?.seq ?? 0) + 1 }));
          }}
          // Nothing found: the previous payment's panel must not stay open beside "No payment matches".
          onMissed={() => setDetailNo(null)}
          inputRef={searchRef}
        />
        <div className="tx-actions">
          <button
            type="button"
            onClick={() => setSyncOpen((o) => !o)}
            disabled={offline || busy}
            title={offline ? OFFLINE_REASON : 'Fetch every payment in a range of service days (UTC+8)'}
          >
            Sync by date…
          </button>
          <button
            type="button"
            onClick={startRefresh}
            disabled={offline || busy || !complete || refreshCount === 0}
            title={
              offline
                ? OFFLINE_REASON
                : !complete
                  ? READING_REASON
                  : refreshCount > MAX_BULK_REFRESH
                    ? `Refreshes the first ${format.count(MAX_BULK_REFRESH)}`
                    : 'Ask the service for the current state of these rows'
            }
            data-testid="bulk-refresh"
          >
            {refreshLabel}
          </button>
          <ExportButtons
            className="export-buttons"
            disabled={!complete || shown.length === 0}
            onExport={(kind) => void exportView(kind)}
            what="The rows shown, in this order, with the visible columns"
            testIds={{ csv: 'export', xlsx: 'export-xlsx' }}
          />
          <ColumnChooser
            hidden={view.hiddenColumns}
            onChange={(h) => update((v) => ({ ...v, hiddenColumns: h }))}
            hasCustomWidths={Object.keys(view.columnWidths).length > 0}
            onResetWidths={() => update((v) => ({ ...v, columnWidths: {} }))}
          />
        </div>
      </div>
      <OfflineBanner conn={conn} newestFetch={newest.data} />
      {syncOpen && <SyncPanel onStart={(f, t) => jobs.sync(f, t)} onClose={() => setSyncOpen(false)} />}
      {jobs.job && <JobBar job={jobs.job} onCancel={jobs.cancel} onDismiss={jobs.dismiss} />}
      {confirmRefresh && (
        <ConfirmDialog
          title={`Refresh ${format.count(confirmRefresh.length)} payments?`}
          confirmLabel={`Send ${format.count(confirmRefresh.length)} queries`}
          testId="confirm-refresh"
          onCancel={() => setConfirmRefresh(null)}
          onConfirm={() => {
            const targets = confirmRefresh;
            setConfirmRefresh(null);
            void jobs.refresh(targets);
          }}
        >
          <p>
            Refund Desk will send {format.count(confirmRefresh.length)} signed queries to the payment service
            for <strong>{profile.name}</strong> ({environmentLabel(profile.environment)}), a few at a time.
            Nothing changes at the service; you can cancel while it runs.
          </p>
          {refreshCount > confirmRefresh.length && (
            <p>
              Only the first {format.count(confirmRefresh.length)} of the {format.count(refreshCount)} rows
              are refreshed at once. Narrow the filters or tick rows to choose others.
            </p>
          )}
        </ConfirmDialog>
      )}
      {rowsQ.isError ? (
        <div className="tx-outcome problem" role="alert">
          <ResetCache
            reason={`The local cache cannot be read (${rowsQ.error?.message ?? 'unknown reason'}). It holds only copies of the service’s data: reload the app, and if this persists, reset it.`}
          />
        </div>
      ) : all.length === 0 && !complete ? (
        <p className="muted" role="status">
          Reading the local cache…
        </p>
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
          <TotalsBar
            shown={summary && summaryTotals ? summary.count : shown.length}
            cached={summary && summaryTotals ? summary.count : all.length}
            complete={complete || summaryTotals !== undefined}
            reading={!complete}
            totals={summaryTotals ?? totals}
            basis={view.totalsBasis}
            onBasis={(b) => update((v) => ({ ...v, totalsBasis: b }))}
          />
          <div className={`tx-main${detail ? ' with-detail' : ''}`}>
            {shown.length === 0 && !complete ? (
              <p className="muted" role="status">
                Reading the local cache…
              </p>
            ) : shown.length === 0 ? (
              <div className="empty-state small" data-testid="tx-no-match">
                <h2>No cached transaction matches these filters</h2>
                <p>
                  Clear or loosen the filters. A payment that was never fetched can be looked up in the box
                  above.
                </p>
              </div>
            ) : (
              <div className="tx-list">
                <TransactionTable
                  rows={shown}
                  stats={stats}
                  columns={columns}
                  sorting={view.sorting}
                  onSort={onSort}
                  widths={view.columnWidths}
                  onWidths={(w) => update((v) => ({ ...v, columnWidths: w }))}
                  activeNo={activeNo}
                  onActivate={setActiveNo}
                  onOpen={open}
                  selected={selected}
                  onToggle={toggle}
                  onToggleAll={toggleAll}
                  gridRef={gridRef}
                  busy={!complete}
                  uncertain={uncertain}
                  compact={detail !== undefined}
                  reveal={reveal}
                />
                <p className="tx-legend small muted" data-testid="tx-legend">
                  Amounts are in each row’s currency. — means none (not paid, not refundable, or not given by
                  the service). Times are in {format.zoneSentence}.
                  {sortSpec?.sortGroup && shownCurrencies > 1
                    ? ` Sorted by ${sortSpec.header.toLowerCase()} within each currency (currencies A–Z).`
                    : ''}
                </p>
              </div>
            )}
            {detail && (
              <DetailPanel
                row={detail}
                profileId={profile.id}
                onClose={closeDetail}
                onRefresh={() => void jobs.refresh([detail.transactionNo])}
                isRefreshing={busy}
                uncertain={uncertainFor(detail, uncertain)}
                {...(nav ? { onOpenRefunds: () => nav.goTo('refunds') } : {})}
                {...(onRefund ? { onRefund: () => onRefund(detail.transactionNo) } : {})}
              />
            )}
          </div>
        </>
      )}
    </div>
  );
}

/** How many currencies the rows `mask` lets through are in (read in the order the rows are held). */
function currenciesOf(rows: readonly ListRow[], mask: Uint8Array): number {
  const seen = new Set<string>();
  for (let i = 0; i < rows.length; i += 1) if (mask[i]) seen.add(rows[i]!.currency);
  return seen.size;
}
