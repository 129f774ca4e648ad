import { useMemo, useState } from 'react';
import { reportColumns, reportRows, summaryColumns } from '../../../../shared/recon/export';
import {
  itemCurrency,
  OUTCOME_LABELS,
  RECON_OUTCOMES,
  type ReconItem,
  type ReconOutcome,
} from '../../../../shared/recon/match';
import { daysLabel } from '../../../../shared/recon/period';
import { dataSourceLabel } from '../../../../shared/recon/statement';
import type { CsvColumn } from '../../../../shared/csv/writer';
import { exportCommands, useCommands } from '../../app/nav';
import { downloadExport } from '../../lib/download';
import { ExportButtons } from '../../lib/ui/ExportButtons';
import { useFormat } from '../preferences/use-prefs';
import { ReconRowsTable } from './ReconRowsTable';
import { RowDetail } from './RowDetail';
import { SummaryChart } from './SummaryChart';
import type { ReconReport } from './use-recon-run';
import { useExceptions } from './use-exceptions';
import { ExceptionsWorklist } from './ExceptionsWorklist';
import { SignOffPanel } from './SignOffPanel';
import { CloseHistory } from './CloseHistory';

interface Props {
  report: ReconReport;
  onStartOver: () => void;
  onRecheck: () => void;
  /** The active profile's name, for export file names. */
  profileName: string;
}

/**
 * Step 4: the stored record of a run — what was compared, the summary per currency, where the money is,
 * every row with filters, and the exports (CSV and Excel). The same screen for a run just finished and
 * one re-opened.
 */
