import type { CurrencySummary } from '../../../../shared/recon/summary';
import { useFormat } from '../preferences/use-prefs';
import { differenceParts } from './report-parts';

/**
 * "Where is the money": per currency, the difference (ledger − service) broken down by outcome. It is
 * a table first — every figure is text in a cell, readable without the bars — and each row carries a
 * bar on one scale for the whole currency (the largest part is full width), growing right when the
 * ledger has more and left when the service has more. Amounts in different currencies are never
 * compared, so each currency has its own table.
 */
export function SummaryChart({ currencies }: { currencies: readonly CurrencySummary[] }) {
  const f = useFormat();
  const shown = currencies.filter(
    (c) => c.currency && (c.differenceMinor !== 0 || differenceParts(c).length > 0),
  );
  if (shown.length === 0)
    return (
      <p className="recon-chart-none" data-testid="recon-chart">
        No differences: in every currency the ledger total equals the service total.
      </p>
    );
  return (
    <div className="recon-breakdown" data-testid="recon-chart">
      {shown.map((c) => {
        const parts = differenceParts(c);
        const max = Math.max(1, Math.abs(c.differenceMinor), ...parts.map((p) => Math.abs(p.amountMinor)));
        const bar = (m: number) => (
          <span className="bar-track" aria-hidden="true">
            <span
              className={m >= 0 ? 'bar ledger-more' : 'bar service-more'}
              style={{ width: `${(Math.abs(m) / max) * 50}%`, [m >= 0 ? 'left' : 'right']: '50%' }}
            />
          </span>
        );
        return (
          <table key={c.currency} className="recon-table recon-breakdown-table">
            <caption>
              {c.currency}: difference {f.money(c.differenceMinor, c.currency)}{' '}
              <span className="muted">(ledger − service)</span>
            </caption>
            <thead>
              <tr>
                <th scope="col">Where it comes from</th>
                <th scope="col" className="num">
                  Rows
                </th>
                <th scope="col" className="num">
                  Amount
                </th>
                <th scope="col">
                  <span className="visually-hidden">Bar: </span>← service has more · ledger has more →
                </th>
              </tr>
            </thead>
            <tbody>
              {parts.map((p) => (
                <tr key={p.key} data-part={p.key}>
                  <th scope="row">{p.label}</th>
                  <td className="num">{p.rows ? f.count(p.rows) : p.rows === 0 ? '—' : ''}</td>
                  <td className="num">{f.money(p.amountMinor, c.currency)}</td>
                  <td className="bar-cell">{bar(p.amountMinor)}</td>
                </tr>
              ))}
              <tr className="total">
                <th scope="row">Difference</th>
                <td />
                <td className="num">{f.money(c.differenceMinor, c.currency)}</td>
                <td className="bar-cell">{bar(c.differenceMinor)}</td>
              </tr>
            </tbody>
          </table>
        );
      })}
    </div>
  );
}
