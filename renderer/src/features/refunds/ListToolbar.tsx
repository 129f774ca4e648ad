import type { ReactNode } from 'react';
import { ExportButtons } from '../../lib/ui/ExportButtons';

interface Props {
  label: string;
  /** The list-specific first filter (state, outcome). */
  children: ReactNode;
  currencies: readonly string[];
  currency: string;
  onCurrency: (currency: string) => void;
  text: string;
  onText: (text: string) => void;
  placeholder: string;
  shown: number;
  total: number;
  onExport: (kind: 'csv' | 'xlsx') => void;
}

/** The filter bar shared by the Refunds and Audit views: a list filter, currency, search, count, exports. */
export function ListToolbar(p: Props) {
  return (
    <div className="rd-toolbar" role="search" aria-label={p.label}>
      {p.children}
      <label>
        Currency{' '}
        <select value={p.currency} onChange={(e) => p.onCurrency(e.target.value)}>
          <option value="all">All</option>
          {p.currencies.map((c) => (
            <option key={c} value={c}>
              {c}
            </option>
          ))}
        </select>
      </label>
      <label>
        Search{' '}
        <input
          type="search"
          value={p.text}
          placeholder={p.placeholder}
          onChange={(e) => p.onText(e.target.value)}
        />
      </label>
      <span className="muted small">
        {p.shown} of {p.total}
      </span>
      <ExportButtons className="rd-push-right rd-exports" disabled={p.shown === 0} onExport={p.onExport} />
    </div>
  );
}