export function ReportView({ report, onStartOver, onRecheck, profileName }: Props) {
  const [outcome, setOutcome] = useState<ReconOutcome | 'exceptions' | 'all'>('exceptions');
  const [currency, setCurrency] = useState('');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ReconItem | null>(null);
  const { header, items } = report;
  const { summary, facts, statement, run } = header;
  const f = useFormat();
  /** Another desk's run, read from its published copy (team mode): its exceptions are all this desk holds. */
  const published = run.published;
  const matchedElsewhere = published ? Math.max(0, header.items - published.heldItems) : 0;
  const exceptions = useExceptions(run.profileId, run.runId);
  const close = exceptions.list.data;
  // The signature and the hash main computed again when the list was read: a second export carries
  // the same hash as long as the run is what was signed.
  const signature =
    close?.signOff && close.contentHash
      ? { signOff: close.signOff, contentHash: close.contentHash }
      : undefined;
  const exportAs = <Row,>(
    kind: 'csv' | 'xlsx',
    what: 'report' | 'summary',
    sheet: string,
    columns: readonly CsvColumn<Row>[],
    rows: readonly Row[],
  ) =>
    downloadExport(kind, {
      area: `reconciliation-${what}`,
      profileName,
      sheetName: sheet,
      columns,
      rows,
      zone: f.zone,
      excelDateFormat: f.excelDateFormat,
    });
  const exportReport = (kind: 'csv' | 'xlsx') =>
    exportAs(
      kind,
      'report',
      'Reconciliation',
      reportColumns(f.zone),
      reportRows(items, close?.exceptions, signature),
    );
  const exportSummary = (kind: 'csv' | 'xlsx') => {
    const generatedAt = new Date().toISOString();
    const said = statement.join(' ');
    const rows = summary.currencies.map((c) => ({
      ...c,
      generatedAt,
      run: facts,
      statement: said,
      ...(signature ? { signature } : {}),
    }));
    return exportAs(kind, 'summary', 'Summary', summaryColumns(f.zone), rows);
  };
  useCommands('reconciliation', [
    ...(published
      ? []
      : exportCommands({
          id: 'recon.report',
          what: 'the reconciliation report',
          group: 'Reconciliation',
          run: exportReport,
        })),
    ...exportCommands({
      id: 'recon.summary',
      what: 'the reconciliation summary',
      group: 'Reconciliation',
      run: exportSummary,
    }),
    {
      id: 'recon.new',
      title: 'New reconciliation',
      group: 'Reconciliation',
      keywords: 'import ledger start over',
      run: onStartOver,
    },
  ]);

  const filtered = useMemo(() => {
    const q = search.trim().toLowerCase();
    return items.filter(
      (i) =>
        (outcome === 'all' || (outcome === 'exceptions' ? i.outcome !== 'matched' : i.outcome === outcome)) &&
        (!currency || itemCurrency(i) === currency) &&
        (!q ||
          [
            i.ledger?.transactionNo,
            i.ledger?.reference,
            i.unusable?.fields?.transactionNo,
            i.service?.transactionNo,
            i.refund?.refundTransactionNo,
            i.detail,
          ].some((t) => t?.toLowerCase().includes(q))),
    );
  }, [items, outcome, currency, search]);

  const period = facts.options.period;
  const source = dataSourceLabel(facts);
  return (
    <div className="recon-report">
      <section className="recon-card" aria-labelledby="recon-summary">
        <div className="recon-head">
          <h2 id="recon-summary">{run.label}</h2>
          <div className="recon-actions">
            {(
              [
                // A published copy holds the exceptions only: every row is exported where the run was made.
                ...(published ? [] : ([['Report', 'Every row', 'Export report CSV', exportReport]] as const)),
                ['Summary', 'Totals per currency', 'Export summary CSV', exportSummary],
              ] as const
            ).map(([name, what, csvLabel, runExport]) => (
              <span key={name} className="recon-export-group" role="group" aria-label={`${name}: ${what}`}>
                <span className="small muted">{name}</span>
                <ExportButtons
                  className="recon-export-buttons"
                  buttonClassName="button"
                  what={what}
                  csvLabel={csvLabel}
                  xlsxLabel="Excel"
                  onExport={(kind) => void runExport(kind)}
                />
              </span>
            ))}
            <button type="button" className="button" onClick={onStartOver}>
              New reconciliation
            </button>
          </div>
        </div>
        <p className="recon-meta" data-testid="recon-meta">
          {facts.profileName} ·{' '}
          {period
            ? `${period.from} to ${period.to}, ${daysLabel(facts.options)}`
            : 'no period (ledger rows only)'}{' '}
          · run {f.dateTime(facts.createdAt)} ({f.zoneLabel})
          {facts.endedAs === 'cancelled' ? ' · cancelled' : ''}
          {facts.recheckOf ? ' · re-check of an earlier run' : ''}
          {facts.carryForwardOf ? ` · carries the open exceptions of run ${facts.carryForwardOf}` : ''}
          {close?.signOff ? ` · signed by ${close.signOff.by}` : ''}
        </p>
        {published && (
          <p className="recon-banner" role="note" data-testid="recon-published">
            Run by {published.by} at {published.desk} (their profile “{published.profileName}”), published to
            the team database on {f.dateTime(published.at)} ({f.zoneLabel}). The figures are that run’s own;
            this desk holds its {f.count(published.heldItems)} non-matched{' '}
            {published.heldItems === 1 ? 'row' : 'rows'}, and the {f.count(matchedElsewhere)} matched{' '}
            {matchedElsewhere === 1 ? 'row is' : 'rows are'} on that desk (export every row there).
          </p>
        )}
        {(facts.offline || facts.usedCache) && (
          <p
            className={facts.offline ? 'recon-banner bad' : 'recon-banner'}
            role="note"
            data-testid="recon-source"
          >
            {facts.offline
              ? 'Made while the service could not be reached for part of it: rows it could not check are listed as not checked.'
              : 'Some rows were compared with data fetched earlier (this app’s cache), not fetched now.'}{' '}
            Data: {source}.
          </p>
        )}
        {summary.counts.not_checked > 0 && !published && (
          <div className="recon-actions">
            <button type="button" className="button primary" onClick={onRecheck}>
              Re-check {f.count(summary.counts.not_checked)} row
              {summary.counts.not_checked === 1 ? '' : 's'} not checked
            </button>
            <span className="muted small">
              A new run over the same ledger; every answer already fetched is reused.
            </span>
          </div>
        )}
        <details className="recon-statement" open>
          <summary>What was compared, and how</summary>
          <ul data-testid="recon-statement">
            {statement.map((s) => (
              <li key={s}>{s}</li>
            ))}
          </ul>
        </details>
        <ul className="recon-counts" data-testid="recon-counts">
          {RECON_OUTCOMES.filter((o) => summary.counts[o] > 0).map((o) => (
            <li key={o} data-outcome={o} className={o === 'matched' ? 'ok' : 'bad'}>
              <button type="button" className="link" onClick={() => setOutcome(o)}>
                <strong>{f.count(summary.counts[o])}</strong> {OUTCOME_LABELS[o]}
              </button>
            </li>
          ))}
        </ul>
        <p className="muted small" data-testid="recon-row-total">
          {f.count(summary.rows)} ledger rows = {f.count(summary.read)} read + {f.count(summary.unusable)}{' '}
          unreadable
          {summary.serviceOnly > 0 ? `; ${f.count(summary.serviceOnly)} more from the service side` : ''}.
        </p>
        <table className="recon-table recon-summary-table" aria-label="Totals per currency">
          <thead>
            <tr>
              <th>Currency</th>
              <th className="num">Ledger rows</th>
              <th className="num">Ledger total</th>
              <th className="num">Service total</th>
              <th className="num">Refunds</th>
              <th className="num">Difference</th>
              <th className="num">Explained</th>
              <th className="num">Unexplained</th>
            </tr>
          </thead>
          <tbody>
            {summary.currencies.map((c) => (
              <tr key={c.currency || 'none'}>
                <td>{c.currency || 'No readable currency'}</td>
                <td className="num">{f.count(c.rows)}</td>
                {c.currency ? (
                  <>
                    <td className="num">{f.money(c.ledgerTotalMinor, c.currency)}</td>
                    <td className="num">{f.money(c.serviceTotalMinor, c.currency)}</td>
                    <td className="num">{f.money(c.serviceRefundsMinor, c.currency)}</td>
                    <td className={c.differenceMinor === 0 ? 'num' : 'num bad'}>
                      {f.money(c.differenceMinor, c.currency)}
                    </td>
                    <td className="num">{f.money(c.explainedMinor, c.currency)}</td>
                    <td className={c.unexplainedMinor === 0 ? 'num' : 'num bad'}>
                      {f.money(c.unexplainedMinor, c.currency)}
                    </td>
                  </>
                ) : (
                  <td colSpan={6} className="muted">
                    unreadable rows only: no amounts to add up
                  </td>
                )}
              </tr>
            ))}
          </tbody>
        </table>
      </section>

      <section className="recon-card" aria-labelledby="recon-where">
        <h2 id="recon-where">Where the difference is</h2>
        <SummaryChart currencies={summary.currencies} />
      </section>

      <ExceptionsWorklist data={exceptions} />
      <SignOffPanel data={exceptions} cancelled={facts.endedAs === 'cancelled'} />
      <CloseHistory profileId={run.profileId} runId={run.runId} />

      <section className="recon-card" aria-labelledby="recon-exceptions">
        <h2 id="recon-exceptions">Rows</h2>
        <div className="recon-filters">
          <select
            aria-label="Outcome"
            value={outcome}
            onChange={(e) => setOutcome(e.target.value as typeof outcome)}
          >
            <option value="exceptions">All exceptions</option>
            <option value="all">Every row</option>
            {RECON_OUTCOMES.map((o) => (
              <option key={o} value={o}>
                {OUTCOME_LABELS[o]} ({summary.counts[o]})
              </option>
            ))}
          </select>
          <select aria-label="Currency" value={currency} onChange={(e) => setCurrency(e.target.value)}>
            <option value="">All currencies</option>
            {summary.currencies
              .filter((c) => c.currency)
              .map((c) => (
                <option key={c.currency}>{c.currency}</option>
              ))}
          </select>
          <input
            type="search"
            aria-label="Search rows"
            placeholder="Transaction no., reference…"
            value={search}
            onChange={(e) => setSearch(e.target.value)}
          />
          <span className="muted small" data-testid="recon-row-count">
            {f.count(filtered.length)} row{filtered.length === 1 ? '' : 's'}
          </span>
        </div>
        {/* The detail opens beside the rows (below them in a narrow window), in view: never under a long table. */}
        <div className={selected ? 'recon-rows-layout with-detail' : 'recon-rows-layout'}>
          <ReconRowsTable rows={filtered} onSelect={setSelected} {...(selected ? { selected } : {})} />
          {selected && <RowDetail item={selected} onClose={() => setSelected(null)} />}
        </div>
      </section>
    </div>
  );
}
