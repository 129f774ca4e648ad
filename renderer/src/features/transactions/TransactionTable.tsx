import {
  type ColumnDef,
  type ColumnSizingState,
  getCoreRowModel,
  useReactTable,
} from '@tanstack/react-table';
import {
  type CSSProperties,
  type KeyboardEvent,
  memo,
  type RefObject,
  useCallback,
  useEffect,
  useLayoutEffect,
  useMemo,
  useRef,
  useState,
} from 'react';
import { useFormat } from '../preferences/use-prefs';
import { type ColumnSpec, columnHeader } from './columns';
import { contentWidths, fitColumns, MAX_COLUMN_WIDTH, MIN_COLUMN_WIDTH } from './column-widths';
import type { ListRow } from '../../db/owner';
import type { ListStats } from '../../db/owner';
import { useFixedRows, windowStart } from './use-fixed-rows';
import { type PaintInput, paintRow, rowDomId } from './row-painter';
import type { IntentView } from '../../../../shared/ipc/contract/refunds';
import type { Sorting } from './sorting';

const ROW_HEIGHT = 32;
// A few rows beyond the screen, no more: each frame of a fast scroll paints and restyles every row in
// the window, so overscan is paid on every frame while it rarely saves a blank row.
const OVERSCAN = 4;
const NO_ROWS: ListRow[] = [];
const CHECK_WIDTH = 36;
const CHECK_CELL: CSSProperties = { width: CHECK_WIDTH, position: 'sticky', left: 0 };
const FONT_FAMILY = "system-ui, -apple-system, 'Segoe UI', Roboto, sans-serif";
const FONTS = {
  cell: `12.5px ${FONT_FAMILY}`,
  bold: `600 12px ${FONT_FAMILY}`,
  header: `600 12px ${FONT_FAMILY}`,
};

interface Props {
  rows: readonly ListRow[];
  /** What is known of every cached row (list-stats.ts): columns size to it. */
  stats: ListStats;
  columns: readonly ColumnSpec[];
  sorting: Sorting;
  onSort(id: string): void;
  /** Widths a person dragged (the others follow their content). */
  widths: Readonly<Record<string, number>>;
  onWidths(widths: Record<string, number>): void;
  activeNo: string | null;
  onActivate(transactionNo: string): void;
  onOpen(transactionNo: string): void;
  selected: ReadonlySet<string>;
  onToggle(transactionNo: string): void;
  onToggleAll(): void;
  gridRef?: RefObject<HTMLDivElement | null>;
  /** This desk's refunds whose outcome is unknown, by payment (open-refunds.ts uncertainByPayment). */
  uncertain?: ReadonlyMap<string, readonly IntentView[]>;
  /**
   * The list is narrowed (the detail panel is open): only the columns that fit whole are shown, so the
   * pinned money columns never cover the others.
   */
  compact?: boolean;
  /** Only the first screen of rows is in yet; the rest of the cache is being read. */
  busy?: boolean;
  /** Scrolls this row into view each time `seq` changes (a look-up found it), even if it was active already. */
  reveal?: { transactionNo: string; seq: number } | null;
}

/** Sticky offsets: the left-pinned columns after the checkbox, the right-pinned ones from the right edge. */
interface Layout {
  width: number;
  sizes: Record<string, number>;
  sticky: Record<string, CSSProperties>;
  /**
   * Each column's cell style (width, and the sticky offset of a pinned column), one object per column
   * shared by every row: a row scrolling into the window re-renders, and a style object of its own per
   * cell was 16 new objects a row, every frame, for React to compare property by property.
   */
  cell: Record<string, CSSProperties>;
  /** The row's style (its width), shared the same way. */
  row: CSSProperties;
}

function layoutOf(columns: readonly ColumnSpec[], sizes: Record<string, number>): Layout {
  const sticky: Record<string, CSSProperties> = {};
  let left = CHECK_WIDTH;
  for (const c of columns) {
    if (c.pinned !== 'left') continue;
    sticky[c.id] = { position: 'sticky', left };
    left += sizes[c.id] ?? 0;
  }
  let right = 0;
  for (const c of [...columns].reverse()) {
    if (c.pinned !== 'right') continue;
    sticky[c.id] = { position: 'sticky', right };
    right += sizes[c.id] ?? 0;
  }
  const width = CHECK_WIDTH + columns.reduce((s, c) => s + (sizes[c.id] ?? 0), 0);
  const cell: Record<string, CSSProperties> = {};
  for (const c of columns) cell[c.id] = { width: sizes[c.id], ...sticky[c.id] };
  return { width, sizes, sticky, cell, row: { width } };
}

interface RowProps {
  columns: readonly ColumnSpec[];
  layout: Layout;
  onActivate(no: string): void;
  onOpen(no: string): void;
  onToggle(no: string): void;
}

