import { useMemo, useState } from 'react';
import { REPORT_COLUMNS, SUMMARY_COLUMNS } from '../../../../shared/recon/export';
import {
  OUTCOME_LABELS,
  RECON_OUTCOMES,
  type ReconItem,
  type ReconOutcome,
} from '../../../../shared/recon/match';
import { exportCommands, useCommands } from '../../app/nav';
import type { CsvColumn } from '../../../../shared/csv/writer';
import { downloadExport } from '../../lib/download';
import { ExportButtons } from '../../lib/ui/ExportButtons';
import { useFormat } from '../preferences/use-prefs';
import { ReconRowDetail } from './ReconRowDetail';
import { ReconRowsTable } from './ReconRowsTable';
import { SummaryChart } from './SummaryChart';
import type { ReconReport } from './use-recon-run';

interface Props {
  label: string;
  report: ReconReport;
  problems: Array<{ line: number; message: string }>;
  onStartOver: () => void;
  /** The active profile's name, for export file names. */
  profileName: string;
}

/** Step 4: summary per currency, chart, exceptions table with filters, exports. */
export function ReportView({ label, report, problems, onStartOver, profileName }: Props) {
  const [outcome, setOutcome] = useState<ReconOutcome | 'exceptions' | 'all'>('exceptions');
  const [currency, setCurrency] = useState('');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ReconItem | null>(null);
  const { summary, items } = report;
  const f = useFormat();
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
    exportAs(kind, 'report', 'Reconciliation', REPORT_COLUMNS, items);
  const exportSummary = (kind: 'csv' | 'xlsx') => {
    const generatedAt = new Date().toISOString();
    const rows = summary.currencies.map((c) => ({ ...c, generatedAt }));
    return exportAs(kind, 'summary', 'Summary', SUMMARY_COLUMNS, rows);
  };
  useCommands('reconciliation', [
    ...exportCommands({
      id: 'recon.report',
      what: 'the reconciliation report',
      group: 'Reconciliation',
      run: exportReport,
    }),
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
        (!currency || i.ledger.currency === currency) &&
        (!q ||
          [i.ledger.transactionNo, i.ledger.reference, i.service?.transactionNo, i.detail].some((t) =>
            t?.toLowerCase().includes(q),
          )),
    );
  }, [items, outcome, currency, search]);

  return (
    <div className="recon-report">
      <section className="recon-card" aria-labelledby="recon-summary">
        <div className="recon-head">
          <h2 id="recon-summary">{label}</h2>
          <div className="recon-actions">
            {(
              [
                ['Report', 'Every row', 'Export report CSV', exportReport],
                ['Summary', 'Totals per currency', 'Export summary CSV', exportSummary],
              ] as const
            ).map(([name, what, csvLabel, run]) => (
              <span key={name} className="recon-export-group" role="group" aria-label={`${name}: ${what}`}>
                <span className="small muted">{name}</span>
                <ExportButtons
                  className="recon-export-buttons"
                  buttonClassName="button"
                  what={what}
                  csvLabel={csvLabel}
                  xlsxLabel="Excel"
                  onExport={(kind) => void run(kind)}
                />
              </span>
            ))}
            <button type="button" className="button" onClick={onStartOver}>
              New reconciliation
            </button>
          </div>
        </div>
        <ul className="recon-counts" data-testid="recon-counts">
          {RECON_OUTCOMES.filter((o) => summary.counts[o] > 0).map((o) => (
            <li key={o} data-outcome={o} className={o === 'matched' ? 'ok' : 'bad'}>
              <button type="button" className="link" onClick={() => setOutcome(o)}>
                <strong>{f.count(summary.counts[o])}</strong> {OUTCOME_LABELS[o]}
              </button>
            </li>
          ))}
          {problems.length > 0 && (
            <li className="bad" data-outcome="unreadable">
              <strong>{problems.length}</strong> unreadable row{problems.length === 1 ? '' : 's'} (line
              {problems.length === 1 ? '' : 's'}{' '}
              {problems
                .slice(0, 5)
                .map((p) => p.line)
                .join(', ')}
              {problems.length > 5 ? ', …' : ''})
            </li>
          )}
        </ul>
        <div className="recon-summary-grid">
          <table className="recon-table recon-summary-table" aria-label="Totals per currency">
            <thead>
              <tr>
                <th>Currency</th>
                <th className="num">Rows</th>
                <th className="num">Ledger total</th>
                <th className="num">Service total</th>
                <th className="num">Refunds</th>
                <th className="num">Difference</th>
                <th className="num">Unexplained</th>
              </tr>
            </thead>
            <tbody>
              {summary.currencies.map((c) => (
                <tr key={c.currency}>
                  <td>{c.currency}</td>
                  <td className="num">{c.rows}</td>
                  <td className="num">{f.money(c.ledgerTotalMinor, c.currency)}</td>
                  <td className="num">{f.money(c.serviceTotalMinor, c.currency)}</td>
                  <td className="num">{f.money(c.serviceRefundsMinor, c.currency)}</td>
                  <td className={c.differenceMinor === 0 ? 'num' : 'num bad'}>
                    {f.money(c.differenceMinor, c.currency)}
                  </td>
                  <td className={c.unexplainedMinor === 0 ? 'num' : 'num bad'}>
                    {f.money(c.unexplainedMinor, c.currency)}
                  </td>
                </tr>
              ))}
            </tbody>
          </table>
          <SummaryChart currencies={summary.currencies} />
        </div>
      </section>

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
            {summary.currencies.map((c) => (
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
        <ReconRowsTable
          rows={filtered}
          onSelect={setSelected}
          {...(selected ? { selectedLine: selected.line } : {})}
        />
      </section>

      {selected && <ReconRowDetail item={selected} onClose={() => setSelected(null)} />}
    </div>
  );
}
