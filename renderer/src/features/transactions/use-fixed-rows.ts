import { type RefObject, useCallback, useEffect, useState } from 'react';

/**
 * The first row of the window for a scroll position: `overscan` rows above the first in view, moved
 * down no further than leaves `slots` rows to show (so the window is always `slots` rows long).
 */
export function windowStart(
  scrollTop: number,
  o: { rowHeight: number; overscan: number; count: number; slots: number },
): number {
  const first = Math.floor(Math.max(0, scrollTop) / o.rowHeight);
  return Math.max(0, Math.min(o.count - o.slots, first - o.overscan));
}

/**
 * The window of a list of equal-height rows: how many rows it holds (those that fit the scroller, plus
 * `overscan` on each side) and, on every scroll, `onScroll` (keep it stable: it is re-subscribed
 * when it changes) — called within the scroll event, before
 * the frame is drawn, so the rows are filled in before they are painted (left to a later task, the
 * browser drew the old rows at the new offset first, and each frame did that work twice). The window's
 * length changes only when the scroller is resized or the list gets shorter than it; scrolling itself
 * renders nothing: the caller paints the rows (row-painter.ts). Arithmetic, nothing per row of the
 * list: a general virtualiser (@tanstack/react-virtual) keeps a measurement object for every row — a
 * million objects (~80 MB, and a long task each time the count changed) for rows whose height is known.
 */
export function useFixedRows(opts: {
  count: number;
  rowHeight: number;
  overscan: number;
  scrollRef: RefObject<HTMLElement | null>;
  onScroll: () => void;
}) {
  const { count, rowHeight, overscan, scrollRef, onScroll } = opts;
  const [fit, setFit] = useState(0);
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const measure = () => setFit(Math.ceil(el.clientHeight / rowHeight));
    measure();
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(measure);
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
    };
  }, [scrollRef, rowHeight, onScroll]);

  const slots = Math.max(0, Math.min(count, fit + 2 * overscan + 1));

  /** Scrolls so the row is in view: `auto` moves only as far as needed, `center` centres it. */
  const scrollToIndex = useCallback(
    (index: number, { align }: { align: 'auto' | 'center' }) => {
      const el = scrollRef.current;
      if (!el) return;
      const start = index * rowHeight;
      const height = el.clientHeight;
      if (align === 'center') el.scrollTop = Math.max(0, start - height / 2 + rowHeight / 2);
      else if (start < el.scrollTop) el.scrollTop = start;
      else if (start + rowHeight > el.scrollTop + height) el.scrollTop = start + rowHeight - height;
    },
    [scrollRef, rowHeight],
  );

  return { slots, totalSize: count * rowHeight, scrollToIndex };
}
