import { type RefObject, useCallback, useEffect, useMemo, useState } from 'react';
import { flushSync } from 'react-dom';

/** One rendered row of the window: its index in the list and its offset from the top of the body. */
export interface WindowRow {
  index: number;
  start: number;
}

/**
 * The rows of a list of equal-height rows that are in view (plus `overscan` on each side), from the
 * scroller's position: arithmetic, nothing per row of the list. A general virtualiser
 * (@tanstack/react-virtual) keeps a measurement object for every row — a million objects (~80 MB, and
 * a long task each time the count changed) for rows whose height is known beforehand.
 */
export function useFixedRows(opts: {
  count: number;
  rowHeight: number;
  overscan: number;
  scrollRef: RefObject<HTMLElement | null>;
}) {
  const { count, rowHeight, overscan, scrollRef } = opts;
  // The first row in view and how many fit; re-rendered only when either changes, not per scroll event.
  const [view, setView] = useState({ first: 0, fit: 0 });
  useEffect(() => {
    const el = scrollRef.current;
    if (!el) return;
    const read = () => {
      const first = Math.max(0, Math.floor(el.scrollTop / rowHeight));
      const fit = Math.ceil(el.clientHeight / rowHeight);
      setView((v) => (v.first === first && v.fit === fit ? v : { first, fit }));
    };
    read();
    // Rendered within the scroll event, before the frame is drawn (as react-virtual does while
    // scrolling): left to React's scheduler, the new rows came a task later, after the browser had
    // already styled and painted the old ones at the new offset, and each frame did that work twice.
    const onScroll = () => flushSync(read);
    el.addEventListener('scroll', onScroll, { passive: true });
    const ro = typeof ResizeObserver === 'undefined' ? undefined : new ResizeObserver(read);
    ro?.observe(el);
    return () => {
      el.removeEventListener('scroll', onScroll);
      ro?.disconnect();
    };
  }, [scrollRef, rowHeight]);

  const items = useMemo(() => {
    const from = Math.max(0, Math.min(view.first, count - 1) - overscan);
    const to = Math.min(count - 1, view.first + view.fit + overscan);
    const out: WindowRow[] = [];
    for (let i = from; i <= to; i += 1) out.push({ index: i, start: i * rowHeight });
    return out;
  }, [view, count, overscan, rowHeight]);

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

  return { items, totalSize: count * rowHeight, scrollToIndex };
}
