import { useQuery } from '@tanstack/react-query';
import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import { COLUMN_IDS } from './columns';
import { useCache } from '../../db/owner';
import { DEFAULT_VIEW, VIEW_STATE_KEY, parseViewState, type ViewState } from './view-state';

const SAVE_DELAY_MS = 400;

/**
 * The list's filters, sort and hidden columns, remembered per profile in the cache's meta table.
 * Loads once, then saves shortly after each change (typing in a filter does not write per keystroke). A
 * change made before the stored view arrived wins over it.
 */
export function useViewState(profileId: string) {
  const cache = useCache();
  // Read through a query (app/warm-start reads it ahead, before the whole cache): the list never sorts
  // 100k rows by the default view only to sort them again when the stored one arrives.
  const stored = useQuery(cache.settingQuery(profileId, VIEW_STATE_KEY));
  const loaded = useMemo(
    () => (stored.data === undefined ? undefined : parseViewState(stored.data ?? undefined, COLUMN_IDS)),
    [stored.data],
  );
  // What the person changed here; until then the stored view (or the default while it loads).
  const [changed, setChanged] = useState<ViewState | null>(null);
  const view = changed ?? loaded ?? DEFAULT_VIEW;
  const isLoaded = stored.data !== undefined || stored.isError;
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);
  // The change not written yet: written at once when the page goes away or the list closes, so a
  // column dragged just before closing is not lost with the delay.
  const pending = useRef<ViewState | undefined>(undefined);
  const flush = useCallback(() => {
    clearTimeout(timer.current);
    const next = pending.current;
    pending.current = undefined;
    // A failed save only loses the remembered view, never data: ignore it.
    if (next) void cache.saveSetting(profileId, VIEW_STATE_KEY, next).catch(() => undefined);
  }, [cache, profileId]);

  const update = useCallback(
    (change: (v: ViewState) => ViewState) => {
      setChanged((prev) => {
        const next = change(prev ?? loaded ?? DEFAULT_VIEW);
        pending.current = next;
        clearTimeout(timer.current);
        timer.current = setTimeout(flush, SAVE_DELAY_MS);
        return next;
      });
    },
    [loaded, flush],
  );

  useEffect(() => {
    const onHide = () => flush();
    const onVisibility = () => document.visibilityState === 'hidden' && flush();
    window.addEventListener('pagehide', onHide);
    document.addEventListener('visibilitychange', onVisibility);
    return () => {
      window.removeEventListener('pagehide', onHide);
      document.removeEventListener('visibilitychange', onVisibility);
      flush();
    };
  }, [flush]);
  return { view, update, isLoaded };
}
