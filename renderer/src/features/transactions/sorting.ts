import type { ColumnSpec } from './columns';
import type { ListRow } from '../../db/owner';

export type Sorting = ReadonlyArray<{ id: string; desc: boolean }>;

function compare(a: string | number | undefined, b: string | number | undefined): number {
  if (a === b) return 0;
  // Missing values sort last whatever the direction is handled by the caller.
  if (a === undefined) return 1;
  if (b === undefined) return -1;
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  // Ids are strings of equal length; plain code-unit order is right for them and for ISO instants.
  return String(a) < String(b) ? -1 : 1;
}

/**
 * Sorts rows by the given columns (first wins), leaving missing values at the end in both directions.
 * A column with a `sortGroup` (money columns: the currency) sorts within each group, groups A–Z, so
 * IDR 6,700,000 is never ranked above $90. Ties keep the input order (sort is stable), then fall back
 * to transactionNo so the order — and therefore the export — is deterministic.
 */
export function sortRows(
  rows: readonly ListRow[],
  sorting: Sorting,
  columns: readonly ColumnSpec[],
): ListRow[] {
  const keys = sorting
    .map((s) => ({ spec: columns.find((c) => c.id === s.id), desc: s.desc }))
    .filter((k): k is { spec: ColumnSpec; desc: boolean } => k.spec !== undefined);
  const out = rows.slice();
  if (keys.length === 0) return out;
  return out.sort((x, y) => {
    for (const { spec, desc } of keys) {
      if (spec.sortGroup) {
        const g = compare(spec.sortGroup(x), spec.sortGroup(y));
        if (g !== 0) return g;
      }
      const a = spec.sortValue(x);
      const b = spec.sortValue(y);
      if (a === undefined || b === undefined) {
        const c = compare(a, b);
        if (c !== 0) return c;
        continue;
      }
      const c = compare(a, b);
      if (c !== 0) return desc ? -c : c;
    }
    return x.transactionNo < y.transactionNo ? -1 : x.transactionNo > y.transactionNo ? 1 : 0;
  });
}
