import { usePopover } from '../../lib/ui/use-popover';
import { useFormat } from '../preferences/use-prefs';
import { type CurrencyTotal, TOTALS_BASES, TOTALS_BASIS_LABELS, type TotalsBasis } from './totals';

const SHOWN = 3;

/**
 * Count and per-currency sums of the rows shown — never one grand total across currencies. It says
 * what it adds up (by default successful payments net of refunds) and can be switched; "+N currencies"
 * opens every currency with gross, refunded and net. While the list holds only its first screen
 * (`complete` false) it says it is still counting and shows no sums: a partial total is never shown as one.
 */
export function TotalsBar({
  shown,
  cached,
  complete = true,
  reading = false,
  totals,
  basis,
  onBasis,
}: {
  shown: number;
  cached: number;
  complete?: boolean;
  /**
   * The count and totals are final (from the summary of the last complete read) while the rows are still
   * being read: only the newest screen is on the list yet.
   */
  reading?: boolean;
  totals: readonly CurrencyTotal[];
  basis: TotalsBasis;
  onBasis(b: TotalsBasis): void;
}) {
  const f = useFormat();
  const more = usePopover();
  const counted = totals.reduce((n, t) => n + t.count, 0);
  return (
    <div
      className="tx-totals"
      data-testid="tx-totals"
      role="group"
      aria-label="Totals of the rows shown"
      aria-busy={!complete}
    >
      {complete ? (
        <span>
          <strong data-testid="tx-count">{f.count(shown)}</strong> of {f.count(cached)} cached shown
          {reading && (
            <span className="muted small" data-testid="tx-reading">
              {' '}
              · the newest are listed while the rest is read
            </span>
          )}
        </span>
      ) : (
        <span>
          Newest <strong data-testid="tx-count">{f.count(shown)}</strong> shown ·{' '}
          <span className="muted" data-testid="tx-counting">
            counting…
          </span>
        </span>
      )}
      <label className="tx-basis">
        <span className="muted">Totals:</span>
        <select
          value={basis}
          onChange={(e) => onBasis(e.target.value as TotalsBasis)}
          data-testid="totals-basis"
          aria-label="What the totals add up"
        >
          {TOTALS_BASES.map((b) => (
            <option key={b} value={b}>
              {TOTALS_BASIS_LABELS[b]}
            </option>
          ))}
        </select>
      </label>
      {!complete && <span className="muted small">totals once every cached row is read</span>}
      {complete && (
        <span className="muted small" data-testid="tx-counted">
          {f.count(counted)} payment{counted === 1 ? '' : 's'}
        </span>
      )}
      {complete && totals.length === 0 && <span className="muted">nothing to add up</span>}
      {(complete ? totals.slice(0, SHOWN) : []).map((t) => (
        <span
          key={t.currency}
          className="tx-total"
          data-currency={t.currency}
          title={`${f.count(t.count)} ${t.currency} payments · gross ${f.money(t.grossMinor, t.currency)} · refunded ${f.money(t.refundedMinor, t.currency)} · net ${f.money(t.netMinor, t.currency)}`}
        >
          {f.money(t.shownMinor, t.currency)}
          <span className="muted small"> ({f.count(t.count)})</span>
        </span>
      ))}
      {complete && totals.length > SHOWN && (
        <details className="popover" ref={more} data-testid="totals-more">
          <summary>
            +{totals.length - SHOWN} currenc{totals.length - SHOWN === 1 ? 'y' : 'ies'}
          </summary>
          <div className="popover-panel tx-totals-panel">
            <table className="tx-totals-table" data-testid="totals-table">
              <caption>{TOTALS_BASIS_LABELS[basis]}, per currency</caption>
              <thead>
                <tr>
                  <th scope="col">Currency</th>
                  <th scope="col" className="num">
                    Payments
                  </th>
                  <th scope="col" className="num">
                    Gross
                  </th>
                  <th scope="col" className="num">
                    Refunded
                  </th>
                  <th scope="col" className="num">
                    Net
                  </th>
                </tr>
              </thead>
              <tbody>
                {totals.map((t) => (
                  <tr key={t.currency} data-currency={t.currency}>
                    <th scope="row">{t.currency}</th>
                    <td className="num">{f.count(t.count)}</td>
                    <td className="num">{f.money(t.grossMinor, t.currency)}</td>
                    <td className="num">{f.money(t.refundedMinor, t.currency)}</td>
                    <td className="num">{f.money(t.netMinor, t.currency)}</td>
                  </tr>
                ))}
              </tbody>
            </table>
            <p className="small muted">Refunded counts refunds that succeeded or are still pending.</p>
          </div>
        </details>
      )}
    </div>
  );
}
