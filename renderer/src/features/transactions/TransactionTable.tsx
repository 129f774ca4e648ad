import { type ColumnDef, getCoreRowModel, useReactTable } from '@tanstack/react-table';
import { useVirtualizer } from '@tanstack/react-virtual';
import { type KeyboardEvent, memo, useEffect, useMemo, useRef } from 'react';
import type { ColumnSpec } from './columns';
import type { ListRow } from './list-row';
import type { Sorting } from './sorting';

const ROW_HEIGHT = 32;
const CHECK_WIDTH = 36;

interface Props {
  rows: readonly ListRow[];
  columns: readonly ColumnSpec[];
  sorting: Sorting;
  onSort(id: string): void;
  activeNo: string | null;
  onActivate(transactionNo: string): void;
  onOpen(transactionNo: string): void;
  selected: ReadonlySet<string>;
  onToggle(transactionNo: string): void;
  onToggleAll(): void;
}

interface RowProps {
  row: ListRow;
  index: number;
  columns: readonly ColumnSpec[];
  isActive: boolean;
  isSelected: boolean;
  top: number;
  onActivate(no: string): void;
  onOpen(no: string): void;
  onToggle(no: string): void;
}

// Memoised: while scrolling, only rows entering the window render; the others keep their output.
const Row = memo(function Row({
  row,
  index,
  columns,
  isActive,
  isSelected,
  top,
  onActivate,
  onOpen,
  onToggle,
}: RowProps) {
  return (
    <div
      role="row"
      aria-rowindex={index + 2}
      aria-selected={isActive}
      data-testid="tx-row"
      data-transaction-no={row.transactionNo}
      className={`tx-row${isActive ? ' active' : ''}${index % 2 ? ' odd' : ''}`}
      style={{ transform: `translateY(${top}px)` }}
      onClick={() => onActivate(row.transactionNo)}
      onDoubleClick={() => onOpen(row.transactionNo)}
    >
      <div role="gridcell" className="tx-cell tx-check" style={{ width: CHECK_WIDTH }}>
        <input
          type="checkbox"
          tabIndex={-1}
          aria-label={`Select ${row.transactionNo}`}
          checked={isSelected}
          onChange={() => onToggle(row.transactionNo)}
          onClick={(e) => e.stopPropagation()}
        />
      </div>
      {columns.map((c) => (
        <div
          key={c.id}
          role="gridcell"
          className={`tx-cell${c.align === 'right' ? ' num' : ''}${c.id === 'status' ? ` status status-${row.status}` : ''}`}
          style={{ width: c.width }}
        >
          {c.display(row)}
        </div>
      ))}
    </div>
  );
});

/**
 * The virtualised list: @tanstack/react-table owns the column model (headers, visibility, sort state)
 * while sorting and filtering happen beforehand over plain arrays (the same code the export uses);
 * @tanstack/react-virtual renders only the rows in view, so 100k rows scroll smoothly.
 * Keyboard: ↑/↓/PageUp/PageDown/Home/End move the selection, Enter opens the detail, Space ticks.
 */
export function TransactionTable({
  rows,
  columns,
  sorting,
  onSort,
  activeNo,
  onActivate,
  onOpen,
  selected,
  onToggle,
  onToggleAll,
}: Props) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const defs = useMemo<ColumnDef<ListRow>[]>(
    () =>
      columns.map((c) => ({
        id: c.id,
        header: c.header,
        size: c.width,
        accessorFn: (r: ListRow) => c.sortValue(r),
      })),
    [columns],
  );
  const table = useReactTable({
    data: rows as ListRow[],
    columns: defs,
    getCoreRowModel: getCoreRowModel(),
    getRowId: (r) => r.transactionNo,
    manualSorting: true,
    manualFiltering: true,
    state: { sorting: [...sorting] },
  });
  const virtual = useVirtualizer({
    count: rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => ROW_HEIGHT,
    overscan: 12,
  });
  const activeIndex = useMemo(
    () => (activeNo ? rows.findIndex((r) => r.transactionNo === activeNo) : -1),
    [rows, activeNo],
  );
  const totalWidth = CHECK_WIDTH + columns.reduce((s, c) => s + c.width, 0);

  useEffect(() => {
    if (activeIndex >= 0) virtual.scrollToIndex(activeIndex, { align: 'auto' });
  }, [activeIndex, virtual]);

  const onKeyDown = (e: KeyboardEvent<HTMLDivElement>) => {
    if (rows.length === 0) return;
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

  const allSelected = rows.length > 0 && rows.every((r) => selected.has(r.transactionNo));
  return (
    <div
      className="tx-grid"
      role="grid"
      aria-label="Cached transactions"
      aria-rowcount={rows.length + 1}
      aria-multiselectable="true"
      tabIndex={0}
      ref={scrollRef}
      onKeyDown={onKeyDown}
      data-testid="tx-grid"
    >
      <div className="tx-head" role="row" aria-rowindex={1} style={{ width: totalWidth }}>
        <div role="columnheader" className="tx-cell tx-check" style={{ width: CHECK_WIDTH }}>
          <input
            type="checkbox"
            tabIndex={-1}
            aria-label="Select all shown rows"
            checked={allSelected}
            onChange={onToggleAll}
          />
        </div>
        {table.getHeaderGroups()[0]?.headers.map((h) => {
          const spec = columns.find((c) => c.id === h.column.id);
          const s = sorting.find((x) => x.id === h.column.id);
          return (
            <div
              key={h.id}
              role="columnheader"
              aria-sort={s ? (s.desc ? 'descending' : 'ascending') : 'none'}
              className={`tx-cell${spec?.align === 'right' ? ' num' : ''}`}
              style={{ width: h.getSize() }}
            >
              <button
                type="button"
                className="sort"
                onClick={() => onSort(h.column.id)}
                title="Sort by this column"
              >
                {String(h.column.columnDef.header)}
                <span aria-hidden="true" className="sort-mark">
                  {s ? (s.desc ? '▼' : '▲') : ''}
                </span>
              </button>
            </div>
          );
        })}
      </div>
      <div className="tx-body" style={{ height: virtual.getTotalSize(), width: totalWidth }}>
        {virtual.getVirtualItems().map((v) => {
          const row = rows[v.index];
          if (!row) return null;
          return (
            <Row
              key={row.transactionNo}
              row={row}
              index={v.index}
              columns={columns}
              isActive={row.transactionNo === activeNo}
              isSelected={selected.has(row.transactionNo)}
              top={v.start}
              onActivate={onActivate}
              onOpen={onOpen}
              onToggle={onToggle}
            />
          );
        })}
      </div>
    </div>
  );
}