/** The transaction a row element shows (written there by the painter). */
const rowNo = (el: Element): string | null =>
  el.closest('[role="row"]')?.getAttribute('data-transaction-no') ?? null;

/**
 * One place of the window: the row's elements — its checkbox and a cell per column — with nothing of
 * a row in them; row-painter.ts writes what they show (which transaction, its texts, selected, active).
 * Rendered again only when the columns, their sizes or the handlers change, never while scrolling.
 */
const RowSlot = memo(function RowSlot({ columns, layout, onActivate, onOpen, onToggle }: RowProps) {
  return (
    <div
      role="row"
      data-testid="tx-row"
      style={layout.row}
      onClick={(e) => {
        const no = rowNo(e.currentTarget);
        if (no) onActivate(no);
      }}
      // A double-click opens the detail; it should not also select a word of the row.
      onMouseDown={(e) => e.detail > 1 && e.preventDefault()}
      onDoubleClick={(e) => {
        const no = rowNo(e.currentTarget);
        if (no) onOpen(no);
      }}
    >
      <div role="gridcell" className="tx-cell tx-check pinned-left" style={CHECK_CELL}>
        <input
          type="checkbox"
          tabIndex={-1}
          onChange={(e) => {
            const box = e.currentTarget;
            // The box shows the selection, not the click: back as it was until the table repaints it
            // from the new selection (or leaves it, if the toggle was refused).
            box.checked = !box.checked;
            const no = rowNo(box);
            if (no) onToggle(no);
          }}
          onClick={(e) => e.stopPropagation()}
        />
      </div>
      {columns.map((c) => (
        <div key={c.id} role="gridcell" data-column={c.id} style={layout.cell[c.id]} />
      ))}
    </div>
  );
});

/**
 * The virtualised list: @tanstack/react-table owns the column model (headers, sizes, resizing, sort
 * state) while sorting and filtering happen beforehand over plain arrays (the same code the exports
 * use); only the rows in view are rendered (use-fixed-rows.ts), so a million rows scroll smoothly.
 * Columns size to their content and can be dragged (or resized from the keyboard on their edge);
 * the transaction number stays on the left and the money columns on the right while it scrolls sideways.
 * Keyboard: ↑/↓/PageUp/PageDown/Home/End move the active row (announced through aria-activedescendant),
 * Enter opens the detail, Space ticks.
 */
