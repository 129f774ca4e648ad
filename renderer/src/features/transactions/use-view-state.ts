import { useCallback, useEffect, useRef, useState } from 'react';
import { COLUMN_IDS } from './columns';
import { useCache } from '../../db/owner';
import { DEFAULT_VIEW, VIEW_STATE_KEY, parseViewState, type ViewState } from './view-state';

const SAVE_DELAY_MS = 400;

/**
 * The list's filters, sort and hidden columns, remembered per profile in the cache's meta table.
 * Loads once, then saves shortly after each change (typing in a filter does not write per keystroke).
 */
export function useViewState(profileId: string) {
  const cache = useCache();
  const [view, setView] = useState<ViewState>(DEFAULT_VIEW);
  const [isLoaded, setLoaded] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout> | undefined>(undefined);

  useEffect(() => {
    let live = true;
    void cache.setting(profileId, VIEW_STATE_KEY).then(
      (stored) => {
        if (!live) return;
        setView(parseViewState(stored, COLUMN_IDS));
        setLoaded(true);
      },
      () => live && setLoaded(true),
    );
    return () => {
      live = false;
    };
  }, [cache, profileId]);

  const update = useCallback(
    (change: (v: ViewState) => ViewState) => {
      setView((prev) => {
        const next = change(prev);
        clearTimeout(timer.current);
        // A failed save only loses the remembered view, never data: ignore it.
        timer.current = setTimeout(
          () => void cache.saveSetting(profileId, VIEW_STATE_KEY, next).catch(() => undefined),
          SAVE_DELAY_MS,
        );
        return next;
      });
    },
    [cache, profileId],
  );

  useEffect(() => () => clearTimeout(timer.current), []);
  return { view, update, isLoaded };
}
