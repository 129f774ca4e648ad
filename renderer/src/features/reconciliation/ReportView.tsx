import { useContext, useMemo, useState } from 'react';
import { reportCsv, summaryCsv } from '../../../../shared/recon/export';
import {
  OUTCOME_LABELS,
  RECON_OUTCOMES,
  type ReconItem,
  type ReconOutcome,
} from '../../../../shared/recon/match';
import { RefundDialogContext } from '../refunds/dialog-context';
import { downloadText } from '../../lib/download';
import { fileStamp, money } from './format';
import { ReconRowsTable } from './ReconRowsTable';
import { SummaryChart } from './SummaryChart';
import type { ReconReport } from './use-recon-run';

interface Props {
  label: string;
  report: ReconReport;
  problems: Array<{ line: number; message: string }>;
  onStartOver: () => void;
}

/** Step 4: summary per currency, chart, exceptions table with filters, exports. */
export function ReportView({ label, report, problems, onStartOver }: Props) {
  const [outcome, setOutcome] = useState<ReconOutcome | 'exceptions' | 'all'>('exceptions');
  const [currency, setCurrency] = useState('');
  const [search, setSearch] = useState('');
  const [selected, setSelected] = useState<ReconItem | null>(null);
  const refundDialog = useContext(RefundDialogContext);
  const { summary, items } = report;

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
            <button
              type="button"
              className="button"
              onClick={() => downloadText(fileStamp('report'), reportCsv(items))}
            >
              Export report CSV
            </button>
            <button
              type="button"
              className="button"
              onClick={() =>
                downloadText(fileStamp('summary'), summaryCsv(summary.currencies, new Date().toISOString()))
              }
            >
              Export summary CSV
            </button>
            <button type="button" className="button" onClick={onStartOver}>
              New reconciliation
            </button>
          </div>
        </div>
        <ul className="recon-counts" data-testid="recon-counts">
          {RECON_OUTCOMES.filter((o) => summary.counts[o] > 0).map((o) => (
            <li key={o} data-outcome={o} className={o === 'matched' ? 'ok' : 'bad'}>
              <button type="button" className="link" onClick={() => setOutcome(o)}>
                <strong>{summary.counts[o].toLocaleString()}</strong> {OUTCOME_LABELS[o]}
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
          <table className="recon-table recon-summary-table">
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
                  <td className="num">{money(c.ledgerTotalMinor, c.currency)}</td>
                  <td className="num">{money(c.serviceTotalMinor, c.currency)}</td>
                  <td className="num">{money(c.serviceRefundsMinor, c.currency)}</td>
                  <td className={c.differenceMinor === 0 ? 'num' : 'num bad'}>
                    {money(c.differenceMinor, c.currency)}
                  </td>
                  <td className={c.unexplainedMinor === 0 ? 'num' : 'num bad'}>
                    {money(c.unexplainedMinor, c.currency)}
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
            {filtered.length.toLocaleString()} row{filtered.length === 1 ? '' : 's'}
          </span>
        </div>
        <ReconRowsTable
          rows={filtered}
          onSelect={setSelected}
          {...(selected ? { selectedLine: selected.line } : {})}
        />
      </section>

      {selected && (
        <aside className="recon-card recon-detail" aria-label="Row detail" data-testid="recon-detail">
          <div className="recon-head">
            <h2>
              Line {selected.line}: {OUTCOME_LABELS[selected.outcome]}
            </h2>
            <button type="button" className="button" onClick={() => setSelected(null)}>
              Close
            </button>
          </div>
          <p>{selected.detail || 'Ledger and service agree.'}</p>
          <dl>
            <dt>Ledger</dt>
            <dd>
              {selected.ledger.transactionNo ?? '—'} · {selected.ledger.reference ?? 'no reference'} ·{' '}
              {money(selected.ledger.amountMinor, selected.ledger.currency)} ·{' '}
              {selected.ledger.statusText ?? selected.ledger.status}
              {selected.ledger.date ? ` · ${selected.ledger.date}` : ''}
            </dd>
            <dt>Service</dt>
            <dd>
              {selected.service
                ? `${selected.service.transactionNo} · ${selected.service.reference ?? 'no reference'} · ${money(selected.service.amountMinor, selected.service.currency)} · ${selected.service.status} · refunded ${money(selected.service.refundedMinor, selected.service.currency)}${selected.service.paidAt ? ` · paid ${new Date(selected.service.paidAt).toLocaleString()}` : ''}`
                : 'No record.'}
            </dd>
          </dl>
          {refundDialog &&
            selected.service?.status === 'success' &&
            selected.service.refundedMinor < selected.service.amountMinor && (
              <button
                type="button"
                className="button"
                onClick={() => selected.service && refundDialog.open(selected.service.transactionNo)}
              >
                Refund…
              </button>
            )}
        </aside>
      )}
    </div>
  );
}
