import { TRANSACTION_STATUSES } from '../../../../shared/protocol/statuses';
import { transactionStatusLabel, vendorLabel } from '../../../../shared/domain/labels';
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
  const ctx = { cachedCurrencies: currencies };
  const problems = filterProblems(filter, ctx);
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
      <span className="tx-filter-group">
        <label className="tx-filter-field" title={`Calendar days in ${format.zoneSentence}`}>
          <span className="muted">Created ({format.zoneLabel})</span>
          <input
            type="date"
            aria-label={`Created from (date in ${format.zoneLabel})`}
            value={filter.fromDate}
            onChange={(e) => set('fromDate', e.target.value)}
          />
        </label>
        <label className="tx-filter-field">
          <span className="muted">to</span>
          <input
            type="date"
            aria-label={`Created to (date in ${format.zoneLabel})`}
            value={filter.toDate}
            onChange={(e) => set('toDate', e.target.value)}
          />
        </label>
      </span>
      <span className="tx-filter-group">
        <label className="tx-filter-field">
          <span className="muted">Amount{amountIn ? ` (${amountIn})` : ''}</span>
          <input
            className="amount"
            inputMode="decimal"
            aria-label={
              amountIn ? `Minimum amount in ${amountIn}` : 'Minimum amount (choose one currency first)'
            }
            aria-describedby={amountIn ? undefined : 'tx-amount-needs-currency'}
            placeholder="min"
            disabled={!amountIn && filter.minAmount === ''}
            value={filter.minAmount}
            onChange={(e) => set('minAmount', e.target.value)}
          />
        </label>
        <label className="tx-filter-field">
          <span className="muted">–</span>
          <input
            className="amount"
            inputMode="decimal"
            aria-label={
              amountIn ? `Maximum amount in ${amountIn}` : 'Maximum amount (choose one currency first)'
            }
            aria-describedby={amountIn ? undefined : 'tx-amount-needs-currency'}
            placeholder="max"
            disabled={!amountIn && filter.maxAmount === ''}
            value={filter.maxAmount}
            onChange={(e) => set('maxAmount', e.target.value)}
          />
        </label>
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
