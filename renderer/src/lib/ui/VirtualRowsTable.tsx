import { useVirtualizer } from '@tanstack/react-virtual';
import { type HTMLAttributes, type ReactNode, useRef } from 'react';

/** What a row adds to its `<tr>` (a click, a key, a selection class, data attributes). */
export type RowAttributes = HTMLAttributes<HTMLTableRowElement> & Record<`data-${string}`, unknown>;

/**
 * A big table virtualised (a reconciliation's 100k ledger rows, a 50,000-row refund batch): only a few
 * dozen rows are in the DOM, and spacer rows above and below keep it a real table (header, columns,
 * keyboard, aria-rowcount/rowindex) rather than a grid of divs. The columns and cells are the caller's.
 */
export function VirtualRowsTable<T>(p: {
  rows: readonly T[];
  /** A row's expected height in px before it is measured. */
  rowHeight: number;
  /** How many columns the header has (the spacers span them). */
  columns: number;
  /** The scrolling region's class and its accessible name. */
  className: string;
  label: string;
  testId: string;
  /** The header row's cells. */
  head: ReactNode;
  /** A row's cells. */
  cells: (row: T, index: number) => ReactNode;
  rowAttributes?: (row: T, index: number) => RowAttributes;
}) {
  const scrollRef = useRef<HTMLDivElement>(null);
  const virtualizer = useVirtualizer({
    count: p.rows.length,
    getScrollElement: () => scrollRef.current,
    estimateSize: () => p.rowHeight,
    overscan: 12,
  });
  const visible = virtualizer.getVirtualItems();
  const top = visible[0]?.start ?? 0;
  const bottom = virtualizer.getTotalSize() - (visible.at(-1)?.end ?? 0);
  return (
    <div className={p.className} ref={scrollRef} role="region" aria-label={p.label} tabIndex={0}>
      <table className="recon-table" data-testid={p.testId} aria-rowcount={p.rows.length + 1}>
        <thead>
          <tr>{p.head}</tr>
        </thead>
        <tbody>
          {top > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: top }}>
              <td colSpan={p.columns} />
            </tr>
          )}
          {visible.map((v) => {
            const row = p.rows[v.index]!;
            return (
              <tr
                key={v.index}
                {...p.rowAttributes?.(row, v.index)}
                ref={virtualizer.measureElement}
                data-index={v.index}
                aria-rowindex={v.index + 2}
              >
                {p.cells(row, v.index)}
              </tr>
            );
          })}
          {bottom > 0 && (
            <tr aria-hidden="true" className="spacer" style={{ height: bottom }}>
              <td colSpan={p.columns} />
            </tr>
          )}
        </tbody>
      </table>
    </div>
  );
}
