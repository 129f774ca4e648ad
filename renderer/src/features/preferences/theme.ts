/** The DOM side of the theme: what the OS prefers, and the attribute the CSS variables switch on. */
export const systemPrefersDark = () =>
  typeof matchMedia === 'function' && matchMedia('(prefers-color-scheme: dark)').matches;

/** Puts the theme on <html> (CSS variables switch on data-theme). */
export function applyTheme(theme: 'light' | 'dark', root: HTMLElement = document.documentElement) {
  root.dataset['theme'] = theme;
}
