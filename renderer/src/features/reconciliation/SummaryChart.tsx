import type { CurrencySummary } from '../../../../shared/recon/summary';
import { useFormat } from '../preferences/use-prefs';

/**
 * Ledger vs service total per currency as inline SVG bars (no chart library: CSP allows only our own
 * code). Each currency is scaled on its own, since amounts in different currencies do not compare.
 */
export function SummaryChart({ currencies }: { currencies: readonly CurrencySummary[] }) {
  const f = useFormat();
  const rowH = 30;
  const labelW = 44;
  const barW = 420;
  const width = labelW + barW + 170;
  const height = currencies.length * rowH + 24;
  return (
    <figure className="recon-chart">
      <svg
        viewBox={`0 0 ${width} ${height}`}
        width="100%"
        role="img"
        aria-label="Ledger total and service total per currency"
      >
        {currencies.map((c, i) => {
          const max = Math.max(Math.abs(c.ledgerTotalMinor), Math.abs(c.serviceTotalMinor), 1);
          const y = i * rowH + 4;
          const lw = Math.round((Math.abs(c.ledgerTotalMinor) / max) * barW);
          const sw = Math.round((Math.abs(c.serviceTotalMinor) / max) * barW);
          return (
            <g key={c.currency}>
              <text x={0} y={y + 16} className="chart-label">
                {c.currency}
              </text>
              <rect x={labelW} y={y} width={lw} height={10} className="bar-ledger" />
              <rect x={labelW} y={y + 12} width={sw} height={10} className="bar-service" />
              <text
                x={labelW + barW + 8}
                y={y + 16}
                className={c.differenceMinor === 0 ? 'chart-diff' : 'chart-diff bad'}
              >
                {c.differenceMinor === 0 ? 'no difference' : `Δ ${f.money(c.differenceMinor, c.currency)}`}
              </text>
            </g>
          );
        })}
        <g transform={`translate(${labelW}, ${height - 10})`}>
          <rect width={10} height={8} className="bar-ledger" />
          <text x={14} y={8} className="chart-legend">
            ledger
          </text>
          <rect x={70} width={10} height={8} className="bar-service" />
          <text x={84} y={8} className="chart-legend">
            service
          </text>
        </g>
      </svg>
    </figure>
  );
}
