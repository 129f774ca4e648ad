import { type RefCallback, useCallback } from 'react';

/**
 * Makes a <details> pop-over behave like one: Esc closes it and puts focus back on its summary,
 * a click elsewhere or Tab out of it closes it. (The Esc does not reach screen-level handlers, so
 * closing a filter never also closes the detail panel behind it.) Returns the ref to put on the
 * <details>; it works for pop-overs that mount later, too.
 */
export function usePopover(): RefCallback<HTMLDetailsElement> {
  return useCallback((d: HTMLDetailsElement | null) => {
    if (!d) return;
    const onDown = (e: MouseEvent) => {
      if (d.open && !d.contains(e.target as Node)) d.open = false;
    };
    const onKey = (e: KeyboardEvent) => {
      if (e.key !== 'Escape' || !d.open) return;
      e.stopPropagation();
      e.preventDefault();
      d.open = false;
      d.querySelector('summary')?.focus();
    };
    const onFocusOut = (e: FocusEvent) => {
      if (d.open && e.relatedTarget instanceof Node && !d.contains(e.relatedTarget)) d.open = false;
    };
    document.addEventListener('mousedown', onDown);
    d.addEventListener('keydown', onKey);
    d.addEventListener('focusout', onFocusOut);
    return () => {
      document.removeEventListener('mousedown', onDown);
      d.removeEventListener('keydown', onKey);
      d.removeEventListener('focusout', onFocusOut);
    };
  }, []);
}
