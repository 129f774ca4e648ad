import type { BatchTotal } from '../../../../../shared/batch/result';
import { useFormat } from '../../preferences/use-prefs';

/** Money per currency, never summed across them: "1,234.50 USD in 120 rows · 99.00 EUR in 3 rows". */
export function TotalsList({
  totals,
  testId,
  block = false,
}: {
  totals: readonly BatchTotal[];
  testId?: string;
  /** One currency a line (a summary, the confirmation) rather than inline in a sentence. */
  block?: boolean;
}) {
  const f = useFormat();
  if (totals.length === 0) return <span data-testid={testId}>nothing</span>;
  return (
    <ul className={block ? 'rb-totals rb-totals-block' : 'rb-totals'} data-testid={testId}>
      {totals.map((t) => (
        <li key={t.currency} data-currency={t.currency} data-minor={t.amountMinor}>
          <strong className="num">{f.money(t.amountMinor, t.currency)}</strong> in {f.count(t.rows)}{' '}
          {t.rows === 1 ? 'row' : 'rows'}
        </li>
      ))}
    </ul>
  );
}
