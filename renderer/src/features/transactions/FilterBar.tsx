import { TRANSACTION_STATUSES } from '../../../../shared/protocol/statuses';
import { EMPTY_FILTER, filterProblems, isFilterActive, type TransactionFilter } from './filters';
import { MultiPick } from './MultiPick';

interface Props {
  filter: TransactionFilter;
  onChange(f: TransactionFilter): void;
  currencies: readonly string[];
  vendors: readonly string[];
}

/** Filters over the cached list: status, currency, vendor, created date, amount and id text. */
export function FilterBar({ filter, onChange, currencies, vendors }: Props) {
  const set = <K extends keyof TransactionFilter>(k: K, v: TransactionFilter[K]) =>
    onChange({ ...filter, [k]: v });
  const problems = filterProblems(filter);
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
        options={[...TRANSACTION_STATUSES, 'unknown']}
        value={filter.statuses}
        onChange={(v) => set('statuses', v)}
      />
      <MultiPick
        label="Currency"
        options={currencies}
        value={filter.currencies}
        onChange={(v) => set('currencies', v)}
      />
      <MultiPick
        label="Vendor"
        options={vendors}
        value={filter.vendors}
        onChange={(v) => set('vendors', v)}
      />
      <label className="tx-filter-field">
        <span className="muted">From</span>
        <input
          type="date"
          aria-label="Created from (local date)"
          value={filter.fromDate}
          onChange={(e) => set('fromDate', e.target.value)}
        />
      </label>
      <label className="tx-filter-field">
        <span className="muted">to</span>
        <input
          type="date"
          aria-label="Created to (local date)"
          value={filter.toDate}
          onChange={(e) => set('toDate', e.target.value)}
        />
      </label>
      <label className="tx-filter-field">
        <span className="muted">Amount</span>
        <input
          className="amount"
          inputMode="decimal"
          aria-label="Minimum amount"
          placeholder="min"
          value={filter.minAmount}
          onChange={(e) => set('minAmount', e.target.value)}
        />
      </label>
      <label className="tx-filter-field">
        <span className="muted">–</span>
        <input
          className="amount"
          inputMode="decimal"
          aria-label="Maximum amount"
          placeholder="max"
          value={filter.maxAmount}
          onChange={(e) => set('maxAmount', e.target.value)}
        />
      </label>
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
