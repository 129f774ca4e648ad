import type { Formatters } from '../preferences/format';
import { type ColumnSpec, columnHeader } from './columns';
import type { ListStats } from '../../db/owner';

/** Narrowest a person can drag a column; auto widths never go below it either. */
export const MIN_COLUMN_WIDTH = 48;
export const MAX_COLUMN_WIDTH = 640;
/** Cell padding (8 px each side) plus room so the last digit never touches the edge. */
const CELL_PADDING = 18;
/** Header extras: cell padding, the sort mark and its gap (the resize handle overlaps the edge). */
const HEADER_EXTRA = 26;

let canvas: HTMLCanvasElement | undefined;

/** Width of the widest text in a font, in px (canvas measureText; 0 where no canvas exists). */
export function textWidth(texts: readonly string[], font: string): number {
  canvas ??= typeof document === 'undefined' ? undefined : document.createElement('canvas');
  const ctx = canvas?.getContext('2d');
  if (!ctx) return Math.max(0, ...texts.map((t) => t.length * 8));
  ctx.font = font;
  let max = 0;
  for (const t of texts) max = Math.max(max, ctx.measureText(t).width);
  return max;
}

/**
 * Each column's width from what it will show: the widest value among the list's rows (and the header), so
 * amounts are never cut off and no space is wasted. Money columns measure the largest amount of every
 * currency present, so "IDR 6,798,000" fits. Digits are measured in the grid's font with a 3 % margin
 * for tabular figures.
 */
export function contentWidths(
  stats: ListStats,
  columns: readonly ColumnSpec[],
  f: Formatters,
  fonts: { cell: string; header: string; bold: string },
): Record<string, number> {
  const out: Record<string, number> = {};
  for (const c of columns) {
    const content = textWidth(c.widest(stats, f), c.bold ? fonts.bold : fonts.cell) * 1.03 + CELL_PADDING;
    const header = textWidth([columnHeader(c, f)], fonts.header) + HEADER_EXTRA;
    out[c.id] = Math.round(Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, content, header)));
  }
  return out;
}

/**
 * Which columns a narrowed list shows (the detail panel beside it): the most telling ones first, as many
 * as fit whole in `available` px, kept in list order. Nothing is then pinned over anything else, so no
 * column shows one letter under the money columns. The transaction number always stays.
 */
export const FIT_PRIORITY = [
  'transactionNo',
  'amount',
  'remaining',
  'status',
  'createdAt',
  'reference',
  'refunded',
  'vendor',
  'paidAt',
  'currency',
  'settleCurrency',
  'fetchedAt',
] as const;

export function fitColumns<C extends { id: string }>(
  columns: readonly C[],
  width: (c: C) => number,
  available: number,
): C[] {
  const rank = (id: string) => {
    const i = (FIT_PRIORITY as readonly string[]).indexOf(id);
    return i < 0 ? FIT_PRIORITY.length : i;
  };
  const keep = new Set<string>();
  let used = 0;
  for (const c of [...columns].sort((a, b) => rank(a.id) - rank(b.id))) {
    const w = width(c);
    if (c.id !== 'transactionNo' && used + w > available) continue;
    keep.add(c.id);
    used += w;
  }
  return columns.filter((c) => keep.has(c.id));
}
