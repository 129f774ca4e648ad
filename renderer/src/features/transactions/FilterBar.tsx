import { REFUNDED_STATES } from '../../../../shared/domain/transaction';
import { DateField } from '../../lib/ui/DateField';
import { TRANSACTION_STATUSES } from '../../../../shared/protocol/statuses';
import { REFUNDED_STATE_LABELS, transactionStatusLabel, vendorLabel } from '../../../../shared/domain/labels';
import { useFormat } from '../preferences/use-prefs';
import {
  amountCurrency,
  EMPTY_FILTER,
  filterProblems,
  isFilterActive,
  type TransactionFilter,
} from './filters';
import { MultiPick } from './MultiPick';

interface Props {
  filter: TransactionFilter;
  onChange(f: TransactionFilter): void;
  currencies: readonly string[];
  vendors: readonly string[];
}

/** Filters over the cached list: status, currency, vendor, created date, amount and id text. */
export function FilterBar({ filter, onChange, currencies, vendors }: Props) {
  const format = useFormat();
  const set = <K extends keyof TransactionFilter>(k: K, v: TransactionFilter[K]) =>
    onChange({ ...filter, [k]: v });
  const ctx = { cachedCurrencies: currencies, locale: format.locale };
  const problems = filterProblems(filter, ctx, format.amount);
  const amountIn = amountCurrency(filter, ctx);
  return (
    <div className="tx-filters" role="group" aria-label="Filters">
      <input
        type="search"
        className="tx-filter-text"
        aria-label="Filter by id or reference"
        placeholder="Filter ids / reference"
        value={filter.text}
        onChange={(e) => set('text', e.target.value)}
      />
      <MultiPick
        label="Status"
        options={[...TRANSACTION_STATUSES, 'unknown'].map((s) => ({
          value: s,
          label: transactionStatusLabel(s),
          title: `Service status: ${s}`,
        }))}
        value={filter.statuses}
        onChange={(v) => set('statuses', v)}
      />
      <MultiPick
        label="Refunded"
        options={REFUNDED_STATES.map((s) => ({
          value: s,
          label: REFUNDED_STATE_LABELS[s] ?? s,
          title: 'Derived from the refunds the service lists (the service’s own status stays as it is)',
        }))}
        value={filter.refunded}
        onChange={(v) => set('refunded', v)}
      />
      <MultiPick
        label="Currency"
        options={currencies.map((c) => ({ value: c, label: c }))}
        value={filter.currencies}
        onChange={(v) => set('currencies', v)}
      />
      <MultiPick
        label="Vendor"
        options={vendors.map((v) => ({ value: v, label: vendorLabel(v) ?? v, title: `Service code: ${v}` }))}
        value={filter.vendors}
        onChange={(v) => set('vendors', v)}
      />
      <span className="tx-filter-group" title={`Calendar days in ${format.zoneSentence}`}>
        {(['from', 'to'] as const).map((end) => {
          const key = end === 'from' ? 'fromDate' : 'toDate';
          return (
            <label className="tx-filter-field" key={end}>
              <span className="muted">{end === 'from' ? `Created (${format.zoneLabel})` : 'to'}</span>
              <DateField
                aria-label={`Created ${end} (date in ${format.zoneLabel})`}
                value={filter[key]}
                onChange={(v) => set(key, v)}
              />
            </label>
          );
        })}
      </span>
      <span className="tx-filter-group">
        {(['min', 'max'] as const).map((end) => {
          const key = end === 'min' ? 'minAmount' : 'maxAmount';
          const word = end === 'min' ? 'Minimum' : 'Maximum';
          return (
            <label className="tx-filter-field" key={end}>
              <span className="muted">
                {end === 'min' ? `Amount${amountIn ? ` (${amountIn})` : ''}` : '–'}
              </span>
              <input
                className="amount"
                inputMode="decimal"
                aria-label={
                  amountIn ? `${word} amount in ${amountIn}` : `${word} amount (choose one currency first)`
                }
                aria-describedby={amountIn ? undefined : 'tx-amount-needs-currency'}
                placeholder={end}
                // Enabled while a stored bound remains, so it can be cleared.
                disabled={!amountIn && filter[key] === ''}
                value={filter[key]}
                onChange={(e) => set(key, e.target.value)}
              />
            </label>
          );
        })}
      </span>
      {!amountIn && (
        <span className="small muted" id="tx-amount-needs-currency">
          Amounts: pick one currency first.
        </span>
      )}
      {isFilterActive(filter) && (
        <button type="button" className="link" onClick={() => onChange(EMPTY_FILTER)}>
          Clear filters
        </button>
      )}
      {problems.length > 0 && (
        <div className="tx-filter-problems" role="alert">
          {problems.join(' ')}
        </div>
      )}
    </div>
  );
}