export function TransactionTable({
  rows,
  stats,
  columns: allColumns,
  sorting,
  onSort,
  widths,
  onWidths,
  activeNo,
  onActivate,
  onOpen,
  selected,
  onToggle,
  onToggleAll,
  gridRef,
  uncertain,
  compact = false,
  reveal = null,
  busy = false,
}: Props) {
  const format = useFormat();
  const ownRef = useRef<HTMLDivElement>(null);
  const scrollRef = gridRef ?? ownRef;
  const gridWidth = useElementWidth(scrollRef);
  // Widths from what the rows will show at the widest (distinct statuses and vendors, longest ids, each
  // currency's largest amounts), gathered once with the rows: a few texts measured, never every row.
  const auto = useMemo(() => contentWidths(stats, allColumns, format, FONTS), [stats, allColumns, format]);
  const columns = useMemo(
    () =>
      compact && gridWidth > 0
        ? fitColumns(
            allColumns,
            (c) => widths[c.id] ?? auto[c.id] ?? MIN_COLUMN_WIDTH,
            // The checkbox column takes its share first (the measured width excludes the scroll bar).
            gridWidth - CHECK_WIDTH,
          )
        : allColumns,
    [compact, gridWidth, allColumns, widths, auto],
  );
  const defs = useMemo<ColumnDef<ListRow>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: columnHeader(c, format),
        size: auto[c.id] ?? MIN_COLUMN_WIDTH,
        minSize: MIN_COLUMN_WIDTH,
        maxSize: MAX_COLUMN_WIDTH,
        accessorFn: (r: ListRow) => c.sortValue(r),
      })),
    [columns, auto, format],
  );
  const sizing = useMemo<ColumnSizingState>(() => ({ ...widths }), [widths]);
  const table = useReactTable({
    // The table models the columns only (headers, sizes, resizing); rows are rendered from `rows`, so
    // it is given none: a row model of a million rows would be a million objects nobody reads.
    data: NO_ROWS,
    columns: defs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.transactionNo,
    manualSorting: true,
    manualFiltering: true,
    enableColumnResizing: true,
    columnResizeMode: 'onChange',
    state: { sorting: [...sorting], columnSizing: sizing },
    onColumnSizingChange: (updater) => onWidths(typeof updater === 'function' ? updater(sizing) : updater),
  });
  const headers = table.getHeaderGroups()[0]?.headers ?? [];
  const sizesKey = headers.map((h) => `${h.column.id}:${h.getSize()}`).join(',');
  // Stable while sizes are unchanged, so memoised rows do not re-render on every keystroke elsewhere.
  const layout = useMemo(
    () =>
      layoutOf(
        columns,
        Object.fromEntries(
          sizesKey.split(',').map((kv) => [kv.split(':')[0] ?? '', Number(kv.split(':')[1])]),
        ),
      ),
    [columns, sizesKey],
  );
  const sizes = layout.sizes;
  const windowRef = useRef<HTMLDivElement>(null);
  // What the rows show, current as of the last render: the scroll handler paints from it.
  const input = useRef<PaintInput | null>(null);
  // What the window shows now (the paint skips a scroll event that moved less than a row).
  const painted = useRef<{ from: number; input: PaintInput | null; slots: number }>({
    from: -1,
    input: null,
    slots: 0,
  });
  const paint = useCallback(() => {
    const grid = scrollRef.current;
    const win = windowRef.current;
    const now = input.current;
    if (!grid || !win || !now) return;
    const slots = win.children.length;
    const from = windowStart(grid.scrollTop, {
      rowHeight: ROW_HEIGHT,
      overscan: OVERSCAN,
      count: now.rows.length,
      slots,
    });
    const last = painted.current;
    if (last.from === from && last.input === now && last.slots === slots) return;
    painted.current = { from, input: now, slots };
    if (last.from !== from) win.style.transform = `translateY(${from * ROW_HEIGHT}px)`;
    for (let i = 0; i < slots; i += 1) {
      const row = now.rows[from + i];
      if (row) paintRow(win.children[i] as HTMLElement, row, from + i, now);
    }
    // Only point at the active row while it is in the window: a dangling id would mislead a screen reader.
    const active = now.activeIndex;
    if (active >= from && active < from + slots && now.activeNo)
      grid.setAttribute('aria-activedescendant', rowDomId(now.activeNo));
    else grid.removeAttribute('aria-activedescendant');
  }, [scrollRef]);
  const { slots, totalSize, scrollToIndex } = useFixedRows({
    count: rows.length,
    rowHeight: ROW_HEIGHT,
    overscan: OVERSCAN,
    scrollRef,
    onScroll: paint,
  });
  const activeIndex = useMemo(
    () => (activeNo ? rows.findIndex((r) => r.transactionNo === activeNo) : -1),
    [rows, activeNo],
  );

  // Every render (props changed, or the window's length): the rows are painted again from the new
  // props before the browser draws them. Scrolling paints without rendering (the scroll handler).
  useLayoutEffect(() => {
    const next: PaintInput = { rows, columns, format, activeNo, activeIndex, selected, uncertain };
    const was = input.current;
    // A render for something the rows do not show (a keystroke in the filter box before the rows change)
    // keeps the paint: nothing is written again.
    if (!was || (Object.keys(next) as Array<keyof PaintInput>).some((k) => next[k] !== was[k]))
      input.current = next;
    paint();
  });
  useEffect(() => {
    if (activeIndex >= 0) scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, scrollToIndex]);
  // A look-up shows its row even when it was the active one already and the list was scrolled away.
  const revealIndex = useMemo(
    () => (reveal ? rows.findIndex((r) => r.transactionNo === reveal.transactionNo) : -1),
    [rows, reveal],
  );
  useEffect(() => {
    if (revealIndex >= 0) scrollToIndex(revealIndex, { align: 'center' });
  }, [revealIndex, reveal?.seq, scrollToIndex]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (e.target !== e.currentTarget || rows.length === 0) return;
    const page = Math.max(1, Math.floor((scrollRef.current?.clientHeight ?? 320) / ROW_HEIGHT) - 1);
    const moves: Record<string, number> = { ArrowDown: 1, ArrowUp: -1, PageDown: page, PageUp: -page };
    let next: number | undefined;
    if (e.key in moves)
      next = Math.min(
        rows.length - 1,
        Math.max(0, (activeIndex < 0 ? -1 : activeIndex) + (moves[e.key] ?? 0)),
      );
    else if (e.key === 'Home') next = 0;
    else if (e.key === 'End') next = rows.length - 1;
    else if (e.key === 'Enter' && activeNo) {
      e.preventDefault();
      onOpen(activeNo);
      return;
    } else if (e.key === ' ' && activeNo) {
      e.preventDefault();
      onToggle(activeNo);
      return;
    }
    if (next !== undefined) {
      e.preventDefault();
      const target = rows[next];
      if (target) onActivate(target.transactionNo);
    }
  };

  const resizeByKey = (id: string, e: KeyboardEvent<HTMLDivElement>) => {
    const step = e.shiftKey ? 40 : 10;
    const delta = e.key === 'ArrowLeft' ? -step : e.key === 'ArrowRight' ? step : 0;
    if (e.key === 'Enter' || e.key === 'Delete') {
      // Back to fitting its content.
      e.preventDefault();
      const { [id]: _gone, ...rest } = widths;
      onWidths(rest);
      return;
    }
    if (!delta) return;
    e.preventDefault();
    e.stopPropagation();
    const now = sizes[id] ?? MIN_COLUMN_WIDTH;
    onWidths({ ...widths, [id]: Math.min(MAX_COLUMN_WIDTH, Math.max(MIN_COLUMN_WIDTH, now + delta)) });
  };

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.transactionNo));
  return (
    <div
      className="tx-grid"
      role="grid"
      aria-label="Cached transactions"
      aria-rowcount={rows.length + 1}
      aria-colcount={columns.length + 1}
      aria-multiselectable="true"
      aria-busy={busy}
      tabIndex={0}
      ref={scrollRef}
      onKeyDown={onKeyDown}
      data-testid="tx-grid"
    >
      <div className="tx-head" role="row" aria-rowindex={1} style={{ width: layout.width }}>
        <div
          role="columnheader"
          className="tx-cell tx-check pinned-left"
          style={{ width: CHECK_WIDTH, position: 'sticky', left: 0 }}
        >
          <input
            type="checkbox"
            tabIndex={-1}
            aria-label="Select all shown rows"
            checked={allSelected}
            onChange={onToggleAll}
          />
        </div>
        {headers.map((h) => {
          const spec = columns.find((c) => c.id === h.column.id);
          const s = sorting.find((x) => x.id === h.column.id);
          const label = String(h.column.columnDef.header);
          return (
            <div
              key={h.id}
              role="columnheader"
              aria-sort={s ? (s.desc ? 'descending' : 'ascending') : 'none'}
              data-column={h.column.id}
              className={`tx-cell${spec?.align === 'right' ? ' num' : ''}${spec?.pinned ? ` pinned-${spec.pinned}` : ''}`}
              style={{ width: h.getSize(), ...layout.sticky[h.column.id] }}
            >
              <button
                type="button"
                className="sort"
                onClick={() => onSort(h.column.id)}
                title={spec?.sortGroup ? `Sort by ${label}, within each currency` : `Sort by ${label}`}
              >
                {label}
                <span aria-hidden="true" className="sort-mark">
                  {s ? (s.desc ? '▼' : '▲') : ''}
                </span>
              </button>
              <div
                role="separator"
                aria-orientation="vertical"
                aria-label={`Width of ${label}`}
                aria-valuenow={Math.round(h.getSize())}
                aria-valuemin={MIN_COLUMN_WIDTH}
                aria-valuemax={MAX_COLUMN_WIDTH}
                tabIndex={0}
                title="Drag to resize; double-click to fit the content"
                className={`tx-resize${h.column.getIsResizing() ? ' resizing' : ''}`}
                onMouseDown={h.getResizeHandler()}
                onTouchStart={h.getResizeHandler()}
                onDoubleClick={() => {
                  const { [h.column.id]: _gone, ...rest } = widths;
                  onWidths(rest);
                }}
                onKeyDown={(e) => resizeByKey(h.column.id, e)}
              />
            </div>
          );
        })}
      </div>
      <div className="tx-body" style={{ height: totalSize, width: layout.width }}>
        {/* The window of rows moves as one block: the rows inside are in normal flow, with no style of
            their own that changes as they scroll. Each row used to carry its own translateY, so every
            frame of a fast scroll gave 25 rows new inline styles, and Chromium's style recalculation
            grew slower frame after frame (2 → 35 ms over 120 frames of 900 px; scroll frame p95 45.7
            ms). With one moving block it stays at the frame floor. */}
        <div className="tx-window" ref={windowRef}>
          {Array.from({ length: slots }, (_, i) => (
            <RowSlot
              // Keyed by place in the window: a row scrolling in takes over the elements of one scrolling
              // out (the painter changes their text and attributes), and the DOM order stays the order
              // on screen.
              key={i}
              columns={columns}
              layout={layout}
              onActivate={onActivate}
              onOpen={onOpen}
              onToggle={onToggle}
            />
          ))}
        </div>
      </div>
    </div>
  );
}

/** The element's width in px, kept current while it resizes (0 until measured, or without ResizeObserver). */
function useElementWidth(ref: RefObject<HTMLElement | null>): number {
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = ref.current;
    if (!el || typeof ResizeObserver === 'undefined') return;
    const ro = new ResizeObserver(([entry]) => setWidth(Math.floor(entry?.contentRect.width ?? 0)));
    ro.observe(el);
    return () => ro.disconnect();
  }, [ref]);
  return width;
}
