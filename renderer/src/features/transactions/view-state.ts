import { z } from 'zod';
import { EMPTY_FILTER, type TransactionFilter } from './filters';
import { TOTALS_BASES, type TotalsBasis } from './totals';

/** The remembered state of the list: filters, sort, hidden columns, column widths and totals basis. */
export interface ViewState {
  filter: TransactionFilter;
  sorting: { id: string; desc: boolean }[];
  hiddenColumns: string[];
  /** Widths a person dragged, in px; other columns size to their content. */
  columnWidths: Record<string, number>;
  totalsBasis: TotalsBasis;
}

export const DEFAULT_VIEW: ViewState = {
  filter: EMPTY_FILTER,
  sorting: [{ id: 'createdAt', desc: true }],
  hiddenColumns: ['settleCurrency', 'paidAt', 'fetchedAt', 'currency'],
  columnWidths: {},
  totalsBasis: 'net',
};

/** The meta key the view is stored under (per profile). */
export const VIEW_STATE_KEY = 'transactions.view';

const strList = z.array(z.string().max(64)).max(200);
const str = z.string().max(200);
const schema = z
  .object({
    filter: z
      .object({
        statuses: strList,
        refunded: strList,
        currencies: strList,
        vendors: strList,
        fromDate: str,
        toDate: str,
        minAmount: str,
        maxAmount: str,
        text: str,
      })
      .partial(),
    sorting: z.array(z.object({ id: z.string().max(64), desc: z.boolean() })).max(5),
    hiddenColumns: strList,
    columnWidths: z.record(z.string().max(64), z.number().int().min(24).max(1200)),
    totalsBasis: z.enum(TOTALS_BASES),
  })
  .partial();

/**
 * Reads a stored view leniently: an older or damaged value falls back to the defaults field by field,
 * so a bad value never breaks the screen. Unknown column ids are dropped.
 */
export function parseViewState(value: unknown, knownColumns: readonly string[]): ViewState {
  const parsed = schema.safeParse(value);
  if (!parsed.success) return DEFAULT_VIEW;
  const v = parsed.data;
  const known = new Set(knownColumns);
  return {
    filter: { ...EMPTY_FILTER, ...v.filter },
    sorting: (v.sorting ?? DEFAULT_VIEW.sorting).filter((s) => known.has(s.id)),
    hiddenColumns: (v.hiddenColumns ?? DEFAULT_VIEW.hiddenColumns).filter((c) => known.has(c)),
    columnWidths: Object.fromEntries(Object.entries(v.columnWidths ?? {}).filter(([k]) => known.has(k))),
    totalsBasis: v.totalsBasis ?? DEFAULT_VIEW.totalsBasis,
  };
}
