import { createContext, useContext } from 'react';
import type { Formatters } from './format';
import type { DisplayPrefs } from './prefs';

export interface PrefsApi {
  prefs: DisplayPrefs;
  setPrefs(change: Partial<DisplayPrefs>): void;
  /** The theme shown now (system resolved). */
  theme: 'light' | 'dark';
  format: Formatters;
}

export const PrefsContext = createContext<PrefsApi | null>(null);

export function usePrefs(): PrefsApi {
  const api = useContext(PrefsContext);
  if (!api) throw new Error('PrefsProvider is not mounted above this component.');
  return api;
}

/** The formatters for the person's locale, zone and date format. */
export function useFormat(): Formatters {
  return usePrefs().format;
}
