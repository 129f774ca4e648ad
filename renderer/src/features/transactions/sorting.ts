import type { ColumnSpec } from './columns';
import type { ListRow } from '../../db/owner';
import { radixSortBy } from './radix';
import { columnKeys, numberOrder } from './sort-keys';

export { numberOrder };

export type Sorting = ReadonlyArray<{ id: string; desc: boolean }>;

/**
 * The order of the rows under `sorting` (first column wins), as row indexes: missing values last in
 * both directions; a column with a `sortGroup` (money: the currency) sorts within each group, groups
 * A–Z, so IDR 6,700,000 is never ranked above $90; ties fall back to transactionNo, so the order — and
 * therefore the export — is deterministic.
 *
 * A stable radix sort over each column's precomputed keys (sort-keys.ts), least significant first:
 * transaction number, then for each column from the last to the first its value, whether it is missing,
 * its group. No comparator runs per pair of rows.
 */
export function sortOrder(
  rows: readonly ListRow[],
  sorting: Sorting,
  columns: readonly ColumnSpec[],
): Uint32Array {
  // The last order made of these rows is kept: the list prepares it before the render that shows it.
  const key = JSON.stringify(sorting);
  const last = lastOrder.get(rows);
  if (last?.key === key && last.columns === columns) return last.order;
  const order = makeOrder(rows, sorting, columns);
  lastOrder.set(rows, { key, columns, order });
  return order;
}

const lastOrder = new WeakMap<
  readonly ListRow[],
  { key: string; columns: readonly ColumnSpec[]; order: Uint32Array }
>();

function makeOrder(rows: readonly ListRow[], sorting: Sorting, columns: readonly ColumnSpec[]): Uint32Array {
  const keys = sorting
    .map((s) => ({ spec: columns.find((c) => c.id === s.id), desc: s.desc }))
    .filter((k): k is { spec: ColumnSpec; desc: boolean } => k.spec !== undefined);
  const order = new Uint32Array(rows.length);
  if (keys.length === 0) {
    // No sort: the order the rows are held in.
    for (let i = 0; i < order.length; i += 1) order[i] = i;
    return order;
  }
  order.set(numberOrder(rows));
  for (const { spec, desc } of [...keys].reverse()) {
    const k = columnKeys(rows, spec);
    radixSortBy(order, k.lo, desc);
    if (k.hi) radixSortBy(order, k.hi, desc);
    if (k.missing) radixSortBy(order, k.missing);
    if (k.group) radixSortBy(order, k.group);
  }
  return order;
}

/** The rows in `order` (row indexes), as an array. */
export function rowsInOrder(rows: readonly ListRow[], order: Uint32Array): ListRow[] {
  const out = new Array<ListRow>(order.length);
  for (let i = 0; i < order.length; i += 1) out[i] = rows[order[i]!]!;
  return out;
}

/** The rows sorted by `sorting` (see sortOrder), as a new array. */
export function sortRows(
  rows: readonly ListRow[],
  sorting: Sorting,
  columns: readonly ColumnSpec[],
): ListRow[] {
  return rowsInOrder(rows, sortOrder(rows, sorting, columns));
}
