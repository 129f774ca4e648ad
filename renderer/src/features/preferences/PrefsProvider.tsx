import { type ReactNode, useCallback, useEffect, useMemo, useState } from 'react';
import { createFormatters } from './format';
import { PrefsContext } from './use-prefs';
import { type DisplayPrefs, loadPrefs, resolveTheme, savePrefs } from './prefs';
import { applyTheme, systemPrefersDark } from './theme';

/** Holds the display preferences, keeps <html data-theme> in step with them and with the OS. */
export function PrefsProvider({ children, initial }: { children: ReactNode; initial?: DisplayPrefs }) {
  const [prefs, setState] = useState<DisplayPrefs>(() => initial ?? loadPrefs());
  const [systemDark, setSystemDark] = useState(systemPrefersDark);
  useEffect(() => {
    if (typeof matchMedia !== 'function') return;
    const mq = matchMedia('(prefers-color-scheme: dark)');
    const on = () => setSystemDark(mq.matches);
    mq.addEventListener('change', on);
    return () => mq.removeEventListener('change', on);
  }, []);
  const theme = resolveTheme(prefs.theme, systemDark);
  useEffect(() => applyTheme(theme), [theme]);
  const setPrefs = useCallback((change: Partial<DisplayPrefs>) => {
    setState((p) => {
      const next = { ...p, ...change };
      savePrefs(next);
      return next;
    });
  }, []);
  const format = useMemo(() => createFormatters(prefs), [prefs]);
  const api = useMemo(() => ({ prefs, setPrefs, theme, format }), [prefs, setPrefs, theme, format]);
  return <PrefsContext.Provider value={api}>{children}</PrefsContext.Provider>;
}
